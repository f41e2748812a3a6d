import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  parsePlan,
  splitStepLine,
  parseListValue,
  sectionKeyOf,
  stripTrackerRegion,
  TRACKER_START,
  TRACKER_END,
} from '../../../src/core/plan';

test('PLAN-2: canonical sections and aliases are recognised case-insensitively', () => {
  assert.equal(sectionKeyOf('Implementation Steps'), 'steps');
  assert.equal(sectionKeyOf('STEPS'), 'steps');
  assert.equal(sectionKeyOf('test cases & validation'), 'validation');
  assert.equal(sectionKeyOf('Validation:'), 'validation');
  assert.equal(sectionKeyOf('Assumptions'), 'assumptions');
  assert.equal(sectionKeyOf('Dependencies and Prerequisites'), 'dependencies');
  assert.equal(sectionKeyOf('Risks'), null);
});

test('PLAN-3: `-> files:` / `-> verify:` / `-> outcome:` split off the action; prose arrows stay content', () => {
  const { action, fields } = splitStepLine(
    "Map old -> new keys -> files: [src/a.ts] -> verify: [rg -n 'x -> y' src] -> outcome: keys renamed",
  );
  assert.equal(action, 'Map old -> new keys');
  assert.deepEqual(fields, [
    { field: 'files', value: '[src/a.ts]' },
    { field: 'verify', value: "[rg -n 'x -> y' src]" },
    { field: 'outcome', value: 'keys renamed' },
  ]);
});

test('PLAN-3: an arrow inside a quoted pattern that looks like metadata stays content', () => {
  const { fields } = splitStepLine("Fix docs -> files: [README.md] -> verify: [rg -n '-> files:' README.md]");
  assert.deepEqual(
    fields.map((f) => f.field),
    ['files', 'verify'],
  );
  assert.deepEqual(parseListValue(fields[1]?.value ?? ''), ["rg -n '-> files:' README.md"]);
});

test('PLAN-3: `→` reads as `->` and every numbering style is accepted', () => {
  const doc = parsePlan(
    [
      '## Implementation Steps',
      '1. One → files: [a.ts] → verify: [npm test]',
      '2) Two -> files: [b.ts] -> verify: [npm test]',
      '3: Three -> files: [c.ts] -> verify: [npm test]',
      'Step 4: Four -> files: [d.ts] -> verify: [npm test]',
      '**Step 5:** Five -> files: [e.ts] -> verify: [npm test]',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => [s.number, s.action, s.files]),
    [
      [1, 'One', ['a.ts']],
      [2, 'Two', ['b.ts']],
      [3, 'Three', ['c.ts']],
      [4, 'Four', ['d.ts']],
      [5, 'Five', ['e.ts']],
    ],
  );
});

test('PLAN-3: continuation lines belong to the step above; detail bullets do not start steps', () => {
  const doc = parsePlan(
    [
      '# T',
      '## Steps',
      '1. Do it',
      '   files: src/a.ts, src/b.ts',
      '   - symbols: `parse()`',
      '   - verify: `npm test`, wc -l src/a.ts',
      '   - outcome: it is done',
      '   1. nested detail',
      '2. Next -> files: [x.py] -> verify: [pytest]',
    ].join('\n'),
  );
  const [one, two] = doc.steps;
  assert.equal(doc.steps.length, 2);
  assert.deepEqual(one?.files, ['src/a.ts', 'src/b.ts']);
  assert.deepEqual(one?.targets, ['parse()']);
  assert.deepEqual(one?.verify, ['npm test', 'wc -l src/a.ts']);
  assert.equal(one?.outcome, 'it is done');
  assert.equal(one?.line, 3);
  assert.equal(two?.line, 9);
});

test('PLAN-3: numbered lines inside fenced code are not steps and headings in fences are not sections', () => {
  const doc = parsePlan(
    [
      '## Implementation Steps',
      '```',
      '1. not a step',
      '## Summary',
      '```',
      '1. Real -> files: [a.ts] -> verify: [npm test]',
    ].join('\n'),
  );
  assert.equal(doc.steps.length, 1);
  assert.equal(doc.sections.length, 1);
});

test('file-formats: the tracker region is ignored and line numbers stay right', () => {
  const text = [
    '# T',
    TRACKER_START,
    '1. fake',
    TRACKER_END,
    '## Steps',
    '1. Real -> files: [a.ts] -> verify: [npm test]',
  ].join('\n');
  const doc = parsePlan(text);
  assert.equal(doc.steps[0]?.line, 6);
  assert.equal(doc.steps.length, 1);
  assert.equal(
    stripTrackerRegion(text),
    ['# T', '## Steps', '1. Real -> files: [a.ts] -> verify: [npm test]'].join('\n'),
  );
});

test('PLAN-2: the title is the first level-1 heading; lines before it are the preface', () => {
  const doc = parsePlan('Repository facts checked:\n- fact\n\n# My Plan\n\n## Summary\nx');
  assert.equal(doc.title, 'My Plan');
  assert.equal(doc.titleLine, 4);
  assert.deepEqual(
    doc.preface.map((l) => l.line),
    [1, 2, 3],
  );
});

test('PLAN-2: a phase sub-heading under Implementation Steps keeps its steps in the section', () => {
  const doc = parsePlan(
    '## Implementation Steps\n### Phase 1\n1. A -> files: [a.ts] -> verify: [npm test]\n### Phase 2\n2. B -> files: [b.ts] -> verify: [npm test]\n## Validation\n- x',
  );
  assert.deepEqual(
    doc.steps.map((s) => s.number),
    [1, 2],
  );
});

