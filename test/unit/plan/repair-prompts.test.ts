/**
 * The exact text of the repair and condense requests (PLAN-7, PLAN-8, SYN-4): what the model is
 * told is the behaviour, so each request is pinned line by line, and every way a defect can be
 * located (step or section, with or without a line, or nowhere) is read back from it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  buildCondenseRequest,
  buildRepairRequest,
  describeIssue,
  validatePlan,
  type PlanIssue,
} from '../../../src/core/plan';

const FORMAT_RULES = [
  'Format rules:',
  '- Required sections: `## Summary`, `## Implementation Steps`, `## Test Cases and Validation`, `## Assumptions and Defaults`.',
  "- Every step on one line: `1. Action -> files: [path/a.ts, path/b.ts] -> verify: [npm test, rg -n 'symbol' src]`",
  "- `verify:` items are comma-separated; each is a concrete command (`cargo test -p crate`, `rg -n 'x' src/a.rs`) or an observable check; never `run checks` or `git diff --check`.",
  '- File references are plain text or inline code, never markdown links or `file://` / `vscode-file://` URIs.',
  '- No placeholders (`[Action]`, `TODO:`, `TBD`); resolve open questions or write `No remaining scope decisions`.',
  '- Re-emit the complete corrected plan in one <proposed_plan>…</proposed_plan> block, under ~1500 tokens.',
];

/** A report with hand-picked issues: the request reads only `errors` and `warnings`. */
function reportWith(errors: PlanIssue[], warnings: PlanIssue[]): ReturnType<typeof validatePlan> {
  return { ...validatePlan('x'), errors, warnings };
}

test('PLAN-8: a defect is located by step, else by section, plus its line; an issue with no location has no brackets', () => {
  const message = 'm';
  assert.equal(describeIssue({ code: 'c', message, step: 2, section: 'Steps', line: 9 }), '[step 2, line 9] c: m');
  assert.equal(describeIssue({ code: 'c', message, section: 'Summary', line: 3 }), '[section Summary, line 3] c: m');
  assert.equal(describeIssue({ code: 'c', message, section: 'Summary' }), '[section Summary] c: m');
  assert.equal(describeIssue({ code: 'c', message, step: 4 }), '[step 4] c: m');
  assert.equal(describeIssue({ code: 'c', message, line: 7 }), '[line 7] c: m');
  assert.equal(describeIssue({ code: 'c', message }), 'c: m');
});

test('PLAN-8, SYN-4: the repair request is the defects, the warnings, the format rules and the draft quoted in a fence', () => {
  const report = reportWith(
    [
      { code: 'step_vague_verify', message: 'Step 1 verify item rejected: `run checks`', step: 1, line: 7 },
      { code: 'missing_section', message: 'Missing section: Assumptions and Defaults' },
    ],
    [{ code: 'no_title', message: 'The plan has no title', line: 1 }],
  );
  const draft = '# T\n```sh\nnpm test\n```';
  assert.equal(
    buildRepairRequest(draft, report, { attempt: 2, maxAttempts: 2 }),
    [
      'Your plan draft was not accepted (repair 2 of 2). Fix exactly these defects in the draft below and keep everything else that is already correct:',
      '',
      '- [step 1, line 7] step_vague_verify: Step 1 verify item rejected: `run checks`',
      '- missing_section: Missing section: Assumptions and Defaults',
      '',
      'Also consider (warnings, not blocking):',
      '- [line 1] no_title: The plan has no title',
      '',
      ...FORMAT_RULES,
      '',
      'Retained draft:',
      '```markdown',
      '# T',
      '``\u200b`sh',
      'npm test',
      '``\u200b`',
      '```',
    ].join('\n'),
  );
});

test('SYN-4: the repair counter appears only when both the attempt and the allowance are known; no warnings, no warnings block', () => {
  const report = reportWith([{ code: 'no_steps', message: 'No steps', section: 'Implementation Steps' }], []);
  const header = (request: string) => request.split('\n')[0];
  const plain =
    'Your plan draft was not accepted. Fix exactly these defects in the draft below and keep everything else that is already correct:';
  assert.equal(header(buildRepairRequest('d', report, { attempt: 1 })), plain);
  assert.equal(header(buildRepairRequest('d', report, { maxAttempts: 2 })), plain);
  assert.equal(
    buildRepairRequest('d', report),
    [
      plain,
      '',
      '- [section Implementation Steps] no_steps: No steps',
      '',
      ...FORMAT_RULES,
      '',
      'Retained draft:',
      '```markdown',
      'd',
      '```',
    ].join('\n'),
  );
});

test('PLAN-7: the condense request restates the step format and budget and quotes the partial draft in a fence it cannot close', () => {
  assert.equal(
    buildCondenseRequest('# Big\n```\n1. First'),
    [
      'Your plan was cut off at the output limit before `</proposed_plan>`. Re-emit the complete plan, condensed to well under ~1500 tokens:',
      '- keep every decision and step of the draft below; shorten prose, prefer `file:symbol` references;',
      "- one line per step: `1. Action -> files: [path/a.ts, path/b.ts] -> verify: [npm test, rg -n 'symbol' src]`;",
      '- the whole plan in one <proposed_plan>…</proposed_plan> block, closing tag included.',
      '',
      'Truncated draft:',
      '```markdown',
      '# Big',
      '``\u200b`',
      '1. First',
      '```',
    ].join('\n'),
  );
});
