// PLAN-2, TRK-1: VT Code embeds its task tracker in a plan file between two marker comments, which
// reading a plan skips. A plan may show those markers inside a fenced code block (documenting the
// format); there they are text. Taken for the region's start, such a line used to drop everything
// after it: the steps and sections that follow vanished from the parsed and the canonical plan.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { canonicalPlan, parsePlan, stripTrackerRegion, TRACKER_END, TRACKER_START } from '../../../src/core/plan';

const plan = (fence: string, close = fence): string =>
  [
    '# Tracker docs',
    '',
    '## Summary',
    'Document the tracker region:',
    '',
    fence,
    TRACKER_START,
    '- [ ] a task',
    close,
    '',
    '## Implementation Steps',
    '1. Write the page -> files: [docs/tracker.md] -> verify: [npm test]',
    '',
    '## Test Cases and Validation',
    '- npm test',
    '',
    '## Assumptions and Defaults',
    '- none',
  ].join('\n');

for (const [name, fence, close] of [
  ['backticks', '```markdown', '```'],
  ['tildes', '~~~', '~~~'],
  ['a longer closing fence', '```', '`````'],
  ['an indented fence', '   ```', '   ```'],
] as const) {
  test(`PLAN-2: a tracker marker inside a code block fenced with ${name} is text; the plan after it stays`, () => {
    const text = plan(fence, close);
    const doc = parsePlan(text);
    assert.deepEqual(
      doc.steps.map((s) => s.action),
      ['Write the page'],
    );
    assert.deepEqual(
      doc.sections.map((s) => s.key),
      ['summary', 'steps', 'validation', 'assumptions'],
    );
    assert.equal(stripTrackerRegion(text), text);
    assert.match(canonicalPlan(text), /## Assumptions and Defaults\n- none/);
  });
}

test('PLAN-2: a fence of the other kind or a shorter run does not close the block, so a marker after it stays text', () => {
  for (const wrongClose of ['~~~~', '```', '```` x']) {
    const text = ['````', wrongClose, TRACKER_START, '- [ ] a task', '````', '', 'After the block.'].join('\n');
    assert.equal(stripTrackerRegion(text), text, `after ${wrongClose}, the block is still open`);
  }
});

test('TRK-1: after a fenced block closes, the tracker region is skipped again', () => {
  const text = [plan('```'), '', TRACKER_START, '- [x] Write the page', TRACKER_END, '', '## Notes', 'kept'].join('\n');
  const stripped = stripTrackerRegion(text);
  assert.equal(stripped.includes('- [x] Write the page'), false);
  assert.equal(stripped.split(TRACKER_START).length, 2, 'the marker inside the code block is kept');
  assert.match(stripped, /## Notes\nkept$/);
  assert.deepEqual(
    parsePlan(text).steps.map((s) => s.action),
    ['Write the page'],
  );
});
