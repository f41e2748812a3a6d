import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { errorMessage, errorStack } from '../../../src/core/errors';

test('errorMessage: an Error gives its message (not its name or stack); any other thrown value its text', () => {
  assert.equal(errorMessage(new TypeError('bad input')), 'bad input');
  assert.equal(errorMessage('plain string'), 'plain string');
  assert.equal(errorMessage(42), '42');
  assert.equal(errorMessage(undefined), 'undefined');
});

test('errorStack: an Error gives its stack, or its message when it has none; any other thrown value its text', () => {
  const withStack = new Error('boom');
  assert.match(errorStack(withStack), /^Error: boom\n\s+at /);
  const withoutStack = new Error('no trace');
  withoutStack.stack = undefined;
  assert.equal(errorStack(withoutStack), 'no trace');
  assert.equal(errorStack({ toString: () => 'odd' }), 'odd');
});
