// The quote-aware scanner behind the step grammar, the verify splitter and the validator's prose
// checks (PLAN-3, PLAN-4, PLAN-5), from the survivors of `npm run mutate -- plan` on scan.ts
// (docs/testing.md): shell quoting and escapes, bracket nesting, and the scanner's own contract.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { blankQuoted, matchingBracket, scanTopLevel, splitTopLevel, unwrapCode } from '../../../src/core/plan/scan';
import { validatePlan } from '../../../src/core/plan';
import { shoutFlagPlan } from '../../fixtures/plans/shout-flag';

const visited = (text: string): number[] => {
  const out: number[] = [];
  scanTopLevel(text, (i) => {
    out.push(i);
  });
  return out;
};

test('PLAN-3: the scanner visits each character outside quotes and spans once, in order, and the first of each quote or span', () => {
  // `x`, blank, the span's first backtick, blank, the quote's opening `"`, blank, `w`.
  assert.deepEqual(visited('x `y` "z" w'), [0, 1, 2, 5, 6, 9, 10]);
  // An unclosed backtick run is literal text: each of its backticks once, then the rest.
  assert.deepEqual(visited('a ``b'), [0, 1, 2, 3, 4]);
});

test('PLAN-4: parentheses, braces and brackets nest; a closer with nothing open is text', () => {
  assert.deepEqual(splitTopLevel('f(a, b), {c, d}, [e, f], g', ','), ['f(a, b)', '{c, d}', '[e, f]', 'g']);
  assert.deepEqual(splitTopLevel('a), b}, c], d', ','), ['a)', 'b}', 'c]', 'd']);
});

test('PLAN-4: split items are trimmed and empty ones dropped', () => {
  assert.deepEqual(splitTopLevel(' a ,, b ,', ','), ['a', 'b']);
});

test('PLAN-4: a double quote quotes up to its closer, skipping an escaped one; an unclosed one is text', () => {
  assert.deepEqual(splitTopLevel('"a\\", b", c', ','), ['"a\\", b"', 'c']);
  assert.deepEqual(splitTopLevel('say "hi, b', ','), ['say "hi', 'b']);
});

test('PLAN-4: a single quote quotes when no letter or digit precedes it (also first in the text) and it is closed; a backslash inside is literal, as in sh', () => {
  assert.deepEqual(splitTopLevel("'a, b', c", ','), ["'a, b'", 'c']);
  assert.deepEqual(splitTopLevel("don't split, it's fine", ','), ["don't split", "it's fine"]);
  assert.deepEqual(splitTopLevel("it is 'odd, c", ','), ["it is 'odd", 'c']);
  assert.deepEqual(splitTopLevel("'a\\', b', c", ','), ["'a\\'", "b'", 'c']);
});

test('PLAN-4: outside quotes a backslash escapes the next character: an escaped comma does not split, an escaped quote opens nothing', () => {
  assert.deepEqual(splitTopLevel('a\\, b, c', ','), ['a\\, b', 'c']);
  assert.deepEqual(splitTopLevel('\\"a, b"', ','), ['\\"a', 'b"']);
});

test('PLAN-3: the closing bracket is the first at the opening bracket’s own depth, from wherever it opens', () => {
  assert.equal(matchingBracket('x [a] y', 2), 4);
  assert.equal(matchingBracket('[a[b]c] d', 0), 6);
  assert.equal(matchingBracket('[a] and [b]', 0), 2);
});

test('PLAN-4: a check is read without the blanks around it, wrapped in a code span or not', () => {
  assert.equal(unwrapCode(' `npm test` '), 'npm test');
  assert.equal(unwrapCode('  npm test '), 'npm test');
});

test('PLAN-5: prose keeps the opening quote of an empty quoted string and blanks its closer', () => {
  assert.equal(blankQuoted('""'), '" ');
});

test('PLAN-5: a backslash-escaped character is prose, whether or not the line also has a quote', () => {
  assert.equal(blankQuoted('write to \\<path>'), 'write to \\<path>');
  assert.equal(blankQuoted('write to \\<path> as "json"'), 'write to \\<path> as "     ');
});

test('PLAN-5: an escaped placeholder is reported whether or not its line quotes something', () => {
  for (const line of ['Write the result to \\<path>.', 'Write the result to \\<path> as "json".']) {
    const plan = shoutFlagPlan(undefined, { assumptions: line });
    const placeholders = validatePlan(plan).errors.filter((e) => e.code === 'placeholder');
    assert.deepEqual(
      placeholders.map((e) => e.message.includes('<path>')),
      [true],
      line,
    );
  }
});
