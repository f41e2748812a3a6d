import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { PLAN_WHILE_BUSY } from '../../webview/src/components/Composer';
import { idle, mountApp } from './fixtures';
import { getToolkitButton, press } from './toolkit';

afterEach(cleanup);

const box = () => screen.getByLabelText('Message') as HTMLTextAreaElement;
const type = (value: string) => fireEvent.input(box(), { target: { value } });
const key = (k: string, extra: Record<string, unknown> = {}) => fireEvent.keyDown(box(), { key: k, ...extra });
const menuItems = () => screen.queryAllByRole('option').map((o) => o.querySelector('.slash-name')?.textContent);
const activeItem = () =>
  screen
    .queryAllByRole('option')
    .find((o) => o.getAttribute('aria-selected') === 'true')
    ?.querySelector('.slash-name')?.textContent;

test('UI-1: typing / opens the command completion with every slash command', async () => {
  const app = mountApp();
  await app.show([]);
  type('/');
  assert.deepEqual(menuItems(), ['/plan', '/plan off', '/mode build', '/mode auto']);
  assert.equal(box().getAttribute('aria-activedescendant'), 'slash-0');
  type('/m');
  assert.deepEqual(menuItems(), ['/mode build', '/mode auto']);
  type('/mode build');
  assert.deepEqual(menuItems(), [], 'an exact, unique command closes the popup');
  type('/x');
  assert.equal(screen.queryByRole('listbox', { name: 'Commands' }), null);
});

test('UI-1: arrows move through completions, Tab completes, Enter sends the completed command', async () => {
  const app = mountApp();
  await app.show([]);
  type('/');
  key('ArrowDown');
  key('ArrowDown');
  assert.equal(activeItem(), '/mode build');
  key('ArrowUp');
  assert.equal(activeItem(), '/plan off');
  key('ArrowUp');
  key('ArrowUp');
  assert.equal(activeItem(), '/mode auto', 'wraps around');
  key('Tab');
  assert.equal(box().value, '/mode auto');
  assert.equal(app.commands('submit').length, 0);
  key('Enter');
  assert.deepEqual(app.commands('submit'), [{ type: 'submit', text: '/mode auto' }]);
});

test('UI-1: Enter on a completion that is already typed sends it; Esc closes the popup', async () => {
  const app = mountApp();
  await app.show([]);
  type('/plan');
  assert.deepEqual(menuItems(), ['/plan', '/plan off']);
  key('Escape');
  assert.deepEqual(menuItems(), []);
  type('/pla');
  key('Enter');
  assert.equal(box().value, '/plan', 'Enter completes first');
  assert.equal(app.commands('submit').length, 0);
  key('Enter');
  assert.deepEqual(app.commands('submit'), [{ type: 'submit', text: '/plan' }]);
});

test('UI-1: clicking a completion fills it in', async () => {
  const app = mountApp();
  await app.show([]);
  type('/');
  fireEvent.mouseDown(screen.getByText('/plan off', { selector: '.slash-name' }));
  assert.equal(box().value, '/plan off');
});

test('MODE-2: /plan while a turn runs is not sent; a local notice says why and the text stays', async () => {
  const app = mountApp();
  await app.show([], { busy: true, status: 'Planning...' });
  type('/plan add rate limiting');
  key('Enter');
  assert.equal(app.commands('submit').length, 0);
  assert.ok(screen.getByText(PLAN_WHILE_BUSY, { selector: '.notice-warning' }));
  assert.equal(PLAN_WHILE_BUSY, 'A turn is running; /plan was not sent. Stop it first or wait.');
  assert.equal(box().value, '/plan add rate limiting');
  assert.ok(
    screen.getByText(PLAN_WHILE_BUSY).closest('[role="log"]'),
    'it joins the conversation log, which screen readers follow',
  );
  type('why is it slow?');
  key('Enter');
  assert.deepEqual(
    app.commands('submit'),
    [{ type: 'submit', text: 'why is it slow?' }],
    'other messages still go through',
  );
});

test('UI-1: Up/Down on the first/last line walk the history and restore the unsent draft', async () => {
  const app = mountApp();
  await app.show([]);
  for (const text of ['first goal', 'second goal']) {
    type(text);
    key('Enter');
  }
  type('half');
  box().setSelectionRange(0, 0);
  key('ArrowUp');
  assert.equal(box().value, 'second goal');
  box().setSelectionRange(0, 0);
  key('ArrowUp');
  assert.equal(box().value, 'first goal');
  key('ArrowUp');
  assert.equal(box().value, 'first goal', 'stops at the oldest');
  key('ArrowDown');
  assert.equal(box().value, 'second goal');
  key('ArrowDown');
  assert.equal(box().value, 'half', 'the draft comes back');
  assert.deepEqual(app.viewState(), { draft: 'half', history: ['first goal', 'second goal'] });
});

test('UI-1: Up inside a multi-line draft moves the caret, not the history', async () => {
  const app = mountApp();
  await app.show([]);
  type('sent');
  key('Enter');
  type('line one\nline two');
  box().setSelectionRange(12, 12);
  key('ArrowUp');
  assert.equal(box().value, 'line one\nline two');
  box().setSelectionRange(3, 3);
  key('ArrowUp');
  assert.equal(box().value, 'sent');
  assert.equal(app.commands('submit').length, 1);
});

test('UI-1: history read from the host view state at mount is recalled with ArrowUp (the webview half of a reload; a fake host)', async () => {
  const app = mountApp({ draft: '', history: ['old goal'] });
  await app.show([]);
  key('ArrowUp');
  assert.equal(box().value, 'old goal');
});

test('UI-1: a locked composer shows the reason visibly, ignores Enter and regains focus after the host unlocks it', async () => {
  const app = mountApp();
  await app.show([], { inputLockedReason: 'Preparing fresh execution thread...' });
  assert.ok(screen.getByText('Preparing fresh execution thread...', { selector: '.composer-locked' }));
  assert.equal(box().getAttribute('aria-describedby'), 'composer-locked');
  await app.deliver({ type: 'focusComposer' });
  assert.notEqual(document.activeElement, box());
  await app.deliver({ type: 'status', status: idle });
  assert.equal(document.activeElement, box());
  assert.equal(screen.queryByText('Preparing fresh execution thread...'), null);
});

test('UI-1: the Send button sends like Enter', async () => {
  const app = mountApp();
  await app.show([]);
  const send = getToolkitButton('Send message');
  assert.equal(send.disabled, true);
  await press(send);
  assert.equal(app.commands('submit').length, 0, 'a disabled Send does nothing');
  type('  plan a cache  ');
  assert.equal(send.disabled, false);
  await press(send);
  assert.deepEqual(app.commands('submit'), [{ type: 'submit', text: 'plan a cache' }]);
});

test('UI-1: a message over the protocol limit is not sent, says why, and stays in the composer', async () => {
  const app = mountApp();
  await app.show([]);
  const huge = 'x'.repeat(200_001);
  type(huge);
  key('Enter');
  assert.equal(app.commands('submit').length, 0);
  assert.equal(box().value, huge);
  assert.match(app.container.querySelector('.notice-warning')?.textContent ?? '', /^Not sent \(submit\): text: /);
});
