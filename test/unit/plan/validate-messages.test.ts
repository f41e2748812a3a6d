// Issue 19 (mutation survivors of validate.ts): every issue the validator reports, pinned whole —
// code, the exact message the user reads, and where it points (step, section, line). PLAN-8.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validatePlan } from '../../../src/core/plan';
import { GOOD_STEP, readyPlan } from '../../fixtures/ready-plan';

const STEPS = 'Implementation Steps';
const ASSUMPTIONS = 'Assumptions and Defaults';

test('PLAN-2, PLAN-8: a missing required section names its heading, its alias and nothing else', () => {
  const r = validatePlan('# T\n## Scope\n- a\n');
  assert.deepEqual(r.errors, [
    { code: 'missing_section', message: 'Required section `## Summary` is missing.', section: 'Summary' },
    {
      code: 'missing_section',
      message: 'Required section `## Implementation Steps` (or `## Steps`) is missing.',
      section: STEPS,
    },
    {
      code: 'missing_section',
      message: 'Required section `## Test Cases and Validation` (or `## Validation`) is missing.',
      section: 'Test Cases and Validation',
    },
    {
      code: 'missing_section',
      message: 'Required section `## Assumptions and Defaults` (or `## Assumptions`) is missing.',
      section: ASSUMPTIONS,
    },
  ]);
});

test('PLAN-2, PLAN-8: a required section found only inside a code block points at the block', () => {
  const r = validatePlan(
    readyPlan(GOOD_STEP)
      .replace('## Summary\n', '')
      .replace('Change the thing', '```\n## Summary\n```\nChange the thing'),
  );
  assert.deepEqual(
    r.errors.filter((e) => e.code === 'missing_section'),
    [
      {
        code: 'missing_section',
        message:
          'Required section `## Summary` is missing. It appears only inside the code block at lines 5-7, which is shown as code, not as a plan: remove the code fence around the plan.',
        section: 'Summary',
        line: 6,
      },
    ],
  );
});

test('PLAN-2, PLAN-8: a repeated section is a warning naming the line of the one that is used', () => {
  const r = validatePlan(readyPlan(GOOD_STEP, '\n## Summary\nAgain.\n'));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings, [
    {
      code: 'duplicate_section',
      message: 'Section `Summary` appears more than once; only the first (line 5) is used.',
      section: 'Summary',
      line: 20,
    },
  ]);
});

test('PLAN-2, PLAN-8: empty required sections each get their own message, at the heading line', () => {
  const r = validatePlan('# T\n## Summary\n\n## Scope\n- a\n## Steps\nNone yet.\n## Validation\n\n## Assumptions\n');
  assert.deepEqual(r.errors, [
    {
      code: 'empty_summary',
      message: 'The `Summary` section is empty: state the goal, the user impact and what changes in 1-3 lines.',
      section: 'Summary',
      line: 2,
    },
    {
      code: 'no_steps',
      message:
        'The `Implementation Steps` section has no numbered steps: write `1. Action -> files: [path] -> verify: [command]`.',
      section: STEPS,
      line: 6,
    },
    {
      code: 'no_validation_items',
      message: 'The `Test Cases and Validation` section lists nothing: add the build/lint, test and behaviour checks.',
      section: 'Test Cases and Validation',
      line: 8,
    },
    {
      code: 'no_assumptions',
      message:
        'The `Assumptions and Defaults` section is empty: list the defaults chosen and what is intentionally left unchanged.',
      section: ASSUMPTIONS,
      line: 10,
    },
  ]);
});

test('PLAN-2: the missing title and scope warnings carry their message and no location', () => {
  const r = validatePlan(
    '## Summary\nx\n## Steps\n' + GOOD_STEP + '\n## Validation\n- `npm test`\n## Assumptions\n- y',
  );
  assert.deepEqual(r.warnings, [
    { code: 'no_title', message: 'The plan has no `# Title` heading; its file gets a timestamped name.' },
    { code: 'no_scope', message: 'No `## Scope` section: new drafts should state what is in and out of scope.' },
  ]);
});

