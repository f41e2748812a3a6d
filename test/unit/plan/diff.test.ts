/**
 * GATE-2: the plan card's "What changed" between two revisions of a plan — steps added, removed
 * and changed, paired by content rather than by number (an inserted step renumbers the rest).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { diffPlanSteps, isEmptyStepDiff } from '../../../src/core/plan';
import { shoutFlagPlan } from '../../fixtures/plans/shout-flag';

/** The diff tests' plans keep a summary without the file name. */
const plan = (steps: string[], options: { summary?: string; assumptions?: string } = {}) =>
  shoutFlagPlan(steps, { summary: 'Add a shout flag to `greet`.', ...options });

const PARAM =
  'Add a `shout` parameter to `greet` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/]';
const FLAG = 'Parse `--shout` in bin/greet.js -> files: [bin/greet.js] -> verify: [node bin/greet.js --shout Ada]';
const DOCS = 'Document the flag in README.md -> files: [README.md] -> verify: [rg -n shout README.md]';
const TEST = 'Cover shouting in test/greet.test.js -> files: [test/greet.test.js] -> verify: [node --test test/]';

test('GATE-2: identical revisions have nothing to show', () => {
  const diff = diffPlanSteps(plan([PARAM, FLAG]), plan([PARAM, FLAG]));
  assert.deepEqual(diff, { added: [], removed: [], changed: [], sections: [] });
  assert.equal(isEmptyStepDiff(diff), true);
});

test('GATE-2: an inserted step is one addition, not a change to every later (renumbered) step', () => {
  const diff = diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([PARAM, TEST, FLAG, DOCS]));
  assert.deepEqual(diff.added, [{ number: 2, text: 'Cover shouting in test/greet.test.js' }]);
  assert.deepEqual(diff.removed, []);
  assert.deepEqual(diff.changed, []);
  assert.deepEqual(diff.sections, []);
  assert.equal(isEmptyStepDiff(diff), false);
});

test('GATE-2: a removed step is reported with its old number', () => {
  const diff = diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([PARAM, DOCS]));
  assert.deepEqual(diff.removed, [{ number: 2, text: 'Parse `--shout` in bin/greet.js' }]);
  assert.deepEqual(diff.added, []);
  assert.deepEqual(diff.changed, []);
});

test('GATE-2: a step whose verify list changed is a change, naming the field, before and after numbers kept', () => {
  const diff = diffPlanSteps(
    plan([PARAM, FLAG]),
    plan([TEST, PARAM, FLAG.replace('node bin/greet.js --shout Ada', 'node bin/greet.js --shout Ada, npm test')]),
  );
  assert.deepEqual(diff.added, [{ number: 1, text: 'Cover shouting in test/greet.test.js' }]);
  assert.deepEqual(diff.changed, [
    {
      before: { number: 2, text: 'Parse `--shout` in bin/greet.js' },
      after: { number: 3, text: 'Parse `--shout` in bin/greet.js' },
      fields: ['verify'],
    },
  ]);
});

test('GATE-2: a reworded step pairs with its old self; an unrelated one beside it counts as added', () => {
  const reworded = PARAM.replace('Add a `shout` parameter to', 'Add an optional `shout` parameter (default false) to');
  const diff = diffPlanSteps(plan([PARAM, DOCS]), plan([reworded, FLAG, DOCS]));
  assert.deepEqual(
    diff.changed.map((c) => [c.before.number, c.after.number, c.fields]),
    [[1, 1, ['action']]],
  );
  assert.deepEqual(
    diff.added.map((s) => s.number),
    [2],
  );
  assert.deepEqual(diff.removed, []);
});

test('GATE-2: a step rewritten in place (nothing in common) is still that step, changed', () => {
  const diff = diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([PARAM, TEST, DOCS]));
  assert.deepEqual(
    diff.changed.map((c) => [c.before.text, c.after.text, c.fields]),
    [['Parse `--shout` in bin/greet.js', 'Cover shouting in test/greet.test.js', ['action', 'files', 'verify']]],
  );
  assert.deepEqual([diff.added, diff.removed], [[], []]);
});

test('GATE-2: two steps replaced by one unrelated step are two removals and one addition', () => {
  const diff = diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([TEST]));
  assert.deepEqual(
    diff.removed.map((s) => s.number),
    [1, 2, 3],
  );
  assert.deepEqual(
    diff.added.map((s) => s.number),
    [1],
  );
  assert.deepEqual(diff.changed, []);
});

test('GATE-2: edits outside the steps are named by section; whitespace alone is no change', () => {
  const before = plan([PARAM], { summary: 'Add a shout flag.' });
  const after = plan([PARAM.replace('  ', ' ')], {
    summary: 'Add a shout flag; shouting is opt-in.',
    assumptions: 'Shouting is opt-in.',
  }).replace('# Shout flag', '# Shout flag for greet');
  const diff = diffPlanSteps(before, `${after}\n\n## Risks\n- None.`);
  assert.deepEqual(diff.sections, ['Title', 'Summary', 'Assumptions and Defaults', 'Risks']);
  assert.deepEqual([diff.added, diff.removed, diff.changed], [[], [], []]);
  assert.deepEqual(diffPlanSteps(plan([PARAM]), plan([PARAM]).replace('## Summary\n', '## Summary\n\n')).sections, []);
});
