// GATE-2: the plan card's "What changed", from the survivors of `npm run mutate -- plan` on diff.ts
// (docs/testing.md): which identical steps anchor the pairing, when two steps read alike, what
// counts as a field's change, and the parts outside the steps.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { diffPlanSteps, isEmptyStepDiff, parsePlan } from '../../../src/core/plan';
import { shoutFlagPlan } from '../../fixtures/plans/shout-flag';

type PlanStepDiff = ReturnType<typeof diffPlanSteps>;

const plan = (steps: string[], options: { summary?: string; assumptions?: string } = {}) =>
  shoutFlagPlan(steps, { summary: 'Add a shout flag to `greet`.', ...options });

const PARAM = 'Add a `shout` parameter to `greet` in src/greet.js -> files: [src/greet.js]';
const FLAG = 'Parse `--shout` in bin/greet.js -> files: [bin/greet.js] -> verify: [node bin/greet.js --shout Ada]';
const DOCS = 'Document the flag in README.md -> files: [README.md]';
const TEST = 'Cover shouting in test/greet.test.js -> files: [test/greet.test.js]';

/** The diff as `[old, new]` numbers: what a reader of the card sees, without the step texts. */
const numbers = (diff: PlanStepDiff) => ({
  added: diff.added.map((s) => s.number),
  removed: diff.removed.map((s) => s.number),
  changed: diff.changed.map((c) => [c.before.number, c.after.number, c.fields.join('+')]),
});

test('GATE-2: of two swapped steps the one that moved down is reported moved (removed, added again); the other is kept', () => {
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, FLAG]), plan([FLAG, PARAM]))), {
    added: [2],
    removed: [1],
    changed: [],
  });
});

test('GATE-2: a step added at the top and the last step removed leave the step between them unchanged', () => {
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, FLAG]), plan([TEST, PARAM]))), {
    added: [1],
    removed: [2],
    changed: [],
  });
});

test('GATE-2: removing the first or the last step removes only that step', () => {
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([FLAG, DOCS]))), {
    added: [],
    removed: [1],
    changed: [],
  });
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([PARAM, FLAG]))), {
    added: [],
    removed: [3],
    changed: [],
  });
});

test('GATE-2: steps inserted before the first step are additions and the old step is kept', () => {
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM]), plan([TEST, FLAG, PARAM]))), {
    added: [1, 2],
    removed: [],
    changed: [],
  });
});

test('GATE-2: moving the last step to the top is one step moved, not three', () => {
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, FLAG, DOCS]), plan([DOCS, PARAM, FLAG]))), {
    added: [1],
    removed: [3],
    changed: [],
  });
});

test('GATE-2: a reworded step found after a new step pairs with its old self, and the new step is added once', () => {
  const reworded = PARAM.replace('Add a `shout` parameter to', 'Add an optional `shout` parameter to');
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, DOCS]), plan([TEST, reworded, DOCS]))), {
    added: [1],
    removed: [],
    changed: [[1, 2, 'action']],
  });
});

test('GATE-2: two steps sharing exactly half their words read alike (the threshold is inclusive)', () => {
  // {update, readme, md} and {rewrite, readme, md}: 2 shared of 4 words.
  const diff = diffPlanSteps(plan([PARAM, 'Update README.md']), plan([PARAM, TEST, 'Rewrite README.md']));
  assert.deepEqual(numbers(diff), { added: [2], removed: [], changed: [[2, 3, 'action']] });
});

test('GATE-2: a step with no word (only punctuation) reads like another such step and unlike any worded step', () => {
  // The lone old step faces two new ones, so it pairs by reading alike, not by position.
  assert.deepEqual(numbers(diffPlanSteps(plan([DOCS, '…']), plan([DOCS, TEST, '—']))), {
    added: [2],
    removed: [],
    changed: [[2, 3, 'action']],
  });
  // A worded old step passes over a new step without words to pair with its reworded self.
  const flagChecked = FLAG.replace('--shout Ada]', '--shout Ada, npm test]');
  assert.deepEqual(numbers(diffPlanSteps(plan([FLAG]), plan(['—', flagChecked]))), {
    added: [1],
    removed: [],
    changed: [[1, 2, 'verify']],
  });
  // An old step without words does not pair with the worded step in front of the reworded one.
  assert.deepEqual(numbers(diffPlanSteps(plan(['…']), plan([TEST, '—']))), {
    added: [1],
    removed: [],
    changed: [[1, 2, 'action']],
  });
});

