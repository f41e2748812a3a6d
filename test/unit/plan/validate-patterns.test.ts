// Issue 19 (mutation survivors of validate.ts): the validator's patterns and word lists, one table
// row per alternative or quantifier that decides a verdict (PLAN-2 … PLAN-6).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validatePlan, type PlanIssue } from '../../../src/core/plan';
import { GOOD_STEP, readyPlan } from '../../fixtures/ready-plan';

const codes = (issues: readonly PlanIssue[]) => issues.map((i) => i.code);

test('PLAN-3: an action names a target by inline code, symbol shape or path-like word', () => {
  for (const [action, named] of [
    ['Rename `foo` everywhere', true],
    ['Call Parser::advance first', true],
    ['Call flush() first', true],
    ['Tidy parseFoo handling', true],
    ['Tidy getX', true],
    ['Tidy ParseFoo', true],
    ['Tidy ParseX', true],
    ['Tidy max_len', true],
    ['Tidy router#handle', true],
    ['Tidy src/a.ts imports', true],
    ['Tidy main.rs imports', true],
    ['Tidy main.rs, then lint', true],
    ['Tidy the imports (see main.rs).', true],
    ['Tidy the imports (main.rs)', true],
    ['Fix the parser in "main.rs"', true],
    ["Fix the parser in 'main.rs'.", true],
    ['Tidy the imports', false],
  ] as const) {
    const r = validatePlan(readyPlan(`1. ${action} -> verify: [npm test]`));
    assert.deepEqual(codes(r.errors), named ? [] : ['step_missing_target'], action);
  }
});

test('PLAN-3: a declared target is concrete as a symbol, a path-like word or two behaviour words', () => {
  for (const [item, concrete] of [
    ['Parser::advance', true],
    ['app.user.persistence', true],
    ['settings.persistence()', true],
    ['app.user.persistence layer', false],
    ['the app.user.persistence', false],
    ['src/a.ts parsing helpers', true],
    ['helpers (main.rs)', true],
    ['notes (see main.rs);', true],
    ["see ('main.rs')", true],
    ['the parser in main.rs.', true],
    ['.', true],
    ['..', true],
    ['approval handoff', true],
    ['startup latency.', true],
    ['approval handoff schema', true],
    ['model layer', false],
    ['the approval handoff', false],
  ] as const) {
    const r = validatePlan(readyPlan(`1. Tidy -> files: [${item}] -> verify: [npm test]`));
    assert.deepEqual(codes(r.errors), concrete ? [] : ['step_vague_target'], item);
  }
});

test('PLAN-3: every behaviour word counts toward a behaviour target', () => {
  const words =
    'agent approval artifact budget cache command configuration confirmation context error errors event events execution fallback flow handoff handler input latency lifecycle logging memory output parser parsing performance permission persistence plan planning policy prompt recovery request response retry retries routing runtime schema session startup state stream streaming timeout tracker validation workflow';
  for (const word of words.split(' ')) {
    const item = word === 'flow' ? 'flow handler' : `${word} flow`;
    const r = validatePlan(readyPlan(`1. Tidy -> files: [${item}] -> verify: [npm test]`));
    assert.deepEqual(r.errors, [], item);
  }
});

test('PLAN-4: `skip Markdown lint if unavailable` is accepted only when every file target is Markdown, location suffix stripped', () => {
  for (const [file, markdown] of [
    ['README.md', true],
    ['docs/a.mdx', true],
    ['docs/a.markdown', true],
    ['docs/a.md#42', true],
    ['docs/a.md#L10', true],
    ['docs/a.md#L10-25', true],
    ['docs/a.md#L1-20', true],
    ['docs/a.md:42', true],
    ['docs/a.md:12:34', true],
    ['docs/a.md:Intro', true],
    ['.markdownlint.json', false],
    ['docs/a.md#1x', false],
    ['docs/a.md:4x', false],
  ] as const) {
    const r = validatePlan(
      readyPlan(`1. Reword intro -> files: [${file}] -> verify: [skip Markdown lint if unavailable]`),
    );
    assert.deepEqual(codes(r.errors), markdown ? [] : ['step_vague_verify'], file);
  }
  for (const step of [
    '1. Reword `intro` -> verify: [skip Markdown lint if unavailable]',
    '1. Reword intro -> files: [README.md] -> symbols: [Intro] -> verify: [skip Markdown lint if unavailable]',
  ]) {
    assert.deepEqual(codes(validatePlan(readyPlan(step)).errors), ['step_vague_verify'], step);
  }
});

