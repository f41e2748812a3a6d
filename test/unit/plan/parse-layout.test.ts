// How parsePlan lays a plan out (tracker region, line endings, title, preface and intro, the
// implicit Steps section, section headings inside code) beyond parse.test.ts; each case below
// was found by mutation testing (issue 19).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parsePlan, stripTrackerRegion } from '../../../src/core/plan';

// Written out, not imported: the markers are a file format, and a test must not follow a changed constant.
const START = '<!-- vtcode:plan-tracker:start -->';
const END = '<!-- vtcode:plan-tracker:end -->';

test('TRK-7: the tracker region (markers indented or not) is blanked line for line, and what follows its end marker is plan again', () => {
  const doc = parsePlan(
    [
      '# Plan',
      '## Summary',
      'Fix it.',
      `  ${START}`,
      '- [ ] 1. Tracker item',
      `${END}  `,
      '## Implementation Steps',
      '1. Do it',
    ].join('\n'),
  );
  assert.equal(
    doc.text,
    ['# Plan', '## Summary', 'Fix it.', '', '', '', '## Implementation Steps', '1. Do it'].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => [s.action, s.line]),
    [['Do it', 8]],
  );
});

test('TRK-7: stripping the tracker region returns text without one unchanged, drops a region with indented markers, keeps a stray end marker and closes the gap', () => {
  const plain = '# Plan\r\n\r\n\r\n\r\nText  \n';
  assert.equal(stripTrackerRegion(plain), plain);
  const withRegion = ['# Plan', '', 'Text', '', `  ${START}`, '- [ ] a', `  ${END}`, '', 'More', END, ''].join('\n');
  assert.equal(stripTrackerRegion(withRegion), ['# Plan', '', 'Text', '', 'More', END, ''].join('\n'));
});

test('PLAN-2: CRLF and lone CR line endings and a leading byte-order mark are normalised; a byte-order mark elsewhere is text', () => {
  const doc = parsePlan('\uFEFF# Plan\r\n## Summary\rFix it.\r\n## Implementation Steps\r\n1. Do it\n');
  assert.equal(doc.title, 'Plan');
  assert.equal(doc.text, '# Plan\n## Summary\nFix it.\n## Implementation Steps\n1. Do it\n');
  assert.deepEqual(
    doc.sections.map((s) => [s.heading, s.line]),
    [
      ['Summary', 2],
      ['Implementation Steps', 4],
    ],
  );
  assert.equal(parsePlan('# Plan\n\nFix it.\uFEFF').text, '# Plan\n\nFix it.\uFEFF');
});

test('PLAN-2: the title is the first level-1 heading before any section (emphasis and spaces removed); later ones and other levels are sections', () => {
  const titled = parsePlan('# ** Retries **\n# Background\n## Summary\nFix.');
  assert.equal(titled.title, 'Retries');
  assert.deepEqual(
    titled.sections.map((s) => [s.heading, s.level]),
    [
      ['Background', 1],
      ['Summary', 2],
    ],
  );
  const late = parsePlan('## Summary\nFix.\n# Appendix\nMore.');
  assert.equal(late.title, null);
  assert.deepEqual(
    late.sections.map((s) => s.heading),
    ['Summary', 'Appendix'],
  );
  assert.equal(parsePlan('## Background\nWhy.\n## Summary\nFix.').title, null);
});

test('PLAN-2: with the Implementation Steps section twice, the first one holds the steps', () => {
  const doc = parsePlan('# P\n## Implementation Steps\n1. First\n## Steps\n1. Second');
  assert.deepEqual(
    doc.steps.map((s) => s.action),
    ['First'],
  );
});

