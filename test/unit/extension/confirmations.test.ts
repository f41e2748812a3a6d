/**
 * EXEC-5 (issue 15 item 1): a build-mode command confirmation ends as "don't run" when the turn
 * stops or the session closes, even while the dialog that asked is still on screen.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PendingConfirmations } from '../../../src/extension/confirmations';

/** Like a modal showWarningMessage: answered when the user gets to it, which may be never. */
function dialog(): { answer: (pick: 'Run' | undefined) => void; picked: Promise<'Run' | undefined> } {
  let answer!: (pick: 'Run' | undefined) => void;
  const picked = new Promise<'Run' | undefined>((resolve) => (answer = resolve));
  return { answer, picked };
}

test('EXEC-5: a stop resolves a confirmation whose dialog is still open as declined, and a later "Run" in that dialog does not count', async () => {
  const confirmations = new PendingConfirmations();
  const turn = new AbortController();
  const id = confirmations.nextId();
  const modal = dialog();
  const settled: boolean[] = [];
  const outcome = confirmations.wait(id, turn.signal, (run) => settled.push(run));
  void modal.picked.then((pick) => confirmations.answer(id, pick === 'Run'));

  turn.abort();
  assert.equal(await outcome, false);
  assert.equal(confirmations.has(id), false);

  modal.answer('Run');
  await modal.picked;
  assert.equal(confirmations.answer(id, true), false, 'the question is no longer waiting');
  assert.deepEqual(settled, [false], 'settled once, as declined');
});

test('EXEC-5: declineAll answers every waiting question "don\'t run"; an answer before that stands', async () => {
  const confirmations = new PendingConfirmations();
  const signal = new AbortController().signal;
  const [a, b, c] = [confirmations.nextId(), confirmations.nextId(), confirmations.nextId()];
  const waits = [confirmations.wait(a, signal), confirmations.wait(b, signal), confirmations.wait(c, signal)];
  assert.equal(confirmations.answer(b, true), true);
  confirmations.declineAll();
  assert.deepEqual(await Promise.all(waits), [false, true, false]);
});

test('EXEC-5: a question asked after the turn already stopped is declined without waiting', async () => {
  const confirmations = new PendingConfirmations();
  const turn = new AbortController();
  turn.abort();
  assert.equal(await confirmations.wait(confirmations.nextId(), turn.signal), false);
});
