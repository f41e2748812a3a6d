import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { App } from '../../webview/src/components/App';
import { fakeHost } from './fake-host';
import { idle, user } from './fixtures';

afterEach(cleanup);

test('on mount the webview asks the host for state, then shows the empty state and the composer', async () => {
  const { host, sent, deliver } = fakeHost();
  render(<App host={host} />);
  assert.deepEqual(sent, [{ type: 'ready' }]);
  await act(() => deliver({ type: 'state', status: idle, transcript: [] }));
  assert.ok(screen.getByText('Plan before you code'));
  assert.ok(screen.getByLabelText('Message'));
  assert.ok(screen.getByText('gpt-test'));
});

test('Enter sends the trimmed message, Shift+Enter does not', async () => {
  const { host, sent } = fakeHost();
  render(<App host={host} />);
  const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
  await act(() => {
    fireEvent.input(box, { target: { value: 'first line' } });
  });
  await act(() => {
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
  });
  assert.equal(sent.filter((m) => m.type === 'submit').length, 0);
  await act(() => {
    fireEvent.keyDown(box, { key: 'Enter' });
  });
  assert.deepEqual(
    sent.filter((m) => m.type === 'submit'),
    [{ type: 'submit', text: 'first line' }],
  );
  assert.equal(box.value, '', 'the composer is cleared after sending');
});

test('an empty composer sends nothing', async () => {
  const { host, sent } = fakeHost();
  render(<App host={host} />);
  const box = screen.getByLabelText('Message');
  await act(() => {
    fireEvent.input(box, { target: { value: '   ' } });
  });
  await act(() => {
    fireEvent.keyDown(box, { key: 'Enter' });
  });
  assert.equal(sent.filter((m) => m.type === 'submit').length, 0);
});

test('the draft is written to the host view state, and a new App mounted on that state shows it (the webview half of a reload; a fake host)', async () => {
  const first = fakeHost();
  render(<App host={first.host} />);
  await act(() => {
    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'half-written goal' } });
  });
  assert.deepEqual(first.viewState(), { draft: 'half-written goal', history: [] });
  cleanup();
  const second = fakeHost(first.viewState());
  render(<App host={second.host} />);
  assert.equal((screen.getByLabelText('Message') as HTMLTextAreaElement).value, 'half-written goal');
});

test('a locked composer is disabled and says why', async () => {
  const { host, deliver } = fakeHost();
  render(<App host={host} />);
  await act(() =>
    deliver({
      type: 'state',
      status: { ...idle, inputLockedReason: 'Answer the question above first' },
      transcript: [],
    }),
  );
  const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
  assert.equal(box.disabled, true);
  assert.ok(
    screen.getByText('Answer the question above first', { selector: '.composer-locked' }),
    'the reason is shown once, next to the composer',
  );
  assert.equal(box.placeholder, '');
});

test('transcript entries render as text, never as HTML', async () => {
  const { host, deliver } = fakeHost();
  const { container } = render(<App host={host} />);
  await act(() => deliver({ type: 'state', status: idle, transcript: [user('u1', '<img src=x onerror=alert(1)>')] }));
  assert.equal(container.querySelector('img'), null);
  assert.ok(screen.getByText('<img src=x onerror=alert(1)>'));
});

test('an invalid host message is dropped and reported to the host log', async () => {
  const { host, sent, deliver } = fakeHost();
  render(<App host={host} />);
  await act(() => deliver({ type: 'state', status: { ...idle, mode: 'yolo' }, transcript: [] }));
  assert.equal(screen.queryByText('gpt-test'), null, 'nothing from the invalid message was shown');
  const log = sent.find((m) => m.type === 'log');
  assert.ok(log && log.type === 'log' && /status\.mode/.test(log.message), JSON.stringify(sent));
});

test('focusComposer from the host moves focus into the composer', async () => {
  const { host, deliver } = fakeHost();
  render(<App host={host} />);
  await act(() => deliver({ type: 'focusComposer' }));
  assert.equal(document.activeElement, screen.getByLabelText('Message'));
});

test('the header shows the mode badge for each agent', async () => {
  const { host, deliver } = fakeHost();
  render(<App host={host} />);
  for (const [mode, label] of [
    ['build', 'Build'],
    ['auto', 'Auto'],
    ['plan', 'Plan'],
  ] as const) {
    await act(() => deliver({ type: 'status', status: { ...idle, mode } }));
    assert.ok(screen.getByText(label), label);
  }
});
