'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { greet } = require('../src/greet');

test('greets by name', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});
