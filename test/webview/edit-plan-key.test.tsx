/**
 * Issue 15 item 4 (GATE-2): in the chat, Ctrl+G (Cmd+G on macOS) is Edit Plan while a plan waits
 * for approval, wherever the focus is, and VS Code's webview never sees the key (its forwarding
 * listener sits on the window), so Go to Line does not run too. Without a waiting plan the key
 * passes through untouched.
 */
import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, screen } from '@testing-library/preact';
import type { EntryOf } from '../../src/protocol';
import { isEditPlanKey } from '../../webview/src/components/edit-plan-key';
import { mountApp } from './fixtures';

afterEach(cleanup);

const gate = (state: EntryOf<'approval'>['state']): EntryOf<'approval'> => ({
  kind: 'approval',
  id: 'g1',
  planFile: '.vtcode/plans/rate-limit.md',
  synopsis: {
    title: 'Rate-limit logins',
    summary: 'Add a limiter.',
    steps: [{ number: 1, text: 'Add it' }],
    overflow: null,
  },
  contextUsage: 0.1,
  state,
  choice: state === 'resolved' ? 'execute' : null,
});

/** Presses Ctrl+G in the composer; returns whether the key reached a window listener (where VS Code forwards keys from). */
function pressCtrlG(): { reachedWindow: boolean; prevented: boolean } {
  let reachedWindow = false;
  const forward = (): void => {
    reachedWindow = true;
  };
  window.addEventListener('keydown', forward);
  const composer = screen.getByRole('textbox');
  const event = new KeyboardEvent('keydown', { key: 'g', ctrlKey: true, bubbles: true, cancelable: true });
  composer.dispatchEvent(event);
  window.removeEventListener('keydown', forward);
  return { reachedWindow, prevented: event.defaultPrevented };
}

test('GATE-2: with a plan waiting, Ctrl+G in the chat sends editPlan and the key never reaches VS Code', async () => {
  const app = mountApp();
  await app.show([gate('pending')], { status: 'Waiting for approval' });
  assert.deepEqual(pressCtrlG(), { reachedWindow: false, prevented: true });
  assert.deepEqual(app.commands('editPlan'), [{ type: 'editPlan' }]);
});

test('with no plan waiting (none yet, or already answered) Ctrl+G passes through to VS Code', async () => {
  for (const transcript of [[], [gate('resolved')]]) {
    const app = mountApp();
    await app.show(transcript);
    assert.deepEqual(pressCtrlG(), { reachedWindow: true, prevented: false });
    assert.deepEqual(app.commands('editPlan'), []);
    cleanup();
  }
});

test('the key: Ctrl+G off macOS, Cmd+G on macOS; with Shift or Alt it is another key', () => {
  const key = (init: KeyboardEventInit) => new KeyboardEvent('keydown', { key: 'g', ...init });
  assert.equal(isEditPlanKey(key({ ctrlKey: true }), false), true);
  assert.equal(isEditPlanKey(key({ key: 'G', ctrlKey: true }), false), true, 'Caps Lock');
  assert.equal(isEditPlanKey(key({ metaKey: true }), false), false);
  assert.equal(isEditPlanKey(key({ metaKey: true }), true), true);
  assert.equal(isEditPlanKey(key({ ctrlKey: true }), true), false, 'Ctrl+G on macOS is not the shortcut');
  assert.equal(isEditPlanKey(key({ ctrlKey: true, shiftKey: true }), false), false);
  assert.equal(isEditPlanKey(key({ ctrlKey: true, altKey: true }), false), false);
});
