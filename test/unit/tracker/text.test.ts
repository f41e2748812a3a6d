/**
 * TRK-3, TRK-6: the tracker's small text rules, each as a table: status prefixes, JSON-encoded
 * strings, step suffixes and the `files:` list syntax of the tracker files. Found by mutation
 * testing (docs/testing.md): these ran only through whole tool calls before.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  isJsonEncoded,
  listIsInlineSafe,
  parseStatusPrefix,
  splitList,
  splitStepSuffixes,
} from '../../../src/core/tracker/text';

test('TRK-3: a status mark counts only at the start, after an optional bullet with any spacing', () => {
  const rows: Array<[string, ReturnType<typeof parseStatusPrefix>]> = [
    ['[x] Done', { status: 'completed', rest: 'Done' }],
    ['-   [~] Going', { status: 'in_progress', rest: 'Going' }],
    ['*\t[!] Stuck', { status: 'blocked', rest: 'Stuck' }],
    ['Review [x] marks', { status: undefined, rest: 'Review [x] marks' }],
    ['[x]Done', { status: undefined, rest: '[x]Done' }],
  ];
  for (const [text, expected] of rows) assert.deepEqual(parseStatusPrefix(text), expected, text);
});

test('TRK-3: only a JSON object or array serialised into a string is JSON-encoded', () => {
  const rows: Array<[string, boolean]> = [
    ['{"action":"update"}', true],
    ['  ["a", "b"]  ', true],
    ['[x] Review links', false],
    ['{not json}', false],
    ['[1, 2', false],
    ['1, 2]', false],
    ['{"a": 1', false],
    ['"a string"', false],
    ['Plain text', false],
  ];
  for (const [text, expected] of rows) assert.equal(isJsonEncoded(text), expected, text);
});

test('TRK-6: step suffixes: outcomes join, targets are dropped', () => {
  assert.deepEqual(splitStepSuffixes('Fix it -> files: [a.ts] -> outcome: tests pass -> outcome: and lint'), {
    action: 'Fix it',
    files: ['a.ts'],
    outcome: 'tests pass and lint',
  });
  assert.deepEqual(splitStepSuffixes('Fix it -> target: parse -> verify: [npm test]'), {
    action: 'Fix it',
    verify: ['npm test'],
  });
});

test('TRK-6: a files: list splits on top-level commas only and unwraps backticked entries', () => {
  const rows: Array<[string, string[]]> = [
    ['a.ts, b.ts', ['a.ts', 'b.ts']],
    ['  [a.ts, b.ts]  ', ['a.ts', 'b.ts']],
    ['[a.ts, b.ts', ['[a.ts, b.ts']],
    ['a.ts, b.ts]', ['a.ts', 'b.ts]']],
    ['f(a, b), c', ['f(a, b)', 'c']],
    ['{a,b}.ts, c', ['{a,b}.ts', 'c']],
    ['src/[id].ts, c', ['src/[id].ts', 'c']],
    [')a, b', [')a', 'b']],
    ['}a, b', ['}a', 'b']],
    ['`a, b`, c', ['a, b', 'c']],
    ['`[`, b', ['[', 'b']],
    ['`)`, b', [')', 'b']],
    ['` spaced `, b', ['spaced', 'b']],
    ['a`, b', ['a`, b']],
    ['`a`b`', ['`a`b`']],
    ['``, b', ['b']],
    ['`', ['`']],
    ['a,, b, ', ['a', 'b']],
  ];
  for (const [value, expected] of rows) assert.deepEqual(splitList(value), expected, value);
});

test('TRK-6: an empty list and lists that survive the round trip are inline-safe; others are not', () => {
  assert.equal(listIsInlineSafe([]), true);
  assert.equal(listIsInlineSafe(['a.ts', 'b.ts']), true);
  assert.equal(listIsInlineSafe(['a, b.ts']), false);
  assert.equal(listIsInlineSafe(['']), false);
});
