/**
 * Edges of `<proposed_plan>` extraction (PLAN-1, PLAN-7, EVT-1) that the chunking properties in
 * extract.test.ts do not reach: texts of many KB, the parser's life cycle after `finish()`, CRLF
 * bodies, which untagged responses count as plans.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlanStreamParser, extractPlan } from '../../../src/core/plan';

const STEP = '1. Sort imports -> files: [src/a.ts] -> verify: [npx eslint src/a.ts]';

/** `n` characters of numbered lines, so a lost, repeated or reordered piece changes the text. */
function numberedText(prefix: string, n: number): string {
  let text = '';
  for (let i = 0; text.length < n; i++) text += `${prefix} line ${i}\n`;
  return text;
}

test('PLAN-1, EVT-1: visible text and a plan body of many KB come back whole, streamed or in one piece', () => {
  const visible = numberedText('prose', 30_000);
  const body = `# Big\n${numberedText('body', 30_000)}`;
  const response = `${visible}<proposed_plan>\n${body}</proposed_plan>`;

  const parser = new PlanStreamParser();
  let emitted = '';
  const deltas: string[] = [];
  for (let i = 0; i < response.length; i += 997) {
    emitted += parser.push(response.slice(i, i + 997));
    deltas.push(parser.takePlanDelta());
  }
  const streamed = parser.finish();
  assert.equal(emitted, visible);
  assert.equal(streamed.text, visible);
  assert.equal(deltas.join(''), `\n${body}`);
  assert.equal(streamed.plan, body.trim());

  const whole = extractPlan(response);
  assert.equal(whole.text, visible);
  assert.equal(whole.plan, body.trim());
});

test('PLAN-1: finish() is final: it returns the same result again, holds nothing back, and a later push() is refused', () => {
  const parser = new PlanStreamParser();
  parser.push('Plan:\n<proposed_plan>\n# T\n## Summary\nx');
  const first = parser.finish();
  assert.deepEqual(first, {
    plan: '# T\n## Summary\nx',
    text: 'Plan:\n',
    truncated: true,
    source: 'tagged',
    flushed: '',
  });
  assert.deepEqual(parser.finish(), first);
  assert.throws(() => parser.push('more'), { message: 'PlanStreamParser: push() after finish()' });

  const prose = new PlanStreamParser();
  prose.push('a < b and <prop');
  assert.equal(prose.heldBack, '<prop');
  assert.equal(prose.finish().flushed, '<prop');
  assert.equal(prose.heldBack, '', 'finish() released what was held back');
});

test('PLAN-1: a tag right after another tag is markup; one right after a backtick, even from an earlier delta, is prose', () => {
  const adjacent = extractPlan('<proposed_plan></proposed_plan><proposed_plan>\n# B\n</proposed_plan>');
  assert.deepEqual([adjacent.plan, adjacent.text, adjacent.truncated], ['# B', '', false]);

  const parser = new PlanStreamParser();
  assert.equal(parser.push('Write a `'), 'Write a `');
  assert.equal(parser.push('<proposed_plan>` block'), '<proposed_plan>` block');
  assert.equal(parser.finish().plan, null);

  const unquoted = new PlanStreamParser();
  assert.equal(unquoted.push('Plan:'), 'Plan:');
  assert.equal(unquoted.push('<proposed_plan>\n# T\n</proposed_plan>'), '');
  assert.equal(unquoted.finish().plan, '# T');
});

test('PLAN-1: a plan body written with CRLF endings is read with LF endings', () => {
  assert.equal(extractPlan('<proposed_plan>\r\n# T\r\n## Summary\r\nx\r\n</proposed_plan>').plan, '# T\n## Summary\nx');
});

test('PLAN-1: an untagged response is a plan with a Summary and a Steps heading; without the Summary section it is not', () => {
  const headed = `# Tidy imports\n\n## Summary\nSort imports.\n\n## Implementation Steps\n${STEP}\n`;
  assert.equal(extractPlan(headed).source, 'untagged');
  const noSummarySection = `I have no summary yet.\n\n## Implementation Steps\n${STEP}\n\n## Validation\n- x\n\n## Assumptions\n- y\n`;
  assert.equal(extractPlan(noSummarySection).source, null);
});

test('PLAN-1 (bug fix): an untagged plan whose Summary heading has emphasis inside the word is found, as the validator reads it', () => {
  for (const heading of ['## Sum**mary**', '## **Sum**mary', '## Sum__mary__']) {
    const text = `# Tidy imports\n\n${heading}\nSort imports.\n\n## Implementation Steps\n${STEP}\n`;
    assert.equal(extractPlan(text).source, 'untagged', heading);
  }
});

test('PLAN-1: a compact untagged plan (steps without a heading) needs both the Validation and the Assumptions section', () => {
  const compact = (extra: string) => `Summary: Sort imports.\n\n${STEP}\n\n${extra}`;
  assert.equal(extractPlan(compact('Validation: lint is clean.\nAssumptions: none.')).source, 'untagged');
  assert.equal(extractPlan(compact('Validation: lint is clean.')).source, null);
  assert.equal(extractPlan(compact('Assumptions: none.')).source, null);
});
