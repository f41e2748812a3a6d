/**
 * NAV-4 for listings made with run_command: navigation counts a command by the reading its gate
 * check judged (issue 17), so `ls` variants over one folder are listings of that root, not five
 * unrelated commands.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, useHarness } from './harness';

const h = useHarness();

test('NAV-4: five differently flagged `ls` commands over src in plan are repeated listings of one root and close research', async () => {
  const commands = ['ls src', 'ls -la src', 'ls -1 src', 'ls -a src', 'ls -l src'];
  h.server.enqueue(
    {
      toolCalls: commands.map((command, i) => ({
        id: `c${i + 1}`,
        name: 'run_command',
        arguments: JSON.stringify({ command }),
      })),
    },
    { text: 'Here is what src holds.' },
  );
  const { session, events } = await h.start('plan');
  await session.submit('Look at src');
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok]),
    commands.map((_, i) => [`c${i + 1}`, true]),
  );
  const [pass] = of(events, 'directive');
  assert.equal(pass?.kind, 'synthesis');
  assert.match(pass?.text ?? '', /repeated listing of one target: .*src.* ×5/);
  assert.equal(h.body(1).tool_choice, 'none');
});
