/**
 * TRK-1, TRK-2, TRK-5, TRK-6: the checklist model's edges: an empty checklist's totals, the
 * default title, descriptions that differ by a space, row depths and the tree drawn under a last
 * item. Found by mutation testing (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  applyCall,
  parseTrackerMarkdown,
  renderExpanded,
  rowsOf,
  totalsOf,
  type Checklist,
} from '../../../src/core/tracker';

function created(items: string[], title?: string): Checklist {
  const r = applyCall(null, { action: 'create', items, ...(title === undefined ? {} : { title }) });
  assert.equal(r.kind, 'changed');
  return (r as { checklist: Checklist }).checklist;
}

test('TRK-5: a checklist without items is 0 % done, not NaN', () => {
  const empty = parseTrackerMarkdown('# Nothing yet\n');
  assert.ok(empty);
  assert.deepEqual(totalsOf(empty), {
    total: 0,
    completed: 0,
    in_progress: 0,
    pending: 0,
    blocked: 0,
    progress_percent: 0,
  });
});

test('TRK-1: a checklist created without a title is titled "Task Checklist"', () => {
  assert.equal(created(['One']).title, 'Task Checklist');
});

test('TRK-2: descriptions that differ by a space are different tasks: metadata does not carry over', () => {
  const current = created(['Run the tests -> files: [a.ts]'], 'Work');
  const r = applyCall(current, { action: 'update', items: ['Runthe tests'] });
  assert.equal(r.kind, 'changed');
  assert.deepEqual((r as { checklist: Checklist }).checklist.items[0]?.files, []);
});

test('TRK-6: rows carry their depth in the tree', () => {
  const c = created(['A', '  A.1', '    A.1.1', 'B']);
  assert.deepEqual(
    rowsOf(c).map((r) => [r.indexPath, r.depth]),
    [
      ['1', 0],
      ['1.1', 1],
      ['1.1.1', 2],
      ['2', 0],
    ],
  );
});

test('TRK-5: under a last item the tree keeps its indentation without a vertical line', () => {
  const c = created(['A', 'B', '  B.1', '    B.1.1', '  B.2'], 'Work');
  assert.equal(
    renderExpanded(c),
    ['Work — 0/5 done', '├ » ○ A', '└ ○ B', '   ├ ○ B.1', '   │  └ ○ B.1.1', '   └ ○ B.2'].join('\n'),
  );
});
