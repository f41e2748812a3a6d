import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildSynopsis, parsePlan, TRACKER_START, TRACKER_END } from '../../../src/core/plan';

const STEPS = '## Implementation Steps\n1. Add the retry loop\n2. Cover it with a test\n';

test('GATE-1: the summary is the Summary section, wherever it is, lines trimmed and joined by one space, HTML comments left out', () => {
  const plan = `# Retries\n\n## Scope\nOnly the client.\n\n## Summary\nAdd retries   \n   \n<!-- reviewer: keep this short -->\nto the client.  <!-- inline stays -->\n\n${STEPS}`;
  assert.equal(buildSynopsis(plan).summary, 'Add retries to the client.  <!-- inline stays -->');
});

test('GATE-1: a plan without a Summary section has an empty synopsis summary', () => {
  const s = buildSynopsis(`# Retries\n\n${STEPS}`);
  assert.equal(s.summary, '');
  assert.deepEqual(
    s.steps.map((x) => x.text),
    ['Add the retry loop', 'Cover it with a test'],
  );
});

test('GATE-1: "view full plan" shows the markdown exactly as given; a parsed plan shows its analysed text', () => {
  const given = `# Retries\r\n\r\n## Summary\r\nAdd retries.\r\n\r\n${STEPS}\n${TRACKER_START}\n- [ ] one\n${TRACKER_END}\n`;
  assert.equal(buildSynopsis(given).fullText, given);
  const doc = parsePlan(given);
  const fromDoc = buildSynopsis(doc);
  assert.equal(fromDoc.fullText, doc.text);
  assert.notEqual(doc.text, given);
  assert.equal(fromDoc.summary, 'Add retries.');
  assert.equal(fromDoc.title, 'Retries');
  assert.equal(buildSynopsis(doc, 8, 'shown instead').fullText, 'shown instead');
});
