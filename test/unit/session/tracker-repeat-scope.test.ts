/**
 * TRK-4: the task_tracker repeat guard judges task_tracker calls only. Another tool's call whose
 * arguments happen to read as tracker arguments is that tool's call: it runs (and fails on its own
 * argument check), never counted as a tracker repeat.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, useHarness } from './harness';

const h = useHarness();

test('TRK-4: after two identical task_tracker lists, a read_file call with the same arguments ({"action":"list"}) is answered by read_file, not refused as a repeat', async () => {
  const list = (n: number) => ({ id: `call_t${n}`, name: 'task_tracker', arguments: '{"action":"list"}' });
  const oddRead = { id: 'call_odd', name: 'read_file', arguments: '{"action":"list"}' };
  h.server.enqueue({ toolCalls: [list(1), list(2), oddRead] }, { text: 'Done.' });
  const { session, events } = await h.start('build');
  await session.submit('Show the checklist');

  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok]),
    [
      ['call_t1', true],
      ['call_t2', true],
      ['call_odd', false],
    ],
  );
  assert.deepEqual(of(events, 'tool.blocked'), []);
});