test('issue 14 item 1: setext headings are sections; fences of any length and indented code hide headings and steps', () => {
  const doc = parsePlan(
    [
      'Title here',
      '==========',
      '',
      'Summary',
      '-------',
      'Text.',
      '',
      '~~~~',
      '## Validation',
      '~~~',
      '1. not a step inside the still-open fence',
      '~~~~',
      '',
      '    ## Assumptions',
      '    1. indented code, not a step',
      '',
      'Steps',
      '-----',
      '1. Real -> files: [a.ts] -> verify: [npm test]',
    ].join('\n'),
  );
  assert.equal(doc.title, 'Title here');
  assert.deepEqual(
    doc.sections.map((s) => [s.key, s.form, s.line]),
    [
      ['summary', 'heading', 4],
      ['steps', 'heading', 17],
    ],
  );
  assert.deepEqual(
    doc.steps.map((s) => [s.number, s.line]),
    [[1, 19]],
  );
  assert.deepEqual(
    doc.codedSections.map((c) => [c.key, c.line, c.blockStart, c.blockEnd]),
    [
      ['validation', 9, 8, 12],
      ['assumptions', 14, 14, 15],
    ],
  );
  assert.equal(doc.proseLines[8]?.text, '', 'code is blanked for the prose rules');
  assert.equal(doc.proseLines[13]?.text, '');
});

test('issue 14 item 2: bold section headings, bold lines and label lines are sections; a label keeps its value as the first body line', () => {
  const doc = parsePlan(
    [
      '# T',
      '## **Summary**',
      'Why.',
      '**Implementation Steps:**',
      '1. A -> files: [a.ts] -> verify: [npm test]',
      '',
      'Validation: `npm test` passes.',
      '> **Assumptions**',
      '> None.',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.sections.map((s) => [s.key, s.form]),
    [
      ['summary', 'heading'],
      ['steps', 'bold'],
      ['validation', 'label'],
      ['assumptions', 'bold'],
    ],
  );
  assert.deepEqual(
    doc.sections[2]?.body.map((l) => [l.line, l.text]),
    [[7, '`npm test` passes.']],
  );
  assert.equal(doc.steps.length, 1);
});

test('issue 14 item 2: a label inside a list item is content, not a section', () => {
  const doc = parsePlan(
    "## Summary\nx\n## Steps\n1. A -> files: [a.ts] -> verify: [npm test]\n   Validation: the step's own note\n- **Assumptions**\n",
  );
  assert.deepEqual(
    doc.sections.map((s) => s.key),
    ['summary', 'steps'],
  );
});

test("issue 14 item 2: a compact plan's numbered steps after the summary form an implicit Steps section", () => {
  const doc = parsePlan(
    [
      '# T',
      '',
      'Summary: Do the thing.',
      'More summary.',
      '',
      '1. A -> files: [a.ts] -> verify: [npm test]',
      '2. B -> files: [b.ts] -> verify: [npm test]',
      '',
      'Validation: `npm test`.',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.sections.map((s) => [s.key, s.form, s.line]),
    [
      ['summary', 'label', 3],
      ['steps', 'implicit', 6],
      ['validation', 'label', 9],
    ],
  );
  assert.deepEqual(
    doc.sections[0]?.body.map((l) => l.text),
    ['Do the thing.', 'More summary.', ''],
  );
  assert.deepEqual(
    doc.steps.map((s) => s.action),
    ['A', 'B'],
  );
});

test('issue 14 item 2: steps as labeled blocks; action, files/symbols and verify come from the labeled lines, bold or plain', () => {
  const doc = parsePlan(
    [
      '## Steps',
      '1. **Add the helper**',
      '   - **Action:** Wrap the call.',
      '   - **Files/symbols:** `src/retry.ts:withRetry`, `src/client.ts`',
      '   - **Verify:** `npm test -- retry`',
      '2. Use it',
      '   - Files/symbols: src/client.ts:get',
      '   - Verify: npm test -- client, rg -n withRetry src',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => [s.action, s.files, s.verify, s.metaLines]),
    [
      ['Add the helper: Wrap the call.', ['src/retry.ts:withRetry', 'src/client.ts'], ['npm test -- retry'], [3, 4, 5]],
      ['Use it', ['src/client.ts:get'], ['npm test -- client', 'rg -n withRetry src'], [7, 8]],
    ],
  );
});

test('issue 14 item 2: a plain-text plan (no # headings, • bullets, indentation) has a title, sections and steps', () => {
  const doc = parsePlan(
    [
      'Rotate the API keys',
      '',
      'Summary',
      '  Keys never rotate.',
      '',
      'Implementation Steps',
      '  1. Add `rotate` -> files: [keys/rotate.py] -> verify: [pytest tests/test_rotate.py]',
      '',
      'Validation',
      '  • pytest passes',
      '',
      'Assumptions',
      '  • Monthly',
    ].join('\n'),
  );
  assert.equal(doc.title, 'Rotate the API keys');
  assert.deepEqual(
    doc.sections.map((s) => [s.key, s.form]),
    [
      ['summary', 'label'],
      ['steps', 'label'],
      ['validation', 'label'],
      ['assumptions', 'label'],
    ],
  );
  assert.deepEqual(
    doc.steps.map((s) => [s.number, s.files]),
    [[1, ['keys/rotate.py']]],
  );
});

test('issue 14 item 1: a numbered list nested in a step is detail; a numbered line folded into the item above by markdown is still a step', () => {
  const doc = parsePlan(
    [
      '## Steps',
      '1. Outer -> files: [a.ts] -> verify: [npm test]',
      '   1. inner detail',
      '   2. more detail',
      '2) Next -> files: [b.ts] -> verify: [npm test]',
      '3: Third -> files: [c.ts] -> verify: [npm test]',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => [s.number, s.action, s.lines.length]),
    [
      [1, 'Outer', 3],
      [2, 'Next', 1],
      [3, 'Third', 1],
    ],
  );
});