test('PLAN-3, PLAN-8: step target and verify issues name the step, the item and the fix', () => {
  const r = validatePlan(
    readyPlan(
      '1. Tidy up -> files: [the model layer] -> verify: [run checks]\n2. Tidy more -> verify: []\n3. Finish\n4. Chain `a()` -> verify: [npm test; npm run lint]',
    ),
  );
  const at = (line: number, step: number) => ({ step, section: STEPS, line });
  assert.deepEqual(r.errors, [
    {
      code: 'step_vague_target',
      message:
        'Step 1 target `the model layer` is not a concrete path or symbol: name the file (e.g. `src/module.ts`) or `file:symbol`.',
      ...at(12, 1),
    },
    {
      code: 'step_vague_verify',
      message:
        'Step 1 verify item rejected: `run checks` names no check: give the exact command (e.g. `npm test`, `cargo test -p crate`) or an observable result.',
      ...at(12, 1),
    },
    {
      code: 'step_missing_target',
      message:
        'Step 2 names no file, symbol or other repository target: add `-> files: [path/file.ext]` or name the symbol in inline code.',
      ...at(13, 2),
    },
    {
      code: 'step_missing_verify',
      message:
        'Step 2 has no non-empty `verify:`: add `-> verify: [command]` with a concrete command or observable check.',
      ...at(13, 2),
    },
    {
      code: 'step_missing_target',
      message:
        'Step 3 names no file, symbol or other repository target: add `-> files: [path/file.ext]` or name the symbol in inline code.',
      ...at(14, 3),
    },
    {
      code: 'step_missing_verify',
      message: 'Step 3 has no `verify:`: add `-> verify: [command]` with a concrete command or observable check.',
      ...at(14, 3),
    },
  ]);
  assert.deepEqual(r.warnings, [
    {
      code: 'verify_chain',
      message:
        'Step 4 verify item `npm test; npm run lint` chains commands with `;`: list separate checks as comma-separated entries.',
      ...at(15, 4),
    },
  ]);
});

test('PLAN-3: out-of-order numbering names the expected range, the number found and its position', () => {
  const r = validatePlan(
    readyPlan('1. A `a()` -> verify: [npm test]\n2. B `b()` -> verify: [npm test]\n5. C `c()` -> verify: [npm test]'),
  );
  assert.deepEqual(r.warnings, [
    {
      code: 'step_numbering',
      message: 'Steps are not numbered 1..3 in order (found 5 at position 3).',
      step: 5,
      section: STEPS,
      line: 14,
    },
  ]);
});

test('PLAN-3: checkbox steps are not counted when checking the numbering of numbered steps', () => {
  const r = validatePlan(
    readyPlan(
      '1. A `a()` -> verify: [npm test]\n- [ ] B `b()` -> verify: [npm test]\n2. C `c()` -> verify: [npm test]',
    ),
  );
  assert.deepEqual(
    r.doc.steps.map((s) => [s.kind, s.number]),
    [
      ['numbered', 1],
      ['checkbox', 2],
      ['numbered', 2],
    ],
  );
  assert.deepEqual(r.warnings, []);
});

test('PLAN-5, PLAN-8: prose placeholders are reported once per token, at their line, section and step', () => {
  const r = validatePlan(
    readyPlan(
      '1. Update `parse` -> files: [src/a.ts] -> verify: [npm test]\n   Detail: TBD',
      '- TODO: decide\n- Run <command> first, then TBD.\n- Edit path/to/x.ts.',
    ),
  );
  assert.deepEqual(r.errors, [
    {
      code: 'placeholder',
      message: 'Placeholder `TBD` left in the plan at line 13: replace it with the real content.',
      step: 1,
      section: STEPS,
      line: 13,
    },
    {
      code: 'placeholder',
      message: 'Placeholder `TODO:` left in the plan at line 20: replace it with the real content.',
      section: ASSUMPTIONS,
      line: 20,
    },
    {
      code: 'placeholder',
      message: 'Placeholder `TBD` left in the plan at line 21: replace it with the real content.',
      section: ASSUMPTIONS,
      line: 21,
    },
    {
      code: 'placeholder',
      message: 'Placeholder `<command>` left in the plan at line 21: replace it with the real content.',
      section: ASSUMPTIONS,
      line: 21,
    },
    {
      code: 'placeholder',
      message: 'Placeholder `path/to/…` left in the plan at line 22: replace it with the real content.',
      section: ASSUMPTIONS,
      line: 22,
    },
  ]);
});

test('PLAN-5: placeholders hidden in inline code in a step list are reported per item, as a path or a check', () => {
  const r = validatePlan(readyPlan('1. Update `parse` -> files: [`file`] -> verify: [`check`]'));
  assert.deepEqual(r.errors, [
    {
      code: 'placeholder',
      message: 'Step 1 uses the placeholder `file`: replace it with the real path.',
      step: 1,
      section: STEPS,
      line: 12,
    },
    {
      code: 'placeholder',
      message: 'Step 1 uses the placeholder `check`: replace it with the real check.',
      step: 1,
      section: STEPS,
      line: 12,
    },
  ]);
});

test('PLAN-5: a step placeholder in inline code is still reported when the step has other errors on its line', () => {
  const r = validatePlan(readyPlan('1. Update `parse` -> files: [`file`]'));
  assert.deepEqual(
    r.errors.map((e) => [e.code, e.line]),
    [
      ['step_missing_verify', 12],
      ['placeholder', 12],
    ],
  );
});

