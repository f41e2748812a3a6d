/**
 * Issue 16 item 3 (UI-1): after a long session's restore the panel holds the latest rows only;
 * "Show earlier messages" at the top, from the keyboard, asks the host for the page before them.
 */
import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent } from '@testing-library/preact';
import type { TranscriptEntry } from '../../src/protocol';
import { WINDOW } from '../../webview/src/components/Transcript';
import { idle, mountApp, user } from './fixtures';
import { getToolkitButton, innerControl, queryToolkitButton } from './toolkit';

afterEach(cleanup);

const rows = (from: number, to: number): TranscriptEntry[] =>
  Array.from({ length: to - from }, (_, i) => user(`u${from + i}`, `question ${from + i}`));

/** Focused and activated from the keyboard, as a user reaching it with Tab does. */
function pressWithKeyboard(name: string): void {
  const button = getToolkitButton(name);
  assert.notEqual(innerControl(button).tabIndex, -1, 'reachable with Tab');
  innerControl(button).focus();
  fireEvent.keyDown(innerControl(button), { key: 'Enter' });
  innerControl(button).click();
}

const firstRowText = (root: ParentNode) => root.querySelector('.msg')?.textContent?.trim();

test('UI-1: "Show earlier messages" sits above the rows, asks the host once per page from the keyboard, and shows each page in order', async () => {
  const app = mountApp();
  await app.deliver({ type: 'state', status: idle, transcript: rows(250, 250 + WINDOW), earlier: 250 });
  assert.equal(app.container.querySelectorAll('.msg').length, WINDOW);
  const control = getToolkitButton('Show earlier messages (250 hidden)');
  const log = app.container.querySelector('.transcript') as HTMLElement;
  assert.ok(control.compareDocumentPosition(log) & Node.DOCUMENT_POSITION_FOLLOWING, 'the control is at the top');

  pressWithKeyboard('Show earlier messages (250 hidden)');
  pressWithKeyboard('Show earlier messages (250 hidden)');
  assert.deepEqual(app.commands('showEarlier'), [{ type: 'showEarlier' }], 'one request while the page is on its way');

  await app.deliver({ type: 'earlier', entries: rows(50, 250), earlier: 50 });
  assert.equal(app.container.querySelectorAll('.msg').length, WINDOW + 200);
  assert.equal(firstRowText(app.container), 'question 50');
  pressWithKeyboard('Show earlier messages (50 hidden)');
  assert.equal(app.commands('showEarlier').length, 2);

  await app.deliver({ type: 'earlier', entries: rows(0, 50), earlier: 0 });
  assert.equal(firstRowText(app.container), 'question 0');
  assert.deepEqual(
    [...app.container.querySelectorAll('.msg')].map((m) => m.textContent?.trim()),
    rows(0, 250 + WINDOW).map((r) => (r.kind === 'user' ? r.text : '')),
  );
  assert.equal(queryToolkitButton('Show earlier messages (0 hidden)'), null);
  assert.equal(app.container.querySelector('.show-earlier'), null, 'nothing earlier: the control goes');
});

test('UI-1: a page that does not parse is dropped, and the rows stay as they were', async () => {
  const app = mountApp();
  await app.deliver({ type: 'state', status: idle, transcript: rows(10, 10 + WINDOW), earlier: 10 });
  await app.deliver({ type: 'earlier', entries: rows(0, 10), earlier: -1 });
  assert.equal(firstRowText(app.container), 'question 10');
  assert.ok(getToolkitButton('Show earlier messages (10 hidden)'));
});

test('GATE-1, UI-1: a pending gate the host sent before more rows than the panel renders at once stays in view, not behind the control', async () => {
  const app = mountApp();
  const gate: TranscriptEntry = {
    kind: 'approval',
    id: 'g1',
    planFile: '.vtcode/plans/shout-flag.md',
    contextUsage: 0.1,
    state: 'pending',
    choice: null,
    synopsis: {
      title: 'Shout flag',
      summary: 'Shout flag.',
      steps: [{ number: 1, text: 'Add `shout` to src/greet.js' }],
      overflow: null,
    },
  };
  await app.deliver({ type: 'state', status: idle, transcript: [gate, ...rows(0, WINDOW + 20)], earlier: 30 });
  assert.ok(app.container.querySelector('section.gate'), 'the gate is rendered');
  assert.equal(app.container.querySelectorAll('.msg').length, WINDOW + 20);
  assert.ok(getToolkitButton('Show earlier messages (30 hidden)'));
});
