// Issue 13: focus is never moved by something the user did elsewhere, no choice fires from a
// keystroke that began outside, and the transcript follows the work (GATE-1, GATE-2, INT-1, UI-1).
import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import type { EntryOf, TranscriptEntry } from '../../src/protocol';
import { assistant, mountApp, user } from './fixtures';
import { getToolkitButton, innerControl, press, queryToolkitButton, type ToolkitButton } from './toolkit';

const restores: (() => void)[] = [];
afterEach(() => {
  cleanup();
  restores
    .splice(0)
    .reverse()
    .forEach((undo) => undo());
  (document.activeElement as HTMLElement | null)?.blur();
});

/** Replaces a property for the rest of the test. */
function stub<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
  const own = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { configurable: true, writable: true, value });
  restores.push(() => (own ? Object.defineProperty(target, key, own) : delete target[key]));
}

/** The user is in another part of VS Code (an editor): the webview document has no focus. */
const userElsewhere = () => stub(document, 'hasFocus', () => false);

/** A text field outside the chat panel holding focus. */
function focusOutside(): HTMLInputElement {
  const input = document.createElement('input');
  document.body.append(input);
  restores.push(() => input.remove());
  input.focus();
  return input;
}

const synopsis = (title: string) => ({
  title,
  summary: `${title}.`,
  steps: [{ number: 1, text: 'Add `shout` to src/greet.js' }],
  overflow: null,
});
const gate = (
  id: string,
  state: EntryOf<'approval'>['state'] = 'pending',
  title = 'Shout flag',
): EntryOf<'approval'> => ({
  kind: 'approval',
  id,
  planFile: '.vtcode/plans/shout-flag.md',
  synopsis: synopsis(title),
  contextUsage: 0.1,
  state,
  choice: null,
});
const question = (id: string): EntryOf<'interview'> => ({
  kind: 'interview',
  id,
  interviewId: `int-${id}`,
  source: 'runtime',
  state: 'pending',
  answers: [],
  questions: [
    {
      id: 'run',
      header: 'Run command?',
      question: 'The build agent wants to run: npm test',
      options: [{ label: 'Run', recommended: true }, { label: "Don't run" }],
      allowFreeform: false,
    },
  ],
});

function choice(name: 'execute' | 'revise'): ToolkitButton {
  const button = document.querySelector<ToolkitButton>(`.gate-choice-${name}`);
  if (!button) throw new Error(`no ${name} choice`);
  innerControl(button);
  return button;
}
const firstChoice = () => choice('execute');
const announced = () => screen.getByRole('status').textContent?.trim() ?? '';

test('GATE-2: a gate mounted, updated or replaced while the document has no focus does not take it; the live region says what changed', async () => {
  userElsewhere();
  const app = mountApp();
  await app.show([gate('g1')], { status: 'Waiting for approval' });
  assert.ok(firstChoice());
  assert.equal(document.activeElement, document.body, 'focus stays where it was');
  // A valid save in the editor: the host updates the gate in place and announces it.
  await app.deliver(
    { type: 'entry', entry: gate('g1', 'pending', 'Shout flag, revised') },
    { type: 'announce', text: 'Plan updated to revision 2: Shout flag, revised is ready for approval again.' },
  );
  assert.equal(app.container.querySelector('.gate-plan-title')?.textContent, 'Shout flag, revised');
  assert.equal(document.activeElement, document.body);
  assert.equal(announced(), 'Plan updated to revision 2: Shout flag, revised is ready for approval again.');
  // A new plan: the host supersedes the gate and sends a new one, which mounts without focus.
  await app.deliver(
    { type: 'entry', entry: gate('g1', 'superseded') },
    { type: 'entry', entry: gate('g2', 'pending', 'Shout flag, third') },
  );
  assert.equal(app.container.querySelectorAll('section.gate').length, 1);
  assert.equal(document.activeElement, document.body, 'the new gate did not take focus');
});

test('GATE-2: a gate mounted or replaced while focus is in another control outside the panel leaves it there', async () => {
  const input = focusOutside();
  const app = mountApp();
  await app.show([gate('g1')]);
  assert.equal(document.activeElement, input);
  await app.deliver({ type: 'entry', entry: gate('g1', 'superseded') }, { type: 'entry', entry: gate('g2') });
  assert.equal(document.activeElement, input);
  // Digits typed there never reach the gate.
  fireEvent.keyDown(input, { key: '1' });
  assert.equal(app.commands('approve').length, 0);
});

