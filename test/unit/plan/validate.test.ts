import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validatePlan, PLAN_TOKEN_BUDGET, TRACKER_START, TRACKER_END, type PlanIssue } from '../../../src/core/plan';
import { GOOD_STEP, readyPlan } from '../../fixtures/ready-plan';

const codes = (issues: readonly PlanIssue[]) => issues.map((i) => i.code);

test('PLAN-2: a complete plan is ready with no warnings', () => {
  const r = validatePlan(readyPlan(GOOD_STEP));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.ready, true);
});

test('PLAN-2: aliases satisfy the required sections and extra sections are tolerated', () => {
  const r = validatePlan(
    '# T\n## Summary\nx\n## Scope\n- a\n## Steps\n' +
      GOOD_STEP +
      '\n## Validation\n- `npm test`\n## Risks\n- none\n## Assumptions\n- y',
  );
  assert.deepEqual(r.errors, []);
});

test('PLAN-2: each missing required section is reported by its canonical name', () => {
  const r = validatePlan('# T\n## Summary\nx\n');
  assert.deepEqual(
    r.errors.filter((e) => e.code === 'missing_section').map((e) => e.section),
    ['Implementation Steps', 'Test Cases and Validation', 'Assumptions and Defaults'],
  );
  assert.match(r.errors[0]?.message ?? '', /`## Implementation Steps` \(or `## Steps`\)/);
});

test('PLAN-3: step issues carry the step number, the section and the line', () => {
  const r = validatePlan(readyPlan(`${GOOD_STEP}\n2. Tidy up -> files: [src/b.ts]`));
  const issue = r.errors.find((e) => e.code === 'step_missing_verify');
  assert.deepEqual(
    { step: issue?.step, section: issue?.section, line: issue?.line },
    { step: 2, section: 'Implementation Steps', line: 13 },
  );
  assert.match(issue?.message ?? '', /^Step 2 has no `verify:`/);
});

test('PLAN-3: a symbol in inline code is a target even without `files:`', () => {
  const r = validatePlan(
    readyPlan('1. Make `Parser::advance` check bounds first -> verify: [cargo test parser::tests]'),
  );
  assert.deepEqual(r.errors, []);
});

test('PLAN-3: a target item with a path and a note is concrete; prose targets are vague', () => {
  assert.equal(
    validatePlan(
      readyPlan(
        '1. Save users -> files: [app/models.py (User.save), main.rs:42] -> verify: [pytest tests/test_models.py]',
      ),
    ).ready,
    true,
  );
  const vague = validatePlan(
    readyPlan('1. Save users -> files: [the model layer] -> verify: [pytest tests/test_models.py]'),
  );
  assert.deepEqual(codes(vague.errors), ['step_vague_target']);
});

test('PLAN-4: one issue per rejected verify item, naming the item', () => {
  const r = validatePlan(
    readyPlan('1. Update `parse` -> files: [src/a.ts] -> verify: [npm test, run checks, git diff --check]'),
  );
  assert.deepEqual(codes(r.errors), ['step_vague_verify', 'step_vague_verify']);
  assert.match(r.errors[0]?.message ?? '', /`run checks`/);
  assert.match(r.errors[1]?.message ?? '', /`git diff --check`/);
});

test('PLAN-4 [seed wins]: a Markdown-only step may use `skip Markdown lint if unavailable` as its sole check; a mixed step may not', () => {
  assert.deepEqual(
    validatePlan(
      readyPlan('1. Reword intro -> files: [README.md, docs/a.md] -> verify: [skip Markdown lint if unavailable]'),
    ).errors,
    [],
  );
  const mixed = validatePlan(
    readyPlan('1. Reword intro -> files: [README.md, src/a.ts] -> verify: [skip Markdown lint if unavailable]'),
  );
  assert.deepEqual(codes(mixed.errors), ['step_vague_verify']);
});

test('PLAN-4: a verify entry in a double-backtick span keeps its triple-backtick run and its comma', () => {
  const r = validatePlan(
    readyPlan("1. Count the fences -> files: [docs/guide.md] -> verify: [``rg -c '```' docs, README.md``]"),
  );
  assert.deepEqual(r.doc.steps[0]?.verify, ["rg -c '```' docs, README.md"]);
  assert.deepEqual(r.errors, []);
  assert.equal(r.ready, true);
});

test('PLAN-4: `;` chains in a verify item are a warning, not an error', () => {
  const r = validatePlan(readyPlan('1. Update `parse` -> files: [src/a.ts] -> verify: [npm test; npm run lint]'));
  assert.equal(r.ready, true);
  assert.deepEqual(codes(r.warnings), ['verify_chain']);
});

test('PLAN-5: a resolved statement does not block, an open question does', () => {
  assert.equal(validatePlan(readyPlan(GOOD_STEP)).ready, true);
  const open = validatePlan(readyPlan(GOOD_STEP, '\nOpen question: should `b.ts` change too?\n'));
  assert.deepEqual(codes(open.errors), ['open_decision']);
  assert.equal(open.errors[0]?.line, 20);
  assert.equal(validatePlan(readyPlan(GOOD_STEP, '\nOpen questions: none.\n')).ready, true);
});

test('PLAN-5: placeholders inside inline code are content, not placeholders', () => {
  const r = validatePlan(
    readyPlan(
      "1. Remove the stale markers -> files: [src/a.ts] -> verify: [rg -n 'TODO:' src/a.ts]",
      '- Comments like `TODO: later` and `[Action]` in code are fine.',
    ),
  );
  assert.deepEqual(r.errors, []);
});

