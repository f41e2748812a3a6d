/**
 * The validator's report as `vtplan validate` and the plan gates return it (ADD-2, PLAN-8): an
 * issue carries exactly the location fields it has, lines point into the text as given (also
 * past a preamble written with CRLF endings), and the human lines name the line only when known.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { planOfText, reportLines, reportPlan, validatePlan } from '../../../src/core/plan';

/** Not ready: two missing sections (no line), a bad step 2 (line 6); warnings without any location. */
const PLAN = [
  '## Summary',
  'x',
  '',
  '## Implementation Steps',
  '1. Fix `a` -> files: [src/a.ts] -> verify: [npm test] -> outcome: a is fixed',
  '2. Fix it -> verify: [run checks]',
].join('\n');

const withoutMessages = (issues: readonly { message: string }[]) => issues.map(({ message: _, ...rest }) => rest);

test('ADD-2, PLAN-8: report issues keep only the location fields they have; lines point into a tagged response past its preamble', () => {
  const response = `Intro line\n\n<proposed_plan>\n${PLAN}\n</proposed_plan>\nBye`;
  const report = reportPlan(response);
  assert.equal(report.ready, false);
  assert.deepEqual(withoutMessages(report.errors), [
    { code: 'missing_section', section: 'Test Cases and Validation' },
    { code: 'missing_section', section: 'Assumptions and Defaults' },
    { code: 'step_missing_target', step: 2, section: 'Implementation Steps', line: 9 },
    { code: 'step_vague_verify', step: 2, section: 'Implementation Steps', line: 9 },
  ]);
  assert.deepEqual(withoutMessages(report.warnings), [{ code: 'no_title' }, { code: 'no_scope' }]);
  const direct = validatePlan(PLAN);
  assert.deepEqual(
    report.errors.map((e) => e.message),
    direct.errors.map((e) => e.message),
  );
  assert.equal(response.split('\n')[8], '2. Fix it -> verify: [run checks]', 'line 9 of the response is step 2');
});

test('ADD-2 (bug fix): a tagged response with CRLF endings gets the same line numbers as with LF', () => {
  const response = `Intro line\r\n\r\n<proposed_plan>\r\n${PLAN.replace(/\n/g, '\r\n')}\r\n</proposed_plan>\r\n`;
  assert.deepEqual(planOfText(response), { plan: PLAN, lineOffset: 3 });
  assert.deepEqual(
    reportPlan(response).errors.map((e) => e.line),
    [undefined, undefined, 9, 9],
  );
});

test('ADD-2: only a tagged block is cut out of the text; an untagged plan or plain text is validated as given', () => {
  const untagged = `\n\n# T\n\n${PLAN}\n\n## Validation\n- x\n\n## Assumptions\n- y\n`;
  assert.deepEqual(planOfText(untagged), { plan: untagged, lineOffset: 0 });
  assert.deepEqual(planOfText('Just chatting.'), { plan: 'Just chatting.', lineOffset: 0 });
  assert.deepEqual(planOfText(`<proposed_plan>\n\n${PLAN}`), { plan: PLAN, lineOffset: 2 });
});

test('ADD-2: report steps carry an outcome only when the step states one', () => {
  assert.deepEqual(reportPlan(PLAN).steps, [
    { number: 1, action: 'Fix `a`', files: ['src/a.ts'], verify: ['npm test'], outcome: 'a is fixed' },
    { number: 2, action: 'Fix it', files: [], verify: ['run checks'] },
  ]);
});

test('ADD-2: the human report is `label:line: code: message`, `label: code: message` without a line, then the verdict', () => {
  const lines = reportLines(reportPlan(PLAN), 'p.md');
  const codesAndPlaces = lines.map((l) => l.replace(/^(p\.md(?::\d+)?: \w+): .*$/, '$1'));
  assert.deepEqual(codesAndPlaces, [
    'p.md: missing_section',
    'p.md: missing_section',
    'p.md:6: step_missing_target',
    'p.md:6: step_vague_verify',
    'p.md: no_title',
    'p.md: no_scope',
    'p.md: plan is not ready: 4 errors, 2 warnings',
  ]);
  assert.equal(lines[5], `p.md: no_scope: ${validatePlan(PLAN).warnings[1]?.message}`);
});
