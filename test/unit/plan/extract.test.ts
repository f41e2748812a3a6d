import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { PlanStreamParser, extractPlan, validatePlan } from '../../../src/core/plan';

const PLAN = `# Tidy imports

## Summary
Sort imports in src/a.ts.

## Implementation Steps
1. Sort imports -> files: [src/a.ts] -> verify: [npx eslint src/a.ts]

## Validation
- \`npx eslint src\`

## Assumptions
- No behaviour change.`;

function streamIn(
  text: string,
  sizes: readonly number[],
): { emitted: string; plan: string | null; text: string; truncated: boolean } {
  const parser = new PlanStreamParser();
  let emitted = '';
  let i = 0;
  let k = 0;
  while (i < text.length) {
    const n = Math.max(1, sizes[k++ % Math.max(1, sizes.length)] ?? 1);
    emitted += parser.push(text.slice(i, i + n));
    i += n;
  }
  const r = parser.finish();
  emitted += r.flushed;
  return { emitted, plan: r.plan, text: r.text, truncated: r.truncated };
}

test('PLAN-1: markup is removed from the visible text and the body is kept', () => {
  const r = extractPlan(`Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>\nReady when you are.`);
  assert.equal(r.plan, PLAN);
  assert.equal(r.text, 'Here is the plan.\n\nReady when you are.');
  assert.equal(r.truncated, false);
  assert.equal(r.source, 'tagged');
});

test('PLAN-1: a tag split across deltas (`<propo` + `sed_plan>`) is still recognised and never shown', () => {
  const parser = new PlanStreamParser();
  const shown = [
    parser.push('Intro <propo'),
    parser.push('sed_plan>\n# T\n## Summary\nx\n</propos'),
    parser.push('ed_plan> done'),
  ];
  assert.deepEqual(shown, ['Intro ', '', ' done']);
  const r = parser.finish();
  assert.equal(r.plan, '# T\n## Summary\nx');
  assert.equal(r.text, 'Intro  done');
});

test('EVT-1: plan-body deltas are available while streaming and add up to the plan', () => {
  const parser = new PlanStreamParser();
  const deltas: string[] = [];
  for (const chunk of ['Intro <proposed_', 'plan>\n# T\n## Sum', 'mary\nx\n</propo', 'sed_plan> tail']) {
    parser.push(chunk);
    deltas.push(parser.takePlanDelta());
  }
  assert.deepEqual(deltas, ['', '\n# T\n## Sum', 'mary\nx\n', '']);
  assert.equal(parser.finish().plan, deltas.join('').trim());
});

test('PLAN-1: text that only looks like the start of a tag is released at the end', () => {
  const parser = new PlanStreamParser();
  assert.equal(parser.push('a < b and <prop'), 'a < b and ');
  assert.equal(parser.heldBack, '<prop');
  const r = parser.finish();
  assert.equal(r.flushed, '<prop');
  assert.equal(r.text, 'a < b and <prop');
  assert.equal(r.plan, null);
});

test('PLAN-1: a tag quoted in backticks is prose, not markup', () => {
  const r = extractPlan('I will emit a `<proposed_plan>` block when ready.');
  assert.equal(r.plan, null);
  assert.equal(r.text, 'I will emit a `<proposed_plan>` block when ready.');
});

test('PLAN-1: with several blocks the last is the plan and none stays visible', () => {
  const r = extractPlan(
    '<proposed_plan>\ndraft one\n</proposed_plan>\nrevised:\n<proposed_plan>\ndraft two\n</proposed_plan>',
  );
  assert.equal(r.plan, 'draft two');
  assert.equal(r.text, '\nrevised:\n');
});

test('PLAN-1: a stray closing tag outside a block is removed from the visible text', () => {
  const r = extractPlan('Done.</proposed_plan> Bye');
  assert.equal(r.text, 'Done. Bye');
  assert.equal(r.plan, null);
});

test('PLAN-7: an unterminated block takes the rest of the response and is flagged truncated', () => {
  const r = extractPlan(`Plan:\n<proposed_plan>\n${PLAN.slice(0, 80)}`);
  assert.equal(r.truncated, true);
  assert.equal(r.plan, PLAN.slice(0, 80).trim());
  assert.equal(r.text, 'Plan:\n');
});

