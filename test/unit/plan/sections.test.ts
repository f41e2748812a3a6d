// How headings and label lines map to plan sections (PLAN-2). Written from the survivors of
// `npm run mutate plan` (docs/testing.md): numbering, blockquotes and the label's own fields had
// no assertion.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { sectionKeyOf, sectionLabelOf } from '../../../src/core/plan/sections';

test('PLAN-2: a numbered heading names its section, whatever the number and its punctuation', () => {
  assert.equal(sectionKeyOf('2. Implementation Steps'), 'steps');
  assert.equal(sectionKeyOf('3) Validation'), 'validation');
  assert.equal(sectionKeyOf('10.Scope'), 'scope');
  assert.equal(sectionKeyOf('  1.   **Summary**:'), 'summary');
});

test('PLAN-2: only a leading number is numbering; a number after the name is part of it', () => {
  assert.equal(sectionKeyOf('Steps 2.'), null);
  assert.equal(sectionKeyOf('Summary 1)'), null);
});

test('PLAN-2: the optional sections have their canonical names', () => {
  assert.equal(sectionKeyOf('Expected Outcomes'), 'outcomes');
  assert.equal(sectionKeyOf('Scope'), 'scope');
  assert.equal(sectionKeyOf('Dependencies & Prerequisites'), 'dependencies');
});

test('PLAN-2: a standalone label line keeps its name without emphasis or trailing colon, and says whether it was bold', () => {
  assert.deepEqual(sectionLabelOf('**Test Cases and Validation:**'), {
    kind: 'standalone',
    key: 'validation',
    name: 'Test Cases and Validation',
    bold: true,
  });
  assert.deepEqual(sectionLabelOf('• Steps:'), { kind: 'standalone', key: 'steps', name: 'Steps', bold: false });
});

test('PLAN-2: blockquote markers in front of a label line, nested or not, are ignored', () => {
  assert.deepEqual(sectionLabelOf('>> **Summary**'), {
    kind: 'standalone',
    key: 'summary',
    name: 'Summary',
    bold: true,
  });
  assert.deepEqual(sectionLabelOf('  > > Summary: Add retries to the client.'), {
    kind: 'value',
    key: 'summary',
    name: 'Summary',
    value: 'Add retries to the client.',
  });
});

test('PLAN-2: a `>` inside a label value is content, not a blockquote marker', () => {
  assert.deepEqual(sectionLabelOf('Summary: route a > b through the cache'), {
    kind: 'value',
    key: 'summary',
    name: 'Summary',
    value: 'route a > b through the cache',
  });
});

test('PLAN-2: a line that only mentions a section name is no label', () => {
  assert.equal(sectionLabelOf('The summary below is short.'), null);
  assert.equal(sectionLabelOf('Risks: none'), null);
  assert.equal(sectionLabelOf('   '), null);
});

test('PLAN-2: blanks around a heading or inside emphasis are not part of the section name', () => {
  assert.equal(sectionKeyOf(' Summary  '), 'summary');
  assert.deepEqual(sectionLabelOf('** Summary **'), {
    kind: 'standalone',
    key: 'summary',
    name: 'Summary',
    bold: true,
  });
});

test('PLAN-2: emphasis inside a label value is content', () => {
  assert.deepEqual(sectionLabelOf('Summary: keep **bold** text'), {
    kind: 'value',
    key: 'summary',
    name: 'Summary',
    value: 'keep **bold** text',
  });
});

test('PLAN-2: blanks inside a name count as one, and a plain bullet glyph needs no blank after it', () => {
  assert.equal(sectionKeyOf('Implementation   Steps'), 'steps');
  assert.deepEqual(sectionLabelOf('•Steps'), { kind: 'standalone', key: 'steps', name: 'Steps', bold: false });
});

test('PLAN-2: a label needs no blank after its colon', () => {
  assert.deepEqual(sectionLabelOf('Summary:Add retries'), {
    kind: 'value',
    key: 'summary',
    name: 'Summary',
    value: 'Add retries',
  });
});

test('PLAN-2: a name must fill the line: a markdown list item, a trailing glyph or a file name is no label', () => {
  assert.equal(sectionLabelOf('- Summary: add retries'), null);
  assert.equal(sectionLabelOf('Summary •'), null);
  assert.equal(sectionKeyOf('Steps.old'), null);
});
