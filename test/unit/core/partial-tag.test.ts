import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { partialTagSuffix } from '../../../src/core/partial-tag';

test('partialTagSuffix holds back the longest end of the text that may still become the tag', () => {
  const cases: Array<[string, string, number]> = [
    ['plan <propo', '<proposed_plan>', 6],
    ['plan <', '<proposed_plan>', 1],
    ['a < b <propo', '<proposed_plan>', 6],
    ['<<<', '<think>', 1],
    ['text </thi', '</think>', 5],
    ['no tag here', '</think>', 0],
    ['', '<think>', 0],
    // The whole tag is not a partial one: the caller has already found it.
    ['x <think>', '<think>', 0],
    ['x <thinK', '<think>', 0],
  ];
  for (const [text, tag, held] of cases)
    assert.equal(partialTagSuffix(text, tag), held, `${JSON.stringify(text)} / ${tag}`);
});