test('PLAN-1: an untagged complete plan is extracted as a draft and validates', () => {
  const r = extractPlan(PLAN);
  assert.equal(r.source, 'untagged');
  assert.equal(r.plan, PLAN);
  assert.equal(validatePlan(r.plan ?? '').ready, true);
  assert.equal(extractPlan('Just chatting, no plan here.').plan, null);
});

const fragments = fc.constantFrom(
  '<proposed_plan>',
  '</proposed_plan>',
  '<propo',
  'sed_plan>',
  '</propos',
  '`',
  '<',
  '>',
  '\n',
  '# Title\n',
  '## Summary\n',
  '## Implementation Steps\n',
  'text, more',
  ' ',
);
const inputs = fc.oneof(
  fc.string(),
  fc.array(fc.oneof(fragments, fc.string({ maxLength: 4 })), { maxLength: 40 }).map((a) => a.join('')),
);

test('PLAN-1 (property): every chunking of any input yields the same plan, text and emitted stream', () => {
  fc.assert(
    fc.property(inputs, fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 10 }), (text, sizes) => {
      const whole = extractPlan(text);
      const chunked = streamIn(text, sizes);
      assert.equal(chunked.plan, whole.plan);
      assert.equal(chunked.text, whole.text);
      assert.equal(chunked.truncated, whole.truncated);
      assert.equal(chunked.emitted, whole.text, 'what push() and finish() release is exactly the visible text');
    }),
    { numRuns: 2000 },
  );
});

/**
 * A whole-string reference model of the extraction rules: the earliest tag wins, a tag right
 * after a backtick is content, outside a block a stray closing tag is dropped, the last block is
 * the plan, an unclosed block runs to the end.
 */
function reference(text: string): { plan: string | null; text: string; truncated: boolean } {
  const OPEN = '<proposed_plan>';
  const CLOSE = '</proposed_plan>';
  let visible = '';
  let body = '';
  let inside = false;
  let last: string | null = null;
  let truncated = false;
  let i = 0;
  let from = 0;
  while (i <= text.length) {
    const candidates = inside ? [CLOSE] : [OPEN, CLOSE];
    const hits = candidates.map((t) => ({ t, at: text.indexOf(t, from) })).filter((h) => h.at !== -1);
    const hit = hits.sort((a, b) => a.at - b.at)[0];
    if (!hit) {
      if (inside) {
        last = body + text.slice(i);
        truncated = true;
      } else {
        visible += text.slice(i);
      }
      break;
    }
    if (hit.at > 0 && text[hit.at - 1] === '`') {
      from = hit.at + hit.t.length;
      continue;
    }
    if (inside) body += text.slice(i, hit.at);
    else visible += text.slice(i, hit.at);
    if (hit.t === OPEN) {
      inside = true;
      body = '';
    } else if (inside) {
      last = body;
      inside = false;
    }
    i = from = hit.at + hit.t.length;
  }
  return { plan: last === null ? null : last.trim(), text: visible, truncated };
}

test('PLAN-1 (property): extraction matches a whole-string reference model of the tag rules', () => {
  fc.assert(
    fc.property(inputs, (text) => {
      const r = extractPlan(text);
      const want = reference(text);
      assert.equal(r.text, want.text);
      assert.equal(r.truncated, want.truncated);
      if (r.source !== 'untagged') assert.equal(r.plan, want.plan);
    }),
    { numRuns: 3000 },
  );
});

test("PLAN-1 (issue 14): untagged plans in VT Code's other shapes are drafts; a plan shown as code, or a mere summary with a list, is not", () => {
  const boldLines = PLAN.replace(/^## (.*)$/gm, '**$1**');
  assert.equal(extractPlan(boldLines).source, 'untagged');
  const compact =
    '# Tidy imports\n\nSummary: Sort imports in src/a.ts.\n\n1. Sort imports -> files: [src/a.ts] -> verify: [npx eslint src/a.ts]\n\nValidation: `npx eslint src` is clean.\nAssumptions: No behaviour change.';
  assert.equal(extractPlan(compact).source, 'untagged');
  assert.equal(validatePlan(extractPlan(compact).plan ?? '').ready, true);
  // Shown as one code block in the chat, so it is not a plan here either.
  assert.equal(extractPlan(`Copy this:\n\n\`\`\`\`markdown\n${PLAN}\n\`\`\`\`\n`).source, null);
  // An answer that summarises and lists things is not a compact plan without Validation and Assumptions.
  assert.equal(
    extractPlan('Summary: I read the parser.\n\n1. `parse` is recursive.\n2. `lex` allocates per token.').source,
    null,
  );
});