test('GATE-1: with the user already in the chat a new gate takes focus, as before', async () => {
  const app = mountApp();
  await app.show([user('u1', 'Add a shout flag')]);
  const composer = screen.getByLabelText('Message');
  composer.focus();
  await app.deliver({ type: 'entry', entry: gate('g1') });
  assert.equal(document.activeElement, firstChoice());
});

test("GATE-6: the host's explicit focus request (notification, CodeLens, Approve command) focuses the pending gate", async () => {
  const input = focusOutside();
  const app = mountApp();
  await app.show([gate('g1', 'superseded'), gate('g2')]);
  assert.equal(document.activeElement, input);
  await app.deliver({ type: 'focusGate' });
  assert.equal(document.activeElement, firstChoice());
  fireEvent.keyDown(firstChoice(), { key: '2' });
  assert.deepEqual(app.commands('approve'), [
    { type: 'approve', planFile: '.vtcode/plans/shout-flag.md', choice: 'fresh_context' },
  ]);
});

test('GATE-1: a choice does not fire from a keyup or keypress whose keydown it did not see; it does with its keydown, and on a pointer click', async () => {
  const app = mountApp();
  await app.show([gate('g1')]);
  const button = firstChoice();
  const control = innerControl(button);
  assert.equal(document.activeElement, button);
  // What the browser does for a Space pressed in the editor and released after focus moved here:
  // the keyup lands on the button and its default action clicks it, in the same task.
  fireEvent.keyUp(control, { key: ' ' });
  control.click();
  // Enter's keypress (the browser clicks buttons on it) without the keydown.
  fireEvent.keyPress(control, { key: 'Enter', charCode: 13 });
  control.click();
  // A digit held down elsewhere, auto-repeating into the gate.
  fireEvent.keyDown(control, { key: '1', repeat: true });
  assert.deepEqual(app.commands('approve'), [], 'no choice fired');
  // The same keystroke wholly inside the gate is a real choice.
  fireEvent.keyDown(control, { key: ' ' });
  fireEvent.keyUp(control, { key: ' ' });
  control.click();
  assert.deepEqual(app.commands('approve'), [
    { type: 'approve', planFile: '.vtcode/plans/shout-flag.md', choice: 'execute' },
  ]);
});

test('GATE-1: a refused key activation does not outlive its keystroke: the next pointer click chooses', async () => {
  const app = mountApp();
  await app.show([gate('g1')]);
  const revise = choice('revise');
  fireEvent.keyUp(innerControl(revise), { key: ' ' });
  await press(revise);
  assert.deepEqual(app.commands('approve'), [
    { type: 'approve', planFile: '.vtcode/plans/shout-flag.md', choice: 'revise' },
  ]);
});

test('INT-1: a question that appears while the user works elsewhere does not take focus; its buttons ignore keystrokes begun elsewhere', async () => {
  userElsewhere();
  const app = mountApp();
  await app.show([question('i1')]);
  assert.ok(screen.getByRole('listbox'));
  assert.equal(document.activeElement, document.body);
  const submit = getToolkitButton('Submit');
  fireEvent.keyUp(innerControl(submit), { key: ' ' });
  innerControl(submit).click();
  fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Enter', repeat: true });
  assert.equal(app.commands('answerInterview').length, 0);
  await press(submit);
  assert.deepEqual(app.commands('answerInterview'), [
    { type: 'answerInterview', interviewId: 'int-i1', answers: [{ questionId: 'run', label: 'Run' }] },
  ]);
});

test('INT-1: with the user in the chat a question takes focus, as before', async () => {
  const app = mountApp();
  await app.show([question('i1')]);
  assert.equal(document.activeElement, screen.getByRole('listbox'));
});

/**
 * The transcript's scroller with a layout: `height` of content, 500 px of view, and a pending gate
 * whose top sits `gateAt` px into the content.
 */
function layout(body: HTMLElement, geometry: { height: number; gateAt?: number }) {
  Object.defineProperty(body, 'scrollHeight', { configurable: true, get: () => geometry.height });
  Object.defineProperty(body, 'clientHeight', { configurable: true, get: () => 500 });
  const rect = Element.prototype.getBoundingClientRect;
  stub(Element.prototype, 'getBoundingClientRect', function (this: Element) {
    if (this.matches('section.gate') && geometry.gateAt !== undefined)
      return DOMRect.fromRect({ x: 0, y: geometry.gateAt - body.scrollTop, width: 300, height: 200 });
    if (this === body) return DOMRect.fromRect({ x: 0, y: 0, width: 300, height: 500 });
    return rect.call(this);
  });
}

