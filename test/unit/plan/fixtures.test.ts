import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validatePlan, PLAN_ERROR_CODES } from '../../../src/core/plan';

const root = join(import.meta.dirname, '../../fixtures/plans');
const valid = readdirSync(join(root, 'valid'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const invalid = readdirSync(join(root, 'invalid'))
  .filter((f) => f.endsWith('.md'))
  .sort();

test('PLAN-2..PLAN-6: fixture sets cover TypeScript, Python, Rust, Go and docs-only plans and every error code', () => {
  for (const eco of ['typescript', 'python', 'rust', 'go', 'docs-only']) {
    assert.ok(
      valid.some((f) => f.startsWith(eco)),
      `a valid ${eco} fixture`,
    );
  }
  const covered = new Set(invalid.map((f) => f.split('--')[0]));
  assert.deepEqual(
    [...PLAN_ERROR_CODES].filter((c) => !covered.has(c)),
    [],
  );
});

for (const file of valid) {
  test(`PLAN-2..PLAN-6: realistic plan ${file} is ready`, () => {
    const report = validatePlan(readFileSync(join(root, 'valid', file), 'utf8'));
    assert.deepEqual(report.errors, []);
    assert.equal(report.ready, true);
    assert.ok(report.doc.steps.length >= 3);
  });
}

for (const file of invalid) {
  // The expected error code is recorded in the file name: `<code>--<what is wrong>.md`.
  const expected = file.split('--')[0] as string;
  test(`PLAN-2..PLAN-6: near-miss ${file} fails with exactly ${expected}`, () => {
    const report = validatePlan(readFileSync(join(root, 'invalid', file), 'utf8'));
    assert.equal(report.ready, false);
    assert.deepEqual([...new Set(report.errors.map((e) => e.code))], [expected]);
    for (const e of report.errors) {
      assert.ok(e.message.length > 20, 'a specific message');
      if (e.code !== 'missing_section') assert.equal(typeof e.line, 'number', `${e.code} carries its line`);
      if (e.code.startsWith('step_')) assert.equal(typeof e.step, 'number', 'step issues carry the step number');
    }
  });
}
