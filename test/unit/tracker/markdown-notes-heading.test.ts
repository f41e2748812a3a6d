/**
 * TRK-1, TRK-7: a tracker file edited by hand often heads its notes `## Notes:`. The reader takes
 * that heading (and trailing blanks) as the Notes section, so the next write of the tracker, which
 * heads it `## Notes`, keeps the notes instead of dropping them or reading their bullets as items.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseTrackerMarkdown, renderTrackerMarkdown, type Checklist } from '../../../src/core/tracker';

function parsed(text: string): Checklist {
  const c = parseTrackerMarkdown(text);
  assert.ok(c, 'a checklist');
  return c;
}

const handEdited = [
  '# Fix parser cursor',
  '',
  '## Plan of Work',
  '',
  '- [x] Hoist bounds check',
  '- [ ] Add regression test',
  '',
  '## Notes:  ',
  '',
  'Keep the grammar unchanged.',
  '- [ ] ask about the lexer first',
  '',
].join('\n');

test('TRK-1: "## Notes:" with trailing blanks heads the notes; its bullet lines are notes, not items', () => {
  const c = parsed(handEdited);
  assert.equal(c.notes, 'Keep the grammar unchanged.\n- [ ] ask about the lexer first');
  assert.deepEqual(
    c.items.map((i) => i.description),
    ['Hoist bounds check', 'Add regression test'],
  );
});

test('TRK-7: notes read under "## Notes:" survive a rewrite of the sidecar and of the global file', () => {
  const first = parsed(handEdited);
  for (const kind of ['sidecar', 'global'] as const) {
    const written = renderTrackerMarkdown(first, kind);
    assert.match(written, /\n## Notes\n\nKeep the grammar unchanged\.\n- \[ \] ask about the lexer first\n$/);
    assert.deepEqual(parsed(written), first, kind);
  }
});

test('TRK-1: a heading that only starts with "Notes" or "Notes:" is another section, not the notes', () => {
  for (const heading of ['## Notes: from review', '## Notes-old:']) {
    const c = parsed(['# T', '- [ ] A', heading, '- [ ] B'].join('\n'));
    assert.equal(c.notes, null, heading);
    assert.deepEqual(
      c.items.map((i) => i.description),
      ['A', 'B'],
      heading,
    );
  }
});