test('PLAN-5, PLAN-8: an open decision is quoted in its message, in both the inline and the list form', () => {
  const r = validatePlan(
    readyPlan(
      GOOD_STEP,
      '- Keep defaults.\nOpen  questions: should b.ts change?\n\nUnresolved questions:\n\n- Which  flag?   \n- none\n',
    ),
  );
  assert.deepEqual(r.errors, [
    {
      code: 'open_decision',
      message:
        'Unresolved `Open questions` at line 20: resolve it (ask the user) or state `No remaining scope decisions`.',
      section: ASSUMPTIONS,
      line: 20,
    },
    {
      code: 'open_decision',
      message:
        'Unresolved unresolved questions at line 24: "Which  flag?" — resolve it or state `No remaining scope decisions`.',
      section: ASSUMPTIONS,
      line: 24,
    },
  ]);
});

test('PLAN-5: an open-question heading is located in its own section', () => {
  const r = validatePlan(readyPlan(GOOD_STEP, '\n## Open questions: does b.ts change?\n'));
  assert.deepEqual(r.errors, [
    {
      code: 'open_decision',
      message:
        'Unresolved `Open questions` at line 20: resolve it (ask the user) or state `No remaining scope decisions`.',
      section: 'Open questions: does b.ts change?',
      line: 20,
    },
  ]);
});

test('PLAN-6, PLAN-8: each kind of file link is reported with its own message quoting what was found', () => {
  const r = validatePlan(
    readyPlan(
      GOOD_STEP,
      '- See [main](src/main.rs) and ![logo](media/logo.png).\n[main]: file:///tmp/main.rs\n- Open (vscode://file/src/a.ts:3) now.',
    ),
  );
  assert.deepEqual(r.errors, [
    {
      code: 'link_reference',
      message:
        'Markdown link `[main](src/main.rs)` at line 19: write file references as plain text or inline code (e.g. `src/main.rs:42`).',
      section: ASSUMPTIONS,
      line: 19,
    },
    {
      code: 'link_reference',
      message:
        'Markdown link `![logo](media/logo.png)` at line 19: write file references as plain text or inline code (e.g. `src/main.rs:42`).',
      section: ASSUMPTIONS,
      line: 19,
    },
    {
      code: 'link_reference',
      message: 'Link reference definition at line 20: write file references as plain text or inline code.',
      section: ASSUMPTIONS,
      line: 20,
    },
    {
      code: 'link_reference',
      message:
        'Editor/IDE URI `vscode://file/src/a.ts:3` at line 21: plans are read in terminals, so reference files as plain text or inline code (e.g. `src/main.rs:42`).',
      section: ASSUMPTIONS,
      line: 21,
    },
  ]);
});

test('PLAN-6: an editor URI in inline code is quoted up to the closing backtick', () => {
  const r = validatePlan(readyPlan(GOOD_STEP, '- See `file:///Users/you/repo/src/main.rs#L42`'));
  assert.deepEqual(
    r.errors.map((e) => e.message),
    [
      'Editor/IDE URI `file:///Users/you/repo/src/main.rs#L42` at line 19: plans are read in terminals, so reference files as plain text or inline code (e.g. `src/main.rs:42`).',
    ],
  );
});

test('PLAN-8: errors and warnings are listed by line; issues without a line come first', () => {
  const r = validatePlan(
    '[x]: src/a.ts\n## Summary\n\n## Steps\n' +
      GOOD_STEP +
      '\n## Validation\n- `npm test`\n## Summary\nAgain\n- Open question: which?',
  );
  assert.deepEqual(
    r.errors.map((e) => [e.code, e.line]),
    [
      ['missing_section', undefined],
      ['link_reference', 1],
      ['empty_summary', 2],
      ['open_decision', 10],
    ],
  );
  assert.deepEqual(
    r.warnings.map((e) => [e.code, e.line]),
    [
      ['no_title', undefined],
      ['no_scope', undefined],
      ['duplicate_section', 8],
    ],
  );
});

test('PLAN-7: the token estimate ignores surrounding blank space and the budget is inclusive', () => {
  assert.equal(
    validatePlan(`\n\n\n\n${readyPlan(GOOD_STEP)}\n\n\n\n\n\n\n\n`).tokens,
    validatePlan(readyPlan(GOOD_STEP)).tokens,
  );
  const base = readyPlan(GOOD_STEP, '- a');
  const exact = base + 'x'.repeat(1500 * 4 - base.trim().length);
  const atBudget = validatePlan(exact);
  assert.equal(atBudget.tokens, 1500);
  assert.deepEqual(atBudget.warnings, []);
  const over = validatePlan(`${exact}x`);
  assert.deepEqual(over.warnings, [
    {
      code: 'over_token_budget',
      message:
        'The plan is about 1501 tokens, over the ~1500-token budget: condense it (prefer `file:symbol` references over prose) so it is not truncated.',
    },
  ]);
});
