import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parsePlan, splitStepLine, parseListValue, sectionKeyOf, stripTrackerRegion, TRACKER_START, TRACKER_END } from '../../../src/core/plan';

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
  const { action, fields } = splitStepLine("Map old -> new keys -> files: [src/a.ts] -> verify: [rg -n 'x -> y' src] -> outcome: keys renamed");
  assert.equal(action, 'Map old -> new keys');
  assert.deepEqual(fields, [
    { field: 'files', value: '[src/a.ts]' },
    { field: 'verify', value: "[rg -n 'x -> y' src]" },
    { field: 'outcome', value: 'keys renamed' },
  ]);
});

test('PLAN-3: an arrow inside a quoted pattern that looks like metadata stays content', () => {
  const { fields } = splitStepLine("Fix docs -> files: [README.md] -> verify: [rg -n '-> files:' README.md]");
  assert.deepEqual(fields.map((f) => f.field), ['files', 'verify']);
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
  assert.deepEqual(doc.steps.map((s) => [s.number, s.action, s.files]), [
    [1, 'One', ['a.ts']],
    [2, 'Two', ['b.ts']],
    [3, 'Three', ['c.ts']],
    [4, 'Four', ['d.ts']],
    [5, 'Five', ['e.ts']],
  ]);
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
  const doc = parsePlan(['## Implementation Steps', '```', '1. not a step', '## Summary', '```', '1. Real -> files: [a.ts] -> verify: [npm test]'].join('\n'));
  assert.equal(doc.steps.length, 1);
  assert.equal(doc.sections.length, 1);
});

test('file-formats: the tracker region is ignored and line numbers stay right', () => {
  const text = ['# T', TRACKER_START, '1. fake', TRACKER_END, '## Steps', '1. Real -> files: [a.ts] -> verify: [npm test]'].join('\n');
  const doc = parsePlan(text);
  assert.equal(doc.steps[0]?.line, 6);
  assert.equal(doc.steps.length, 1);
  assert.equal(stripTrackerRegion(text), ['# T', '## Steps', '1. Real -> files: [a.ts] -> verify: [npm test]'].join('\n'));
});

test('PLAN-2: the title is the first level-1 heading; lines before it are the preface', () => {
  const doc = parsePlan('Repository facts checked:\n- fact\n\n# My Plan\n\n## Summary\nx');
  assert.equal(doc.title, 'My Plan');
  assert.equal(doc.titleLine, 4);
  assert.deepEqual(doc.preface.map((l) => l.line), [1, 2, 3]);
});

test('PLAN-2: a phase sub-heading under Implementation Steps keeps its steps in the section', () => {
  const doc = parsePlan('## Implementation Steps\n### Phase 1\n1. A -> files: [a.ts] -> verify: [npm test]\n### Phase 2\n2. B -> files: [b.ts] -> verify: [npm test]\n## Validation\n- x');
  assert.deepEqual(doc.steps.map((s) => s.number), [1, 2]);
});
