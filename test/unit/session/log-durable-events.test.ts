/**
 * ADD-4: every event a reload must find is fsync'd when appended: a turn's end, the approval
 * state and a context reset (issue 19, a survivor of the session rerun: the reset was never
 * checked); an ordinary tool call is not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EventSequencer, type SessionEvent } from '../../../src/core/session/events';
import { SessionLog } from '../../../src/core/session/log';
import { nodeFileSystem } from '../../../src/node/fs';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-log-durable-');
const clock = { now: () => Date.parse('2026-12-02T05:00:00.000Z') };

test('ADD-4: turn end, approval request and context reset are each fsync’d; a tool call is not', async () => {
  let syncs = 0;
  const fs = {
    ...nodeFileSystem,
    async openAppend(p: string, mode: number) {
      const handle = await nodeFileSystem.openAppend(p, mode);
      return { ...handle, sync: async () => ((syncs += 1), handle.sync()) };
    },
  };
  const log = await SessionLog.open(fs, tempRoot(), 'r', { key: randomBytes(32) });
  const seq = new EventSequencer('r', clock);
  const cases: [SessionEvent, number][] = [
    [seq.stamp({ type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{}' }), 0],
    [seq.stamp({ type: 'turn.completed', status: 'idle' }), 1],
    [seq.stamp({ type: 'plan.approval.requested', planFile: '.vtcode/plans/p.md' }), 1],
    [
      seq.stamp({
        type: 'context.reset',
        trigger: 'user',
        planPreserved: true,
        previousContextUsage: 0.5,
        toolBudgetReset: true,
      }),
      1,
    ],
  ];
  for (const [event, expected] of cases) {
    const before = syncs;
    await log.append(event);
    assert.equal(syncs - before, expected, `${event.type}: fsyncs`);
  }
  await log.close();
});
