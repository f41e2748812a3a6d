/**
 * TRK-4 in the running turn: identical successful task_tracker calls in a row past the limit (2)
 * get one correction instead of a result, and going on after it ends the turn with a blocked
 * handoff. A different call resets the streak; a failed call does not count.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, useHarness } from './harness';

const h = useHarness();
const call = (args: object) => ({ toolCalls: [{ name: 'task_tracker', arguments: JSON.stringify(args) }] });
const create = call({ action: 'create', title: 'Shout', items: ['Add the flag', 'Test it'] });
const list = call({ action: 'list' });

test('TRK-4: a third identical list gets one correction, a fourth ends the turn blocked', async () => {
  h.server.enqueue(create, list, list, list, list, { text: 'never asked for' });
  const { session, events } = await h.start('build');
  await session.submit('Track the shout work');

  const results = of(events, 'tool.result').filter((r) => r.name === 'task_tracker');
  assert.deepEqual(
    results.map((r) => r.ok),
    [true, true, true],
    'create and the first two lists ran',
  );
  const refused = of(events, 'tool.blocked').filter((b) => b.name === 'task_tracker');
  assert.equal(refused.length, 2);
  assert.match(refused[0]?.reason ?? '', /called 2 times in a row with the same arguments.*Reuse the last result/);
  assert.match(refused[1]?.reason ?? '', /kept repeating the same call after a correction/);
  const end = of(events, 'turn.completed').at(-1);
  assert.equal(end?.status, 'blocked');
  assert.equal(h.server.requests.length, 5, 'no model request after the blocked call');
});

test('TRK-4: a different successful call resets the streak, and failed calls do not count', async () => {
  const bad = call({ action: 'update', index: 99, status: 'completed' });
  const update = call({ action: 'update', index: 1, status: 'in_progress' });
  h.server.enqueue(create, list, list, update, list, list, bad, bad, bad, { text: 'Tracked.' });
  const { session, events } = await h.start('build');
  await session.submit('Track the shout work');

  assert.deepEqual(
    of(events, 'tool.blocked').filter((b) => b.name === 'task_tracker'),
    [],
    'no correction: the update broke the streak, and the failing updates do not count',
  );
  assert.equal(of(events, 'tool.result').filter((r) => r.name === 'task_tracker').length, 9);
  assert.equal(of(events, 'turn.completed').at(-1)?.status, 'idle');
});