const userScrollsTo = (body: HTMLElement, top: number) => {
  body.scrollTop = top;
  fireEvent.scroll(body);
};

const chat = (n: number): TranscriptEntry[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0 ? user(`u${i}`, `question ${i}`) : assistant(`a${i}`, `answer ${i}`),
  );

test('UI-1: the transcript follows new output; scrolled up, it stays put and "Jump to latest" brings it back, following again', async () => {
  const app = mountApp();
  const entries = chat(6);
  await app.show(entries);
  const body = app.container.querySelector('main.body') as HTMLElement;
  const geometry = { height: 2_000 };
  layout(body, geometry);
  await app.deliver({ type: 'entry', entry: assistant('b1', 'Editing src/greet.js') });
  assert.equal(body.scrollTop, 1_500, 'follows the end');
  assert.equal(queryToolkitButton('Jump to latest'), null);

  userScrollsTo(body, 300);
  const jump = getToolkitButton('Jump to latest');
  geometry.height = 2_600;
  await app.deliver({ type: 'entry', entry: assistant('b2', 'Edited.') });
  assert.equal(body.scrollTop, 300, 'the reader above is not moved');

  // Keyboard reachable: focused and activated from the keyboard, focus stays in the transcript.
  jump.focus();
  fireEvent.keyDown(innerControl(jump), { key: 'Enter' });
  innerControl(jump).click();
  await app.deliver({
    type: 'status',
    status: {
      mode: 'build',
      model: 'gpt-test',
      status: 'Building...',
      busy: true,
      inputLockedReason: null,
      sandbox: null,
    },
  });
  assert.equal(body.scrollTop, 2_100);
  assert.equal(queryToolkitButton('Jump to latest'), null, 'back at the end the control goes away');
  assert.equal(document.activeElement, body);

  geometry.height = 3_000;
  await app.deliver({ type: 'entry', entry: assistant('b3', 'Implemented the shout option.') });
  assert.equal(body.scrollTop, 2_500, 'following again');
});

test('UI-1: streamed text while following keeps the end in view', async () => {
  const app = mountApp();
  await app.show([...chat(2), { kind: 'assistant', id: 's1', text: 'Work', streaming: true, html: ['<p>Work</p>'] }]);
  const body = app.container.querySelector('main.body') as HTMLElement;
  const geometry = { height: 1_000 };
  layout(body, geometry);
  geometry.height = 1_400;
  await app.deliver({
    type: 'append',
    id: 's1',
    text: 'ing on it',
    html: { keep: 0, chunks: ['<p>Working on it</p>'] },
  });
  await app.flushFrames();
  assert.equal(body.scrollTop, 900);
});

test('GATE-2: a replaced gate is scrolled into view even when the user had scrolled up; focusGate brings it back too', async () => {
  userElsewhere();
  const app = mountApp();
  await app.show([...chat(6), gate('g1')]);
  const body = app.container.querySelector('main.body') as HTMLElement;
  const geometry = { height: 3_000, gateAt: 2_600 };
  layout(body, geometry);
  userScrollsTo(body, 100);
  assert.ok(getToolkitButton('Jump to latest'));
  // A valid save updates the gate in place.
  await app.deliver({ type: 'entry', entry: gate('g1', 'pending', 'Shout flag, revised') });
  assert.equal(body.scrollTop, 2_500, 'the updated gate shows in full, down to the end');
  assert.equal(queryToolkitButton('Jump to latest'), null);
  // A new gate replaces it.
  userScrollsTo(body, 100);
  geometry.gateAt = 2_700;
  await app.deliver({ type: 'entry', entry: gate('g1', 'superseded') }, { type: 'entry', entry: gate('g2') });
  assert.equal(body.scrollTop, 2_500, 'the new gate shows in full');
  assert.equal(queryToolkitButton('Jump to latest'), null);

  // A tall gate is shown from its heading.
  geometry.height = 4_000;
  geometry.gateAt = 2_800;
  userScrollsTo(body, 0);
  await app.deliver({ type: 'focusGate' });
  assert.equal(body.scrollTop, 2_792);
  assert.equal(document.activeElement, firstChoice());
  // The browser's scroll event for that scroll is not the user leaving the end: still following.
  fireEvent.scroll(body);
  assert.equal(queryToolkitButton('Jump to latest'), null);
});
