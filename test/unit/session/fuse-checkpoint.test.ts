/**
 * FUSE-2: before a turn stops at the blocked-call fuse the session saves and re-reads its log; the
 * stop message offers `resume` only when the log read back ends with the latest event and the host
 * has a resume command, and otherwise says why resuming is unavailable.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { FileSystem } from '../../../src/core/ports';
import { nodeFileSystem } from '../../../src/node/fs';
import { LIMITS, of, useHarness } from './harness';

const h = useHarness();
const outside = (id: string) => ({ id, name: 'write_file', arguments: '{"path":"../outside.txt","content":"x"}' });

/** With a cap of 1, the recovery pass's blocked calls trip the fuse and the turn ends blocked (FUSE-1). */
async function blockedTurnEnd(overrides: Parameters<typeof h.deps>[0] = {}, onTurnStart = () => {}): Promise<string> {
  h.server.enqueue(
    { toolCalls: [outside('c1'), outside('c2')] },
    { toolCalls: [outside('c3'), outside('c4')] },
    { text: 'never requested' },
  );
  const { session, events } = await h.start(
    'build',
    h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 1 }, ...overrides }),
  );
  session.on((e) => {
    if (e.type === 'turn.started') onTurnStart();
  });
  assert.deepEqual(await session.submit('Write outside'), { kind: 'ran', status: 'blocked' });
  return of(events, 'turn.completed').at(-1)?.reason ?? '';
}

const resumeLine = (reason: string) => reason.split('\n').at(-1);

/**
 * The node file system, except that once armed (when the turn starts: the session has opened its
 * log by then) reading a session log gives `read(text)` instead.
 */
function logReadAs(read: (text: string | null) => string | null) {
  const state = { armed: false };
  const fs: FileSystem & typeof nodeFileSystem = {
    ...nodeFileSystem,
    async readText(path) {
      const text = await nodeFileSystem.readText(path);
      return state.armed && path.includes('/.vtcode/sessions/') ? read(text) : text;
    },
  };
  return { fs, arm: () => (state.armed = true) };
}

test('FUSE-2: without a resume command the stop message says this runner keeps no archive', async () => {
  const reason = await blockedTurnEnd({ resumeCommand: undefined });
  assert.equal(resumeLine(reason), '- Resume is unavailable: this runner does not create session archives.');
});

test('FUSE-2: a log that reads back without its last line is not offered for resume', async () => {
  const { fs, arm } = logReadAs((text) => text && text.replace(/[^\n]*\n$/, ''));
  const reason = await blockedTurnEnd({ fs }, arm);
  assert.equal(
    resumeLine(reason),
    '- Resume is unavailable: the session checkpoint could not be saved (the log does not end with the latest event).',
  );
});

test('FUSE-2: a log that is gone when read back is not offered for resume', async () => {
  const { fs, arm } = logReadAs(() => null);
  const reason = await blockedTurnEnd({ fs }, arm);
  assert.equal(
    resumeLine(reason),
    '- Resume is unavailable: the session checkpoint could not be saved (the log does not end with the latest event).',
  );
});

test('FUSE-2: a log that cannot be read back is not offered for resume, and the read error is named', async () => {
  const { fs, arm } = logReadAs(() => {
    throw new Error('EIO: i/o error, read');
  });
  const reason = await blockedTurnEnd({ fs }, arm);
  assert.equal(
    resumeLine(reason),
    '- Resume is unavailable: the session checkpoint could not be saved (EIO: i/o error, read).',
  );
});

test('FUSE-2: a log that reads back whole is offered for resume with the host command', async () => {
  const { fs, arm } = logReadAs((text) => text);
  const reason = await blockedTurnEnd({ fs }, arm);
  assert.match(resumeLine(reason) ?? '', /^- Resume this session later with `vtplan resume [0-9a-f-]+`\.$/);
});