test('PLAN-2: a plain-text title is the first non-blank line when it is a one-line paragraph that reads as a title', () => {
  const rest = '\n\nSummary: Fix it.\n\n1. Do A\n2. Do B\n';
  const titleOf = (head: string): string | null => parsePlan(head + rest).title;
  assert.equal(titleOf('   \nRetry plan'), 'Retry plan');
  assert.equal(titleOf(' Retry plan'), 'Retry plan');
  assert.equal(titleOf('__ Retry plan __'), 'Retry plan');
  assert.equal(titleOf('Here is the plan:'), null);
  assert.equal(titleOf('Fix the parser.'), null);
  assert.equal(titleOf('Step 1: Fix the parser'), null);
  assert.equal(titleOf('Retry plan\ncontinued on a second line'), null);
  assert.equal(titleOf('Plan | Owner\n--- | ---\nretries | me'), null);
  assert.equal(titleOf('#hashtag plan'), null);
  assert.equal(titleOf(`Retry ${'plan '.repeat(25)}now`), null);
  // The first line is the first section, or there is no section, or there are headings: no plain title.
  assert.equal(parsePlan('Summary: Fix the client\n\n1. Do A\n2. Do B').title, null);
  assert.equal(parsePlan('Just a note\n\nNothing else here').title, null);
  const headed = parsePlan('Retry plan\n\n## Summary\nFix it.\n\n## Implementation Steps\n1. Do A');
  assert.equal(headed.title, null);
  assert.deepEqual(
    headed.preface.map((l) => l.line),
    [1, 2],
  );
  assert.deepEqual(headed.intro, []);
});

test('PLAN-2: the intro is the lines after a plain-text title, up to the first section', () => {
  const doc = parsePlan('Retry plan\n\nWhy: the client is flaky.\n\nSummary: Fix it.\n\n1. Do A');
  assert.equal(doc.title, 'Retry plan');
  assert.deepEqual(
    doc.intro.map((l) => l.line),
    [2, 3, 4],
  );
});

test('PLAN-2: a compact plan takes its implicit steps from the summary or an unknown section, never from the preface or another known section', () => {
  const afterPreface = parsePlan('1. Checked the repo\n\nSummary: Fix it.\n\n2. Do A\n3. Do B');
  assert.equal(afterPreface.title, null);
  assert.deepEqual(
    afterPreface.steps.map((s) => [s.number, s.action]),
    [
      [2, 'Do A'],
      [3, 'Do B'],
    ],
  );
  const inValidation = parsePlan('# P\n## Summary\nFix.\n## Validation\n1. Run npm test');
  assert.deepEqual(inValidation.steps, []);
  assert.deepEqual(
    inValidation.sections.map((s) => s.key),
    ['summary', 'validation'],
  );
  const inApproach = parsePlan('# P\n## Approach\n1. Do A\n2. Do B\n## Validation\n- npm test');
  assert.deepEqual(
    inApproach.steps.map((s) => s.action),
    ['Do A', 'Do B'],
  );
  assert.deepEqual(
    inApproach.sections.map((s) => [s.heading, s.form]),
    [
      ['Approach', 'heading'],
      ['Implementation Steps', 'implicit'],
      ['Validation', 'heading'],
    ],
  );
});

test('PLAN-2: a numbered heading right after the summary is the next section, not an implicit step', () => {
  const doc = parsePlan('# P\nSummary: Fix it.\n\n1. ## Validation\n   npm test');
  assert.deepEqual(
    doc.sections.map((s) => [s.heading, s.form]),
    [
      ['Summary', 'label'],
      ['Validation', 'heading'],
    ],
  );
  assert.deepEqual(doc.steps, []);
});

test('PLAN-2: the implicit Steps section takes the level of the section it is cut from, which keeps only the lines above the steps', () => {
  const doc = parsePlan('# P\n## Scope\nClient only.\n### Summary\nFix it.\n1. Do A\n2. Do B');
  assert.deepEqual(
    doc.sections.map((s) => [s.heading, s.level, s.form, s.body.map((l) => l.line)]),
    [
      ['Scope', 2, 'heading', [3]],
      ['Summary', 3, 'heading', [5]],
      ['Implementation Steps', 3, 'implicit', [6, 7]],
    ],
  );
});

test('PLAN-2: section headings inside code are reported once per section, as `#` headings or whole bold lines only', () => {
  const doc = parsePlan(
    [
      '# P',
      '## Summary',
      'Fix it.',
      '```md',
      '## Summary',
      '**Implementation Steps**',
      '## Summary',
      '__Validation__:',
      '1. **Assumptions**',
      '**Scope**.',
      'x=1 # Expected Outcomes',
      '# Dependencies and Prerequisites',
      '```',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.codedSections.map((c) => [c.key, c.line, c.blockStart, c.blockEnd]),
    [
      ['summary', 5, 4, 13],
      ['steps', 6, 4, 13],
      ['validation', 8, 4, 13],
      ['dependencies', 12, 4, 13],
    ],
  );
});
