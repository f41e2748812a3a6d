import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import type { EntryOf, PlanChanges, TranscriptEntry } from '../../src/protocol';
import { mountApp, plan } from './fixtures';

afterEach(cleanup);

const PLAN_FILE = '.vtcode/plans/shout-flag.md';
const synopsis = {
  title: 'Shout flag',
  summary: 'Add a flag.',
  steps: [{ number: 1, text: 'Add `shout` to src/greet.js' }],
  overflow: null,
};

const CHANGES: PlanChanges = {
  added: [{ number: 3, text: 'Document the flag in README.md' }],
  removed: [{ number: 2, text: 'Parse `--shout` in bin/greet.js' }],
  changed: [
    {
      before: { number: 1, text: 'Add a flag to greet' },
      after: { number: 1, text: 'Add `shout` to src/greet.js' },
      fields: ['action', 'verify'],
    },
    {
      before: { number: 3, text: 'Cover shouting in tests' },
      after: { number: 2, text: 'Cover shouting in tests' },
      fields: ['files'],
    },
  ],
  sections: ['Assumptions and Defaults'],
};

function card(over: Partial<EntryOf<'plan'>> = {}): EntryOf<'plan'> {
  return plan({
    id: 'p1',
    planFile: PLAN_FILE,
    status: 'persisted',
    synopsis,
    markdown: '# Shout flag',
    reasons: [],
    revision: { number: 3, source: 'editor', changes: CHANGES },
    ...over,
  });
}

const gate: TranscriptEntry = {
  kind: 'approval',
  id: 'g1',
  planFile: PLAN_FILE,
  synopsis,
  contextUsage: 0,
  state: 'pending',
  choice: null,
};

test('GATE-2: the revision card says which revision it shows and where it came from, and links to the diff', async () => {
  const app = mountApp();
  await app.show([card()]);
  const region = screen.getByRole('region', { name: 'Plan ready: Shout flag' });
  assert.equal(region.querySelector('.plan-revision-label')?.textContent, 'Revision 3 · edited in the editor');
  fireEvent.click(within(region).getByText('Compare with previous'));
  assert.deepEqual(app.commands('comparePlan'), [{ type: 'comparePlan', planFile: PLAN_FILE }]);

  await app.show([card({ revision: { number: 2, source: 'planner', changes: CHANGES } })]);
  assert.equal(app.container.querySelector('.plan-revision-label')?.textContent, 'Revision 2 · revised by the planner');
});

test("GATE-2: a plan's first revision has no revision line; a draft or a rejected one shows none either", async () => {
  const app = mountApp();
  await app.show([
    card({ revision: { number: 1, source: 'planner', changes: null } }),
    card({ id: 'p2', status: 'rejected', synopsis: null, reasons: [{ code: 'x', message: 'Bad.' }] }),
    card({ id: 'p3', status: 'streaming', planFile: null }),
  ]);
  assert.equal(app.container.querySelectorAll('.plan-revision').length, 0);
  assert.equal(app.container.querySelectorAll('.plan-changes').length, 0);
  assert.equal(screen.queryByText('Compare with previous'), null);
});

test('GATE-2: "What changed" is collapsed with the counts, and opens to the added, changed and removed steps', async () => {
  const app = mountApp();
  await app.show([card()]);
  const details = app.container.querySelector<HTMLDetailsElement>('details.plan-changes');
  assert.ok(details);
  assert.equal(details.open, false, 'collapsed by default');
  const summary = details.querySelector('summary');
  assert.equal(summary?.textContent, 'What changed (4 steps: 1 added · 2 changed · 1 removed)');
  fireEvent.click(summary!);
  assert.equal(details.open, true, 'a click opens it');
  const rows = [...details.querySelectorAll('li')].map((li) => [li.className.replace('change ', ''), li.textContent]);
  assert.deepEqual(rows, [
    ['change-added', 'Added step 3: Document the flag in README.md'],
    ['change-changed', 'Changed step 1: Add shout to src/greet.js — wording, verifywas: Add a flag to greet'],
    ['change-changed', 'Changed step 2 (was 3): Cover shouting in tests — files'],
    ['change-removed', 'Removed step 2: Parse --shout in bin/greet.js'],
    ['change-sections', 'Also edited Assumptions and Defaults'],
  ]);
  assert.equal(details.querySelector('.change-changed code')?.textContent, 'shout', 'step text keeps its inline code');
});

test('GATE-2: an edit that changed no step says so in the collapsed line', async () => {
  const app = mountApp();
  await app.show([
    card({
      revision: {
        number: 2,
        source: 'editor',
        changes: { added: [], removed: [], changed: [], sections: ['Summary'] },
      },
    }),
  ]);
  assert.equal(app.container.querySelector('.plan-changes summary')?.textContent, 'What changed (steps unchanged)');
});

test('GATE-2: with its gate pending the card is collapsed, and it still carries the revision, the link and "What changed"', async () => {
  const app = mountApp();
  await app.show([card(), gate]);
  const region = app.container.querySelector('.plan-card.plan-under-review');
  assert.ok(region, 'the card under review');
  assert.equal(region.querySelector('.plan-revision-label')?.textContent, 'Revision 3 · edited in the editor');
  assert.ok(region.querySelector('details.plan-changes'));
  fireEvent.click(within(region as HTMLElement).getByText('Compare with previous'));
  assert.deepEqual(app.commands('comparePlan'), [{ type: 'comparePlan', planFile: PLAN_FILE }]);
});

test('GATE-2: an opened "What changed" stays open when the next save updates the card in place', async () => {
  const app = mountApp();
  await app.show([card()]);
  const details = app.container.querySelector<HTMLDetailsElement>('details.plan-changes')!;
  fireEvent.click(details.querySelector('summary')!);
  await app.deliver({
    type: 'entry',
    entry: card({ revision: { number: 4, source: 'editor', changes: { ...CHANGES, removed: [] } } }),
  });
  assert.equal(app.container.querySelector('.plan-revision-label')?.textContent, 'Revision 4 · edited in the editor');
  assert.equal(app.container.querySelector<HTMLDetailsElement>('details.plan-changes')?.open, true);
  assert.equal(app.container.querySelectorAll('.change-removed').length, 0);
});
