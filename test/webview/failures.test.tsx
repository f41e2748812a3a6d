/**
 * Issue 15 items 2 and 5 in the panel: a failure's notice offers its next steps as real buttons,
 * a message the host could not take comes back into the composer, and in a workspace of several
 * folders the header names the session's folder and switches it.
 */
import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { idle, mountApp } from './fixtures';
import { getToolkitButton, innerControl, press, queryToolkitButton } from './toolkit';

afterEach(cleanup);

const box = () => screen.getByLabelText('Message') as HTMLTextAreaElement;

test('a failure notice shows its next steps as buttons in the tab order; pressing one asks the host to run that action', async () => {
  const app = mountApp();
  await app.show([
    {
      kind: 'notice',
      id: 'n1',
      level: 'error',
      text: 'No Anthropic API key is stored.',
      actions: ['selectModel', 'openSettings'],
    },
  ]);
  const note = screen.getByRole('note', { name: 'Error' });
  assert.equal(note.querySelector('.notice-text')?.textContent, 'No Anthropic API key is stored.');
  const select = getToolkitButton('Select Model', note);
  assert.ok(getToolkitButton('Open Settings', note));
  assert.notEqual(innerControl(select).tabIndex, -1, 'reachable with Tab');
  await press(select);
  assert.deepEqual(app.commands('runAction'), [{ type: 'runAction', action: 'selectModel' }]);
});

test('a notice without actions stays plain text', async () => {
  const app = mountApp();
  await app.show([{ kind: 'notice', id: 'n1', level: 'info', text: 'Stopped.' }]);
  const note = screen.getByRole('note', { name: 'Notice' });
  assert.equal(note.textContent, 'Stopped.');
  assert.equal(note.querySelector('vscode-button'), null);
});

test('a message the host gives back returns to an empty composer, and never replaces new typing', async () => {
  const app = mountApp();
  await app.show([]);
  fireEvent.input(box(), { target: { value: 'Add a shout flag' } });
  fireEvent.keyDown(box(), { key: 'Enter' });
  assert.deepEqual(app.commands('submit'), [{ type: 'submit', text: 'Add a shout flag' }]);
  assert.equal(box().value, '');
  await app.deliver({ type: 'restoreDraft', text: 'Add a shout flag' });
  assert.equal(box().value, 'Add a shout flag');

  fireEvent.input(box(), { target: { value: 'something else' } });
  await app.deliver({ type: 'restoreDraft', text: 'Add a shout flag' });
  assert.equal(box().value, 'something else');
});

test('several folders: the header names the session folder as a button that asks to switch it; one folder: nothing', async () => {
  const app = mountApp();
  await app.show([]);
  assert.equal(app.container.querySelector('.header .folder'), null);
  await app.deliver({ type: 'status', status: { ...idle, folder: 'api' } });
  const button = getToolkitButton('Folder: api. Switch folder');
  assert.equal(button.textContent?.trim(), 'api');
  await press(button);
  assert.deepEqual(app.commands('runAction'), [{ type: 'runAction', action: 'switchFolder' }]);
  await app.deliver({ type: 'status', status: idle });
  assert.equal(queryToolkitButton('Folder: api. Switch folder'), null);
});
