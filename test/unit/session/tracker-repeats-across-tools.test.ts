/**
 * TRK-4 across other tools: the repeat streak counts task_tracker calls only, so polling the
 * tracker with reads in between is still polling (turn/batch.ts records only tracker calls).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, read, useHarness } from './harness';

const h = useHarness();
const tracker = (args: object) => ({ name: 'task_tracker', arguments: JSON.stringify(args) });
const list = tracker({ action: 'list' });

test('TRK-4: successful reads between identical tracker lists do not reset the streak: the third list still gets the correction', async () => {
  h.server.enqueue(
    { toolCalls: [tracker({ action: 'create', title: 'Shout', items: ['Add the flag', 'Test it'] })] },
    { toolCalls: [list, read(1)] },
    { toolCalls: [list, read(2, 'src/greet.js')] },
    { toolCalls: [list] },
    { text: 'Reusing the last result.' },
  );
  const { session, events } = await h.start('build');
  await session.submit('Track the shout work');
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.name, r.ok]),
    [
      ['task_tracker', true],
      ['task_tracker', true],
      ['read_file', true],
      ['task_tracker', true],
      ['read_file', true],
    ],
  );
  const refused = of(events, 'tool.blocked');
  assert.equal(refused.length, 1);
  assert.match(refused[0]?.reason ?? '', /called 2 times in a row with the same arguments.*Reuse the last result/);
});
