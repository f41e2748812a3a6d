// Code spans in the quote-aware scanner shared by the step parser, the verify splitter and the
// tracker's step suffixes (PLAN-3, PLAN-4, TRK-2): a backtick run of length N opens a span that
// only a run of exactly N closes, as in CommonMark; a run with no such closer is literal text.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { blankCodeSpans, blankQuoted, matchingBracket, splitTopLevel } from '../../../src/core/plan/scan';

test('PLAN-4: a comma splits only outside code spans, a span closing only at a run of its own length', () => {
  for (const [text, items] of [
    // a double-backtick span holding a single backtick and a comma
    ['``a, b`c``, d', ['``a, b`c``', 'd']],
    // a span of three closed only by a run of three: the runs of one and two inside are content
    ['```a `` b` c, d```, e', ['```a `` b` c, d```', 'e']],
    // the entry canonicalPlan writes for a verify check holding a backtick run and a comma
    ["```` rg -c '```' docs, README.md ````, npm test", ["```` rg -c '```' docs, README.md ````", 'npm test']],
    // unclosed runs are literal text, so the comma after them splits as before
    ['`a, b', ['`a', 'b']],
    ['``a, b', ['``a', 'b']],
    ['```a, b``', ['```a', 'b``']],
    // a single-backtick span is unchanged
    ['`a, b`, c', ['`a, b`', 'c']],
  ] as const) {
    assert.deepEqual(splitTopLevel(text, ','), items, text);
  }
});

test('PLAN-3: a `]` inside a code span does not close the list', () => {
  const text = '[``a]`b]``, c] tail';
  assert.equal(matchingBracket(text, 0), text.indexOf('] tail'));
  assert.equal(matchingBracket('[``a, b] tail', 0), '[``a, b'.length);
});

test('PLAN-5: prose keeps its text around a span and keeps an unclosed run; the span is blanked', () => {
  // The walk visits a span's first backtick only, so that one is kept.
  assert.equal(blankQuoted('see ``TODO ` x`` here'), 'see `            here');
  assert.equal(blankQuoted('a ``` TODO'), 'a ``` TODO');
});

test('PLAN-4: the prose of a verify check is what is left outside its code spans, by the same rule', () => {
  assert.equal(blankCodeSpans('`` a ``` b `` shows x'), `${' '.repeat(13)} shows x`);
  assert.equal(blankCodeSpans('``` open run, `a` shown'), '``` open run,     shown');
});