test('PLAN-4, PLAN-5: a verify item in angle brackets is a placeholder only as a whole', () => {
  for (const [item, expected] of [
    ['npm test <suite>', []],
    ['<your check>', ['placeholder']],
    ['<x>', ['placeholder']],
    ['<script> --watch', []],
  ] as const) {
    const r = validatePlan(readyPlan(`1. Update \`parse\` -> files: [src/a.ts] -> verify: [${item}]`));
    assert.deepEqual(codes(r.errors), expected, item);
  }
});

/** The placeholder tokens reported for each line of `extra`, as `line: token`. */
function placeholders(extra: string): string[] {
  return validatePlan(readyPlan(GOOD_STEP, extra))
    .errors.filter((e) => e.code === 'placeholder')
    .map((e) => `${(e.line ?? 0) - 18}: ${/`([^`]+)`/.exec(e.message)?.[1]}`);
}

test('PLAN-5: a Title Case bracket is a placeholder where the template puts a slot', () => {
  for (const [extra, expected] of [
    ['- [Rollout Plan]', ['1: [Rollout Plan]']],
    ['- [Rollout]', ['1: [Rollout]']],
    ['- [One Two Three Four]', ['1: [One Two Three Four]']],
    ['- [One Two Three Four Five]', []],
    ['[Rollout Plan]', ['1: [Rollout Plan]']],
    ['\n## [Rollout Plan]', ['2: [Rollout Plan]']],
    ['- Parent\n  - [Rollout Plan]', ['2: [Rollout Plan]']],
    ['12. [Rollout Plan]', ['1: [Rollout Plan]']],
    ['1. [Rollout Plan]', ['1: [Rollout Plan]']],
    ['Step\t\t2: [Rollout Plan]', ['1: [Rollout Plan]']],
    ['Step\t12: [Rollout Plan]', ['1: [Rollout Plan]']],
    ['Owner: [Rollout Plan]', ['1: [Rollout Plan]']],
    ['- [Rollout Fix]', ['1: [Rollout Fix]']],
    ['- [Xenial Upgrade]', ['1: [Xenial Upgrade]']],
    ['- Press [Enter] in the wizard.', []],
    ['- [my Rollout Plan]', []],
    ['- [Rollout plan]', []],
    ['Files: [Rollout Plan]', []],
    ['- [x] done\n- [X] done\n- [ ] open', []],
  ] as const) {
    assert.deepEqual(placeholders(extra), expected, extra);
  }
});

test('PLAN-5: each template word in brackets is a placeholder, case and padding aside', () => {
  const words = [
    'action',
    'check',
    'command',
    'path',
    'file',
    'title',
    'task title',
    'description',
    'step',
    'summary',
    'todo',
    'tbd',
    'placeholder',
    'symbol',
    'target',
    'outcome',
    '...',
    '…',
    'assumption',
  ];
  for (const word of words) assert.deepEqual(placeholders(`- Keep [${word}] here.`), [`1: [${word}]`], word);
  assert.deepEqual(placeholders('- Keep [ todo ] and [Description] here.'), ['1: [todo]', '1: [Description]']);
  assert.deepEqual(placeholders('- Goal: [describe the observable end state]'), [
    '1: [describe the observable end state]',
  ]);
  // `if any` is also a template phrase; as a step target it is a placeholder, not a vague target.
  const ifAny = validatePlan(readyPlan('1. Update `parse` -> files: [if any] -> verify: [npm test]'));
  assert.deepEqual(codes(ifAny.errors), ['placeholder']);
});

test('PLAN-5: a metadata list is a placeholder when every item is one; the label must end right before it', () => {
  for (const [extra, expected] of [
    ['- Touch files: [path, file]', ['1: [path, file]']],
    ['- Touch file: [path, file]', ['1: [path, file]']],
    ['- Touch symbol: [path, file]', ['1: [path, file]']],
    ['- Touch target: [path, file]', ['1: [path, file]']],
    ['- Touch files : [path, file]', ['1: [path, file]']],
    ['files: [path, file]', ['1: [path, file]']],
    ['- Touch files: [path, src/a.ts]', []],
    ['- Verify: ok, see [path, file]', []],
  ] as const) {
    assert.deepEqual(placeholders(extra), expected, extra);
  }
});

test('PLAN-5: angle-bracket template words and path/to/ are placeholders, reported once', () => {
  for (const [extra, expected] of [
    ['- Run <command> first.', ['1: <command>']],
    ['- Use <Path> here.', ['1: <Path>']],
    ['- Wrap it in a <div> element.', []],
    ['- Touch files: [path/to/x.ts]', ['1: [path/to/x.ts]']],
    ['- Edit [path/to/file] first.', ['1: path/to/…']],
    ['- Edit `path/to/file` first.', ['1: path/to/…']],
  ] as const) {
    assert.deepEqual(placeholders(extra), expected, extra);
  }
});

/** The lines (relative to `extra`) with an open_decision error. */
function openLines(extra: string): number[] {
  return validatePlan(readyPlan(GOOD_STEP, extra))
    .errors.filter((e) => e.code === 'open_decision')
    .map((e) => (e.line ?? 0) - 18);
}

test('PLAN-5: open-decision markers in their spellings, inline, with a resolved or an open answer', () => {
  for (const [extra, expected] of [
    ['Keep the open questions: short.', []],
    ['12. Open question: which flag?', [1]],
    ['1.  Open question: which flag?', [1]],
    ['1. Open question: which flag?', [1]],
    ['Next  open decision: ask about b.ts', [1]],
    ['Next open  decision: ask about b.ts', [1]],
    ['Open  question: which flag?', [1]],
    ['Open  decision: which flag?', [1]],
    ['Open decision: which flag?', [1]],
    ['Unresolved  question: which flag?', [1]],
    ['Unresolved question: which flag?', [1]],
    ['**Open questions:** which flag?', [1]],
    ['Open questions : none', []],
    ['Open questions:  **none**', []],
    ['Open questions: - ask about b.ts', [1]],
    ['Open questions: --', []],
    ['Open questions: —', []],
    ['Open questions: —  ', []],
    ['Open questions: — ask the user', [1]],
    ['Open questions: All resolved.', []],
    ['Open questions: All  resolved.', []],
    ['Open questions: n/a', []],
    ['Open questions: Decide whether b.ts is resolved by a.ts', [1]],
    ['Open questions: there are no remaining ones', []],
  ] as const) {
    assert.deepEqual(openLines(extra), expected, extra);
  }
});

test('PLAN-5: an open-decision marker without an answer reports each open list item after it', () => {
  for (const [extra, expected] of [
    ['Open questions:\n- Keep b.ts?', [2]],
    ['Open questions:\n\n- Keep b.ts?', [3]],
    ['Open questions:\n   \n- Keep b.ts?', [3]],
    ['Open questions:\n  - Keep b.ts?', [2]],
    ['Open questions:\n10) Keep b.ts?', [2]],
    ['Open questions:\n1. Keep b.ts?\n2. None.\n3. Drop c.ts?', [2, 4]],
    ['- Keep defaults.\nOpen questions:\n- Keep b.ts?', [3]],
    ['Open questions:\nDecided in review - see notes', []],
    ['Open questions:\n- None.', []],
    ['Open questions:\n- --  ', []],
    ['Open questions:\n- There are no remaining questions', []],
  ] as const) {
    assert.deepEqual(openLines(extra), expected, extra);
  }
});

/** What each link_reference error quotes (or its kind when it quotes nothing), per line of `extra`. */
function links(extra: string): string[] {
  return validatePlan(readyPlan(GOOD_STEP, extra))
    .errors.filter((e) => e.code === 'link_reference')
    .map((e) => `${(e.line ?? 0) - 18}: ${/^[^`]*`([^`]+)`/.exec(e.message)?.[1] ?? e.message.split(' at ')[0]}`);
}

test('PLAN-6: links, link reference definitions and editor URIs, quoted as found', () => {
  for (const [extra, expected] of [
    ['- See [x]()) now.', ['1: [x]()']],
    ['- See [y](a b) now.', ['1: [y](a b)']],
    ['- Note [draft]: see docs/a.md', []],
    ['[main]:src/main.rs', ['1: Link reference definition']],
    ['[x]: file:///tmp/x', ['1: Link reference definition']],
    ['- Open vscode://file/src/a.ts:3 now.', ['1: vscode://file/src/a.ts:3']],
    ['- Open <vscode-file://vscode-app/x> now.', ['1: vscode-file://vscode-app/x']],
  ] as const) {
    assert.deepEqual(links(extra), expected, extra);
  }
});

test('PLAN-2: a summary of only blank space, an HTML comment or a sub-heading is empty', () => {
  for (const [summary, empty] of [
    ['   ', true],
    ['<!-- state the goal -->', true],
    ['### Details', true],
    ['Port the C# client.', false],
    ['#123 crashes on save: fix the retry loop.', false],
  ] as const) {
    const r = validatePlan(readyPlan(GOOD_STEP).replace('Change the thing in src/a.ts.', summary));
    assert.deepEqual(codes(r.errors), empty ? ['empty_summary'] : [], summary);
  }
});
