import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { TrackerRepeatGuard, type TrackerCall } from '../../../src/core/tracker';

const same: TrackerCall = { action: 'update', index_path: '1', status: 'completed' };
const other: TrackerCall = { action: 'list' };

function run(guard: TrackerRepeatGuard, call: TrackerCall, ok = true): string {
  const v = guard.check(call);
  if (v.kind === 'allow') guard.record(call, ok);
  return v.kind;
}

test('TRK-4: identical successful calls beyond the limit get one correction, then block', () => {
  const g = new TrackerRepeatGuard(2);
  assert.deepEqual([run(g, same), run(g, same), run(g, same), run(g, same)], ['allow', 'allow', 'correct', 'block']);
});

test('TRK-4: a different successful call resets the streak', () => {
  const g = new TrackerRepeatGuard(2);
  assert.deepEqual(
    [run(g, same), run(g, same), run(g, other), run(g, same), run(g, same), run(g, same)],
    ['allow', 'allow', 'allow', 'allow', 'allow', 'correct'],
  );
});

test('TRK-4: failed calls neither count nor reset', () => {
  const g = new TrackerRepeatGuard(2);
  run(g, same);
  run(g, other, false);
  run(g, same, false);
  assert.equal(run(g, same), 'allow', 'second successful one');
  assert.equal(run(g, same), 'correct');
});

test('TRK-4: key order does not make calls different; reset() starts a fresh streak', () => {
  const g = new TrackerRepeatGuard(1);
  run(g, { action: 'update', status: 'completed', index_path: '1' });
  assert.equal(g.check(same).kind, 'correct');
  g.reset();
  assert.equal(run(g, same), 'allow');
});

test('TRK-4: after a correction a different successful call clears it', () => {
  const g = new TrackerRepeatGuard(1);
  run(g, same);
  assert.equal(run(g, same), 'correct');
  run(g, other);
  run(g, same);
  assert.equal(run(g, same), 'correct', 'a new correction, not an immediate block');
});
