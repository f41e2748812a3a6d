// Step recognition in parsePlan beyond parse.test.ts: each case below is a shape the parser must
// read (or refuse) exactly so, found by mutation testing (issue 19).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parsePlan, type PlanDoc } from '../../../src/core/plan';

const STEPS = '## Implementation Steps';

function stepsOf(doc: PlanDoc): Array<[number, string, string]> {
  return doc.steps.map((s) => [s.number, s.kind, s.action]);
}

test('PLAN-3, TRK-7: checkbox items are steps numbered by position, any marker, state and indentation', () => {
  const doc = parsePlan(
    [
      STEPS,
      ' - [ ] Add the parser',
      ' -  [x] Cover it with tests',
      '* [~] Match files under src/**',
      '+ [!] Ship it',
    ].join('\n'),
  );
  assert.deepEqual(stepsOf(doc), [
    [1, 'checkbox', 'Add the parser'],
    [2, 'checkbox', 'Cover it with tests'],
    [3, 'checkbox', 'Match files under src/**'],
    [4, 'checkbox', 'Ship it'],
  ]);
});

test('PLAN-3: numbering styles (`Step  4:`, `Step 5 :`, `- Step 6:`, bold, quoted at any depth) start steps; a number inside a line does not', () => {
  const doc = parsePlan(
    [
      '# Plan',
      STEPS,
      '- Tracker items look like - [ ] this',
      'Follow part 2. of the spec',
      '1. Add the parser',
      '- See part 3. of the spec',
      'Step  4: Cover it',
      'Step 5 : Ship it',
      '- Step 6: Announce',
      '**Step 7: Bold step**',
      '> 8. Quoted',
      '>9. Tight quote',
      '> > 10. Nested quote',
    ].join('\n'),
  );
  assert.deepEqual(stepsOf(doc), [
    [1, 'numbered', 'Add the parser'],
    [4, 'numbered', 'Cover it'],
    [5, 'numbered', 'Ship it'],
    [6, 'numbered', 'Announce'],
    [7, 'numbered', 'Bold step'],
    [8, 'numbered', 'Quoted'],
    [9, 'numbered', 'Tight quote'],
    [10, 'numbered', 'Nested quote'],
  ]);
  assert.deepEqual(
    doc.steps[0]?.lines.map((l) => l.text),
    ['1. Add the parser', '- See part 3. of the spec'],
  );
});

test('PLAN-3: bulleted `Step N:` items indented alike are sibling steps', () => {
  const doc = parsePlan([STEPS, ' - Step 1: Add the parser', ' - Step 2: Cover it'].join('\n'));
  assert.deepEqual(stepsOf(doc), [
    [1, 'numbered', 'Add the parser'],
    [2, 'numbered', 'Cover it'],
  ]);
});

test('PLAN-3: a closing `**` is dropped only when the number opened the bold; `**` in the action stays', () => {
  const doc = parsePlan(
    [
      STEPS,
      '**1. Add the parser**',
      '**2.** Add **tests**',
      '3. Update every `**/*.ts` file',
      '**4.** Update every `**/*.ts` file',
      '5. Match files under src/**',
      '**6. Trim it **',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => s.action),
    [
      'Add the parser',
      'Add **tests**',
      'Update every `**/*.ts` file',
      'Update every `**/*.ts` file',
      'Match files under src/**',
      'Trim it',
    ],
  );
});

test('PLAN-3: a step keeps its code lines (blank ones too) as detail, never as metadata, and skips blank lines outside code', () => {
  const doc = parsePlan(
    [
      '# Plan',
      STEPS,
      '1. Add the parser',
      '',
      '   ```sh',
      '   verify: not a field',
      '',
      '   ```',
      '   files: src/a.ts',
      '   ',
      '   More detail',
      '2. Next',
    ].join('\n'),
  );
  const first = doc.steps[0];
  assert.deepEqual(
    first?.lines.map((l) => l.line),
    [3, 5, 6, 7, 8, 9, 11],
  );
  assert.deepEqual(first?.verify, []);
  assert.equal(first?.hasVerifyField, false);
  assert.deepEqual(first?.files, ['src/a.ts']);
  assert.deepEqual(first?.metaLines, [9]);
});

test('PLAN-3: labeled Action lines extend the action (`: ` after a word, a space after `:` or `.`), empty ones add nothing; outcomes accumulate', () => {
  const doc = parsePlan(
    [
      STEPS,
      '1. -> files: src/a.ts -> outcome: parser added',
      '   - **Action:** Wrap the call.',
      '   - outcome: and tested',
      '2. **Add the helper:**',
      '   - **Action:** Wrap the call.',
      '3. Update src/a.ts',
      '   - Action: wrap it',
      '   - **Action:**',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => s.action),
    ['Wrap the call.', 'Add the helper: Wrap the call.', 'Update src/a.ts: wrap it'],
  );
  assert.equal(doc.steps[0]?.outcome, 'parser added and tested');
  assert.deepEqual(doc.steps[0]?.files, ['src/a.ts']);
});

test('PLAN-3: a list item holding a heading is still a step; a table row that starts like a step is not', () => {
  const doc = parsePlan(
    [
      STEPS,
      '1. ### Add the parser',
      '2. Cover it',
      '',
      'Phase | Files',
      '--- | ---',
      'Step 3: Parse | src/a.ts',
      '',
      '4. Ship it',
    ].join('\n'),
  );
  assert.deepEqual(
    doc.steps.map((s) => s.number),
    [1, 2, 4],
  );
});

test('PLAN-3: a step whose text holds a Unicode line separator (U+2028) is still a step, numbered, checkbox or bulleted', () => {
  const doc = parsePlan(
    [STEPS, '1. Add the parser\u2028and its tests', '- [ ] Cover\u2028it', '- Step 3: Ship\u2028it'].join('\n'),
  );
  assert.deepEqual(stepsOf(doc), [
    [1, 'numbered', 'Add the parser\u2028and its tests'],
    [2, 'checkbox', 'Cover\u2028it'],
    [3, 'numbered', 'Ship\u2028it'],
  ]);
});

test('PLAN-3, TRK-7: a line opening two list items is one step, numbered by its number: `- 1. Add`, `1. - [ ] Add`, `3. * Ship`', () => {
  const bulletFirst = parsePlan([STEPS, '- 1. Add the parser', '- 2. Cover it'].join('\n'));
  assert.deepEqual(stepsOf(bulletFirst), [
    [1, 'numbered', 'Add the parser'],
    [2, 'numbered', 'Cover it'],
  ]);
  const numberFirst = parsePlan(
    [
      STEPS,
      '1. - [ ] Add the parser',
      '2. - [x] Cover it',
      '3. * Ship it',
      'Step 4: - Rename a - b',
      '5. Rename c - d',
    ].join('\n'),
  );
  assert.deepEqual(stepsOf(numberFirst), [
    [1, 'numbered', 'Add the parser'],
    [2, 'numbered', 'Cover it'],
    [3, 'numbered', 'Ship it'],
    [4, 'numbered', 'Rename a - b'],
    [5, 'numbered', 'Rename c - d'],
  ]);
});

test('PLAN-3: a paragraph line that only looks like a list item (indented four spaces under a paragraph) starts no step', () => {
  const doc = parsePlan(
    [STEPS, 'Work in this order:', '    - [ ] not an item', '    - Step 1: nor this', '2. Add the parser'].join('\n'),
  );
  assert.deepEqual(stepsOf(doc), [[2, 'numbered', 'Add the parser']]);
});
