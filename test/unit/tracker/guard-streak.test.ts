/**
 * TRK-4: what the repeat guard tells the model, that a failed call inside a streak leaves it as it
 * was, and that no key order splits one call into several. Found by mutation testing
 * (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { TrackerRepeatGuard, type TrackerCall } from '../../../src/core/tracker';

const same: TrackerCall = { action: 'update', index_path: '1', status: 'completed' };

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]),
  );
}

test('TRK-4: the correction names the streak and the way forward; the block says the turn stops', () => {
  const g = new TrackerRepeatGuard(2);
  g.record(same, true);
  g.record(same, true);
  assert.deepEqual(g.check(same), {
    kind: 'correct',
    message:
      'task_tracker was called 2 times in a row with the same arguments and the checklist did not change. Reuse the last result; to make progress update the task you are working on, e.g. {"action":"update","index_path":"1","status":"completed"}.',
  });
  g.record(same, true);
  assert.deepEqual(g.check(same), {
    kind: 'block',
    message:
      'task_tracker kept repeating the same call after a correction (3 identical successful calls); the turn stops here.',
  });
});

test('TRK-4: a different call that fails inside a streak does not end it', () => {
  const g = new TrackerRepeatGuard(2);
  g.record(same, true);
  g.record(same, true);
  g.record({ action: 'list' }, false);
  assert.equal(g.check(same).kind, 'correct');
});

test('TRK-4: every key order of one call continues the same streak', () => {
  const fields: Array<[string, unknown]> = [
    ['action', 'update'],
    ['index_path', '1'],
    ['status', 'completed'],
    ['notes', 'checked twice'],
  ];
  const orders = permutations(fields);
  const g = new TrackerRepeatGuard(2);
  for (const order of orders) g.record(Object.fromEntries(order) as unknown as TrackerCall, true);
  const v = g.check(Object.fromEntries(fields) as unknown as TrackerCall);
  assert.equal(v.kind, 'correct');
  assert.match(v.kind === 'correct' ? v.message : '', new RegExp(`called ${orders.length} times in a row`));
});
