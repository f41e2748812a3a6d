// PLAN-2, PLAN-3: markdown ends lines at \n, \r\n and \r only, so a plan line may hold U+2028 or
// U+2029 (a model that copies text from a web page writes them). Every pattern that reads a line
// with `.` must take them as text: without the `s` flag `.` stops at them and the step's verify
// line, a label's value or an emphasised action is silently not recognised.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validatePlan } from '../../../src/core/plan';
import { sectionLabelOf } from '../../../src/core/plan/sections';
import { labeledStepLine, plainAction } from '../../../src/core/plan/step-line';

const SEPARATORS = [
  ['U+2028', '\u2028'],
  ['U+2029', '\u2029'],
] as const;

for (const [name, sep] of SEPARATORS) {
  test(`PLAN-3: a labeled verify line holding ${name} is a verify line with the whole value`, () => {
    assert.deepEqual(labeledStepLine(`- Verify: npm test${sep}-- parser`), {
      field: 'verify',
      value: `npm test${sep}-- parser`,
    });
  });

  test(`PLAN-3: an action wrapped in emphasis and holding ${name} loses only the emphasis`, () => {
    assert.equal(plainAction(`**Add the${sep}parser**`), `Add the${sep}parser`);
  });

  test(`PLAN-2: a label line holding ${name} is its section with the whole value`, () => {
    assert.deepEqual(sectionLabelOf(`Summary: Retry${sep}uploads.`), {
      kind: 'value',
      key: 'summary',
      name: 'Summary',
      value: `Retry${sep}uploads.`,
    });
    const emphasised = sectionLabelOf(`**Summary: Retry${sep}uploads.**`);
    assert.equal(emphasised?.kind === 'value' ? emphasised.value : null, `Retry${sep}uploads.`);
  });

  test(`PLAN-2, PLAN-3: a plan whose summary label and verify line hold ${name} is ready`, () => {
    const plan = [
      '# Retries',
      '',
      `Summary: Retry${sep}uploads.`,
      '',
      '## Implementation Steps',
      '1. Add the retry helper',
      '   - Files: src/http/retry.ts',
      `   - Verify: npm test${sep}-- retry`,
      '',
      '## Test Cases and Validation',
      '- npm test',
      '',
      '## Assumptions and Defaults',
      '- none',
      '',
    ].join('\n');
    const report = validatePlan(plan);
    assert.deepEqual(
      report.errors.map((e) => e.message),
      [],
    );
    assert.equal(report.ready, true);
  });

  test(`PLAN-5: an open decision holding ${name} is still reported, after a marker or as a list item`, () => {
    const withDecision = (lines: string[]): string =>
      [
        '# Retries',
        '',
        '## Summary',
        'Retry uploads.',
        '',
        ...lines,
        '',
        '## Implementation Steps',
        '1. Add the retry helper -> files: [src/http/retry.ts] -> verify: [npm test]',
        '',
        '## Test Cases and Validation',
        '- npm test',
        '',
        '## Assumptions and Defaults',
        '- none',
        '',
      ].join('\n');
    for (const lines of [
      [`Open questions: which backoff?${sep}Linear or exponential`],
      ['Open questions:', `- which backoff?${sep}Linear or exponential`],
    ]) {
      const report = validatePlan(withDecision(lines));
      assert.deepEqual(
        report.errors.map((e) => e.code),
        ['open_decision'],
        lines.join(' / '),
      );
    }
  });
}
