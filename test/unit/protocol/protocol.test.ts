import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/extension/markdown';
import { HostNotification, WebviewCommand, describeInvalid } from '../../../src/protocol';

test('webview commands: a valid submit parses and is trimmed', () => {
  const parsed = WebviewCommand.parse({ type: 'submit', text: '  plan the cache  ' });
  assert.deepEqual(parsed, { type: 'submit', text: 'plan the cache' });
});

test('webview commands: unknown types, empty text and extra shapes are rejected with a reason', () => {
  for (const bad of [
    { type: 'exec', command: 'rm -rf /' },
    { type: 'submit', text: '   ' },
    { type: 'submit' },
    null,
    'ready',
  ]) {
    const r = WebviewCommand.safeParse(bad);
    assert.equal(r.success, false, JSON.stringify(bad));
    if (!r.success) assert.ok(describeInvalid(r.error).length > 0);
  }
});

test('webview commands: oversized text is rejected', () => {
  assert.equal(WebviewCommand.safeParse({ type: 'submit', text: 'x'.repeat(200_001) }).success, false);
});

test('host notifications: an entry with an unknown kind is rejected', () => {
  assert.equal(
    HostNotification.safeParse({ type: 'entry', entry: { kind: 'html', id: '1', text: '<script>' } }).success,
    false,
  );
  assert.equal(
    HostNotification.safeParse({
      type: 'entry',
      entry: { kind: 'user', id: '1', text: 'hi', html: renderMarkdown('hi') },
    }).success,
    true,
  );
});

test('UI-1: user, assistant and plan entries carry host-rendered HTML; without it they are rejected', () => {
  assert.equal(
    HostNotification.safeParse({ type: 'entry', entry: { kind: 'user', id: '1', text: 'hi' } }).success,
    false,
  );
  assert.equal(
    HostNotification.safeParse({ type: 'entry', entry: { kind: 'assistant', id: 'a', text: 'hi', streaming: false } })
      .success,
    false,
  );
  assert.equal(
    HostNotification.safeParse({
      type: 'entry',
      entry: { kind: 'assistant', id: 'a', text: 'hi', streaming: false, html: [renderMarkdown('hi')] },
    }).success,
    true,
  );
});

test('UI-1: an append carries keep/chunks for assistant text, nothing for reasoning; a bad keep is rejected', () => {
  const chunks = [renderMarkdown('more')];
  assert.equal(HostNotification.safeParse({ type: 'append', id: 'r1', text: 'thinking' }).success, true);
  assert.equal(
    HostNotification.safeParse({ type: 'append', id: 'a1', text: 'more', html: { keep: 2, chunks } }).success,
    true,
  );
  for (const keep of [-1, 1.5, '2'])
    assert.equal(
      HostNotification.safeParse({ type: 'append', id: 'a1', text: 'more', html: { keep, chunks } }).success,
      false,
      String(keep),
    );
});

test('describeInvalid names the path of the bad field', () => {
  const r = HostNotification.safeParse({
    type: 'status',
    status: { mode: 'chaos', model: null, status: null, busy: false, inputLockedReason: null, sandbox: null },
  });
  assert.equal(r.success, false);
  if (!r.success) assert.match(describeInvalid(r.error), /status\.mode/);
});