test('GATE-2: reordering the files or symbols of a reworded step still pairs it with its old self', () => {
  const docs = 'Document the flag -> files: [README.md, docs/cli.md]';
  const docsReordered = 'Describe the flag -> files: [docs/cli.md, README.md]';
  assert.deepEqual(numbers(diffPlanSteps(plan([docs]), plan([TEST, docsReordered]))), {
    added: [1],
    removed: [],
    changed: [[1, 2, 'action+files']],
  });
  const symbols = 'Rename the option -> symbols: [parseArgs, greetOptions]';
  const symbolsReordered = 'Rename that option -> symbols: [greetOptions, parseArgs]';
  assert.deepEqual(numbers(diffPlanSteps(plan([symbols]), plan([TEST, symbolsReordered]))), {
    added: [1],
    removed: [],
    changed: [[1, 2, 'action+targets']],
  });
});

test('GATE-2: list entries that join into one path are a change of files, not the same list', () => {
  const split = 'Parse `--shout` -> files: [bin/, greet.js]';
  const joined = 'Parse `--shout` -> files: [bin/greet.js]';
  assert.deepEqual(numbers(diffPlanSteps(plan([PARAM, split]), plan([PARAM, joined]))), {
    added: [],
    removed: [],
    changed: [[2, 2, 'files']],
  });
});

test('GATE-2: a check moved from the verify list to the outcome is a change of both fields', () => {
  assert.deepEqual(
    numbers(diffPlanSteps(plan(['Run the suite -> verify: [npm test]']), plan(['Run the suite -> outcome: npm test']))),
    { added: [], removed: [], changed: [[1, 1, 'verify+outcome']] },
  );
});

test('GATE-2: an empty outcome field is the same as none', () => {
  const diff = diffPlanSteps(plan([PARAM]), plan([`${PARAM} -> outcome:`]));
  assert.equal(isEmptyStepDiff(diff), true);
});

test('GATE-2: whitespace inside a line or a re-wrapped paragraph is no change; a step is named with single spaces', () => {
  assert.deepEqual(
    diffPlanSteps(plan([PARAM], { summary: 'Add a shout flag.' }), plan([PARAM], { summary: 'Add  a shout\tflag.' }))
      .sections,
    [],
  );
  assert.deepEqual(
    diffPlanSteps(
      plan([PARAM], { summary: 'Add a shout flag to greet.' }),
      plan([PARAM], { summary: 'Add a shout\nflag to greet.' }),
    ).sections,
    [],
  );
  const diff = diffPlanSteps(plan([PARAM]), plan([PARAM, 'Document  the   flag']));
  assert.deepEqual(diff.added, [{ number: 2, text: 'Document the flag' }]);
});

test('GATE-2: an empty `#` title is no title, in either direction', () => {
  const untitled = plan([PARAM]).replace('# Shout flag\n', '');
  const emptyTitle = plan([PARAM]).replace('# Shout flag\n', '#\n');
  assert.deepEqual(diffPlanSteps(untitled, emptyTitle).sections, []);
  assert.deepEqual(diffPlanSteps(emptyTitle, untitled).sections, []);
});

test('GATE-2: a section the new revision drops is named, after the changed ones', () => {
  const before = `${plan([PARAM])}\n\n## Risks\n- None.`;
  const after = plan([PARAM], { summary: 'Add an opt-in shout flag.' });
  assert.deepEqual(diffPlanSteps(before, after).sections, ['Summary', 'Risks']);
});

test('GATE-2: parsed revisions give the same diff as their markdown', () => {
  const [before, after] = [plan([PARAM, FLAG]), plan([TEST, PARAM], { summary: 'Shout.' })];
  assert.deepEqual(diffPlanSteps(parsePlan(before), parsePlan(after)), diffPlanSteps(before, after));
  assert.deepEqual(diffPlanSteps(parsePlan(before), after), diffPlanSteps(before, after));
  assert.deepEqual(diffPlanSteps(before, parsePlan(after)), diffPlanSteps(before, after));
});

test('GATE-2: a diff with only a removal, only a change or only a section change is not empty', () => {
  const empty: PlanStepDiff = { added: [], removed: [], changed: [], sections: [] };
  const step = { number: 1, text: 'Add the flag' };
  assert.equal(isEmptyStepDiff(empty), true);
  assert.equal(isEmptyStepDiff({ ...empty, removed: [step] }), false);
  assert.equal(isEmptyStepDiff({ ...empty, changed: [{ before: step, after: step, fields: ['verify'] }] }), false);
  assert.equal(isEmptyStepDiff({ ...empty, sections: ['Summary'] }), false);
});
