import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  applyCall,
  renderCompact,
  renderExpanded,
  rowsOf,
  type Checklist,
  type TrackerCall,
} from '../../../src/core/tracker';

function make(items: TrackerCall['items']): Checklist {
  const r = applyCall(null, { action: 'create', title: 'Work', items });
  assert.equal(r.kind, 'changed');
  return (r as { checklist: Checklist }).checklist;
}

test('TRK-5: compact view is the header plus the first in_progress leaf', () => {
  const c = make(['[x] Done', '[~] Parent', '  [x] Child one', '  [~] Child two', '[~] Later']);
  assert.equal(renderCompact(c), 'Work — 2/5 done\n» Child two');
});

test('TRK-5: without an in_progress leaf the first pending or blocked item is current', () => {
  assert.equal(renderCompact(make(['[x] A', '[!] B', '[ ] C'])), 'Work — 1/3 done\n» B');
  assert.equal(
    renderCompact(make(['[x] A', '[~] Parent', '  [x] Kid', '  [ ] Kid two'])),
    'Work — 2/4 done\n» Kid two',
  );
});

test('TRK-5: compact view is the header only when everything is done', () => {
  assert.equal(renderCompact(make(['[x] A', '[x] B'])), 'Work — 2/2 done');
});

test('TRK-5: expanded view draws the tree and marks the current row', () => {
  const c = make(['[x] Done', '[~] Parent', '  [x] Child one', '  [~] Child two', '[!] Blocked', '[ ] Last']);
  assert.equal(
    renderExpanded(c),
    [
      'Work — 2/6 done',
      '├ ✔ Done',
      '├ ◐ Parent',
      '│  ├ ✔ Child one',
      '│  └ » ◐ Child two',
      '├ ⚠ Blocked',
      '└ ○ Last',
    ].join('\n'),
  );
});

test('TRK-5: expanded view shows at most 30 rows then "… N more"', () => {
  const c = make(Array.from({ length: 42 }, (_, i) => `Step ${i + 1}`));
  const lines = renderExpanded(c).split('\n');
  assert.equal(lines.length, 1 + 30 + 1);
  assert.equal(lines[30], '├ ○ Step 30');
  assert.equal(lines[31], '… 12 more');
  assert.equal(
    renderExpanded(make(Array.from({ length: 30 }, (_, i) => `S${i}`))).split('\n').length,
    31,
    'exactly 30 rows: no overflow row',
  );
});

test('TRK-6: rows carry status and current for styled surfaces; metadata is not a row', () => {
  const c = make(['[x] A -> files: [a.ts] -> verify: [npm test]', '[ ] B']);
  const rows = rowsOf(c);
  assert.deepEqual(
    rows.map((r) => [r.indexPath, r.description, r.status, r.current]),
    [
      ['1', 'A', 'completed', false],
      ['2', 'B', 'pending', true],
    ],
  );
});
