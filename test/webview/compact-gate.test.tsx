import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/preact';
import type { EntryOf } from '../../src/protocol';
import { mountApp, rateLimitGate } from './fixtures';

afterEach(cleanup);

const STEPS = [
  'Create src/limiter.ts with a sliding-window counter keyed by IP',
  'Call it from the login route',
  'Answer over-limit requests with 429',
  'Read the limits from the environment',
  'Cover the window arithmetic in test/limiter.test.ts',
];

// The host's synopsis stops at its own bound: two more steps exist in the plan file.
const gate = (over: Partial<EntryOf<'approval'>> = {}) => rateLimitGate(STEPS, '… and 2 more plan steps', over);

const region = () => screen.getByRole('region', { name: 'Ready to code?' });
const stepTexts = (card: HTMLElement) => [...card.querySelectorAll('.synopsis-steps li')].map((li) => li.textContent);
const synopsis = (card: HTMLElement) => card.querySelector<HTMLDetailsElement>('details.gate-synopsis')!;

test('GATE-1 compact: three steps preview, "… and N more plan steps" counts every hidden step and expands them in full', async () => {
  const app = mountApp();
  await app.show([gate()]);
  const card = region();
  assert.deepEqual(stepTexts(card), STEPS.slice(0, 3));
  const more = within(card).getByRole('button', { name: '… and 4 more plan steps' });
  assert.equal(more.getAttribute('aria-expanded'), 'false');
  assert.equal(
    card.querySelector('.synopsis-overflow'),
    null,
    "the host's overflow row is part of the count, not a second row",
  );
  // Collapsed, every preview line is clamped; the full text is still the element's text.
  assert.equal(card.querySelectorAll('.synopsis-steps .step-text.is-clamped').length, 3);
  assert.ok(card.querySelector('.synopsis-summary.is-clamped'));

  await act(() => {
    fireEvent.click(more);
  });
  assert.deepEqual(stepTexts(card), STEPS);
  assert.equal(card.querySelector('.synopsis-overflow')?.textContent, '… and 2 more plan steps');
  assert.equal(card.querySelectorAll('.is-clamped').length, 0, 'expanded, nothing is clamped');
  const less = within(card).getByRole('button', { name: 'Show less' });
  assert.equal(less.getAttribute('aria-expanded'), 'true');
  await act(() => {
    fireEvent.click(less);
  });
  assert.deepEqual(stepTexts(card), STEPS.slice(0, 3));
  assert.equal(app.commands('approve').length, 0, 'expanding is not a choice');
});

test('GATE-1 compact: a plan the preview shows whole has no "more" control; the full plan stays one click away', async () => {
  const app = mountApp();
  await app.show([
    gate({
      synopsis: {
        title: 'Small',
        summary: 'One thing.',
        steps: [{ number: 1, text: 'Do it in src/a.ts' }],
        overflow: null,
      },
    }),
  ]);
  const card = region();
  assert.equal(card.querySelector('.gate-more'), null);
  fireEvent.click(within(card).getByText('Open plan file'));
  assert.deepEqual(app.commands('openPlan'), [{ type: 'openPlan' }]);
});

test('GATE-1 compact: the synopsis is a disclosure headed by the plan title; folding keeps the choices', async () => {
  const app = mountApp();
  await app.show([gate()]);
  const card = region();
  const details = synopsis(card);
  assert.equal(details.open, true, 'open by default');
  assert.equal(details.querySelector('summary')?.textContent, 'Rate-limit logins');
  await act(() => {
    details.open = false;
    details.dispatchEvent(new Event('toggle'));
  });
  assert.equal(synopsis(card).open, false);
  assert.equal(card.querySelectorAll('.gate-choice').length, 4);
  // A re-sent entry (same gate, e.g. a failed handoff) does not reopen what the user folded.
  await app.deliver({ type: 'entry', entry: gate() });
  assert.equal(synopsis(region()).open, false);
});

test('GATE-2: the reason an edit is invalid shows inside the gate, before its choices; the synopsis folds; a valid save clears both', async () => {
  const app = mountApp();
  await app.show([gate()]);
  const reasons = [
    { message: 'Required section `## Summary` is missing.' },
    { message: 'Step 2 has no `verify:` check.', line: 9 },
    { message: 'Step 3 names no file.', line: 10 },
  ];
  await app.deliver({ type: 'entry', entry: gate({ invalidEdit: { reasons } }) });
  const card = region();
  const note = within(card).getByRole('alert');
  assert.ok(note.classList.contains('gate-invalid-edit'));
  assert.match(note.textContent ?? '', /^Your edit is not valid; the previous plan stays\./);
  assert.deepEqual(
    [...note.querySelectorAll('li')].map((li) => li.textContent),
    ['Required section ## Summary is missing.'],
    'the first reason; the rest are in Problems',
  );
  assert.equal(note.querySelector('.gate-invalid-more')?.textContent, '… and 2 more in Problems');
  const choices = card.querySelector('.gate-choices')!;
  assert.ok(
    note.compareDocumentPosition(choices) & Node.DOCUMENT_POSITION_FOLLOWING,
    'the reason comes before the choices',
  );
  assert.equal(synopsis(card).open, false, 'folded for the reasons');
  assert.equal(
    card.querySelector('.gate-plan-title')?.textContent,
    'Rate-limit logins',
    'the previous plan is still named',
  );
  assert.equal(card.querySelectorAll('.gate-choice').length, 4);

  await app.deliver({ type: 'entry', entry: gate({ invalidEdit: null }) });
  assert.equal(region().querySelector('.gate-invalid-edit'), null);
  assert.equal(synopsis(region()).open, true);
});
