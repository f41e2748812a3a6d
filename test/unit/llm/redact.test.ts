import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/llm';

test('ADD-1: the caller key, key-shaped tokens and bearer values are masked', () => {
  const key = 'local-secret-abcdef';
  const text = `bad key local-secret-abcdef; Incorrect API key provided: sk-proj-abc***wxyz. Authorization: Bearer abc.def-123`;
  const out = redactSecrets(text, [key]);
  assert.ok(!out.includes(key));
  assert.ok(!out.includes('sk-proj-abc'));
  assert.ok(!out.includes('abc.def-123'));
  assert.match(out, /Bearer \[redacted\]/);
});

test('ADD-1: ordinary text and very short placeholders are left alone', () => {
  assert.equal(redactSecrets('task-list and skeleton', ['x']), 'task-list and skeleton');
});