test('PLAN-5: a Title Case bracket is a placeholder only where the template puts a slot', () => {
  assert.equal(validatePlan(readyPlan(GOOD_STEP, '- Press [Enter] in the wizard to accept the default.')).ready, true);
  const slot = validatePlan(readyPlan(GOOD_STEP, '- [Assumption Or Default]'));
  assert.deepEqual(codes(slot.errors), ['placeholder']);
  assert.match(slot.errors[0]?.message ?? '', /`\[Assumption Or Default\]`/);
});

test('PLAN-5: the template itself is rejected for its placeholders', () => {
  const r = validatePlan(readyPlan('1. [Action] -> files: [path/to/file.rs] -> verify: [check]'));
  assert.ok(r.errors.length >= 3);
  assert.deepEqual([...new Set(codes(r.errors))], ['placeholder']);
});

test('PLAN-6: inline-code and plain file references pass; links, link reference definitions and editor URIs are reported', () => {
  assert.equal(validatePlan(readyPlan(GOOD_STEP, '- See `src/main.rs:42` and src/main.rs:42.')).ready, true);
  const link = validatePlan(readyPlan(GOOD_STEP, '- See [main.rs:42](vscode-file://vscode-app/x/workbench.html)'));
  assert.deepEqual(codes(link.errors), ['link_reference']);
  const uri = validatePlan(readyPlan(GOOD_STEP, '- See `file:///Users/you/repo/src/main.rs#L42`'));
  assert.deepEqual(codes(uri.errors), ['link_reference']);
  // A link reference definition (`[x]: path`), alone, indented, or defining a reference used above.
  const extra = readyPlan(GOOD_STEP, '').split('\n').length;
  for (const [definition, line] of [
    ['[main]: src/main.rs', extra],
    ['  [x]: ./a.ts "title"', extra],
    ['- See [main].\n\n[main]: src/main.rs', extra + 2],
  ] as const) {
    const def = validatePlan(readyPlan(GOOD_STEP, definition));
    assert.deepEqual(
      def.errors.map((e) => [e.code, e.line]),
      [['link_reference', line]],
      definition,
    );
    assert.match(
      def.errors[0]?.message ?? '',
      /^Link reference definition at line \d+: write file references as plain text or inline code\.$/,
    );
  }
});

test('PLAN-7: a plan over ~1500 tokens gets an over_token_budget warning but stays ready', () => {
  const filler = Array.from(
    { length: 80 },
    (_, i) => `- Assumption ${i}: the module \`mod${i}\` keeps its current public behaviour unchanged.`,
  ).join('\n');
  const r = validatePlan(readyPlan(GOOD_STEP, filler));
  assert.ok(r.tokens > PLAN_TOKEN_BUDGET);
  assert.equal(r.ready, true);
  assert.deepEqual(codes(r.warnings), ['over_token_budget']);
  assert.match(r.warnings[0]?.message ?? '', new RegExp(`about ${r.tokens} tokens`));
});

test('file-formats: everything between the plan-tracker markers is ignored', () => {
  const r = validatePlan(
    readyPlan(
      GOOD_STEP,
      `${TRACKER_START}\n- [ ] TODO: [Action] see [x](file:///tmp/x)\nOpen question: what?\n${TRACKER_END}\n`,
    ),
  );
  assert.deepEqual(r.errors, []);
});

test('PLAN-2: warnings for a missing title, missing scope and out-of-order numbering', () => {
  const r = validatePlan(
    '## Summary\nx\n## Steps\n1. A `a()` -> verify: [npm test]\n3. B `b()` -> verify: [npm test]\n## Validation\n- `npm test`\n## Assumptions\n- y',
  );
  assert.equal(r.ready, true);
  assert.deepEqual(codes(r.warnings).sort(), ['no_scope', 'no_title', 'step_numbering']);
});

test('PLAN-8: every error message is specific: it names the rule target and a fix', () => {
  const r = validatePlan(
    '# T\n## Summary\n\n## Steps\n1. Fix it -> files: [stuff] -> verify: [tests pass]\n## Validation\n\n## Assumptions\n',
  );
  assert.deepEqual(codes(r.errors).sort(), [
    'empty_summary',
    'no_assumptions',
    'no_validation_items',
    'step_vague_target',
    'step_vague_verify',
  ]);
  for (const e of r.errors) assert.match(e.message, /:|add|name|state|list/);
  assert.match(r.errors.find((e) => e.code === 'step_vague_target')?.message ?? '', /`stuff`/);
});

test('PLAN-3 (issue 14): a target list that names one concrete path or symbol is enough; prose entries beside it are ignored', () => {
  assert.deepEqual(
    validatePlan(
      readyPlan(
        '1. Track last-seen time -> files: [src/session/store.ts, the request middleware chain] -> verify: [npm test]',
      ),
    ).errors,
    [],
  );
  const onlyProse = validatePlan(
    readyPlan(
      '1. Track last-seen time -> files: [the request middleware chain, all the handlers] -> verify: [npm test]',
    ),
  );
  assert.deepEqual(codes(onlyProse.errors), ['step_vague_target', 'step_vague_target']);
});

test('PLAN-3 (issue 14): a behaviour target names two behaviour words; generic targets stay rejected', () => {
  assert.deepEqual(
    validatePlan(
      readyPlan('1. Shorten the approval handoff -> files: [approval handoff latency] -> verify: [npm test]'),
    ).errors,
    [],
  );
  assert.deepEqual(
    codes(validatePlan(readyPlan('1. Tidy -> files: [the approval handoff] -> verify: [npm test]')).errors),
    ['step_vague_target'],
  );
  assert.deepEqual(codes(validatePlan(readyPlan('1. Tidy -> files: [file] -> verify: [npm test]')).errors), [
    'placeholder',
  ]);
});
