import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildCondenseRequest,
  buildRepairRequest,
  buildSynopsis,
  validatePlan,
  CANONICAL_STEP_FORMAT,
  extractPlan,
} from '../../../src/core/plan';

const fixtures = join(import.meta.dirname, '../../fixtures/plans');

test('PLAN-8: the repair request names every defect with its step/section and line, and quotes the retained draft', () => {
  const draft = readFileSync(join(fixtures, 'invalid/placeholder--template-step.md'), 'utf8').replace(
    '[cargo test parser::tests::single_byte',
    '[run checks',
  );
  const report = validatePlan(draft);
  const request = buildRepairRequest(draft, report, { attempt: 1, maxAttempts: 2 });
  assert.match(request, /not accepted \(repair 1 of 2\)/);
  for (const e of report.errors) {
    assert.ok(request.includes(`${e.code}: ${e.message}`), `mentions ${e.code}`);
  }
  assert.match(request, /\[step 2, line 18\] step_vague_verify: Step 2 verify item rejected: `run checks`/);
  assert.ok(request.includes(CANONICAL_STEP_FORMAT));
  assert.ok(request.includes('Retained draft:'));
  assert.ok(
    request.includes('1. [Action] -> files: [path/to/file.rs] -> verify: [check]'),
    'the draft itself is quoted',
  );
  assert.match(request, /<proposed_plan>…<\/proposed_plan>/);
});

test('PLAN-8: a section-level defect is located by its section', () => {
  const report = validatePlan(
    '# T\n## Summary\n\n## Steps\n1. A `a()` -> verify: [npm test]\n## Validation\n- `npm test`\n## Assumptions\n- x',
  );
  const request = buildRepairRequest('draft', report);
  assert.match(request, /- \[section Summary, line 2\] empty_summary: /);
  assert.match(request, /not accepted\. Fix exactly/);
});

test('PLAN-8: a fenced draft cannot break out of the quoting fence', () => {
  const report = validatePlan('x');
  const request = buildRepairRequest('before\n```\ninjected\n```', report);
  assert.equal(request.split('\n').filter((l) => l === '```').length, 1);
});

test('GATE-1: the synopsis keeps title, summary and full step texts, bounded with an overflow row', () => {
  const steps = Array.from(
    { length: 11 },
    (_, i) =>
      `${i + 1}. Step number ${i + 1} with a long description that the gate wraps rather than clips -> files: [src/m${i}.ts] -> verify: [npm test]`,
  ).join('\n');
  const text = `# Big plan\n\n## Summary\nFirst line.\nSecond line.\n\n## Implementation Steps\n${steps}\n`;
  const s = buildSynopsis(text, 8);
  assert.equal(s.title, 'Big plan');
  assert.equal(s.summary, 'First line. Second line.');
  assert.equal(s.steps.length, 8);
  assert.equal(s.steps[7]?.text, 'Step number 8 with a long description that the gate wraps rather than clips');
  assert.equal(s.hiddenSteps, 3);
  assert.equal(s.overflowRow, '… and 3 more plan steps');
  assert.equal(s.fullText, text);
  assert.equal(buildSynopsis(text, 20).overflowRow, null);
});

test('GATE-1: a synopsis of a parsed realistic plan', () => {
  const plan = extractPlan(readFileSync(join(fixtures, 'valid/go-http-timeout.md'), 'utf8')).plan ?? '';
  const s = buildSynopsis(plan);
  assert.equal(s.title, 'Configurable upstream timeout for the proxy');
  assert.deepEqual(
    s.steps.map((x) => x.number),
    [1, 2, 3, 4],
  );
  assert.equal(s.overflowRow, null);
});

test('PLAN-7: the condense retry for a truncated plan quotes the partial draft and restates the budget', () => {
  const partial =
    extractPlan('<proposed_plan>\n# Big\n## Summary\nLong text\n## Implementation Steps\n1. First -> files: [a.ts]')
      .plan ?? '';
  const request = buildCondenseRequest(partial);
  assert.match(request, /cut off at the output limit/);
  assert.match(request, /~1500 tokens/);
  assert.ok(request.includes('1. First -> files: [a.ts]'));
  assert.ok(request.includes(CANONICAL_STEP_FORMAT));
});
