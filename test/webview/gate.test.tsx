import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import type { EntryOf } from '../../src/protocol';
import { contextFigure } from '../../webview/src/components/ApprovalGate';
import { mountApp, rateLimitGate } from './fixtures';

afterEach(cleanup);

const STEPS = [
  'Create src/limiter.ts with a sliding-window counter keyed by IP address, configurable window and limit',
  'Call it from the login route',
];
const gate = (over: Partial<EntryOf<'approval'>> = {}) => rateLimitGate(STEPS, '… and 4 more plan steps', over);

const CHOICE_LABELS = [
  'Yes, implement this plan',
  'Yes, clear context and implement',
  'Yes, switch to Auto and implement',
  'No, stay in Plan mode',
];

test('GATE-1: "Ready to code?" shows the synopsis with full step text, the overflow row, four choices and the context figure; it takes focus', async () => {
  const app = mountApp();
  await app.show([gate()], { status: 'Waiting for approval' });
  const card = screen.getByRole('region', { name: 'Ready to code?' });
  assert.ok(within(card).getByText('Rate-limit logins'));
  assert.ok(within(card).getByText('Add a per-IP limiter in front of the login route.'));
  assert.deepEqual(
    [...card.querySelectorAll('.synopsis-steps li')].map((li) => li.textContent),
    [
      'Create src/limiter.ts with a sliding-window counter keyed by IP address, configurable window and limit',
      'Call it from the login route',
    ],
  );
  assert.ok(within(card).getByText('… and 4 more plan steps'));
  const buttons = [...card.querySelectorAll('.gate-choice')];
  assert.deepEqual(
    buttons.map((b) => b.querySelector('.choice-label')?.textContent),
    CHOICE_LABELS,
  );
  assert.deepEqual(
    buttons.map((b) => b.getAttribute('aria-keyshortcuts')),
    ['1', '2', '3', '4'],
  );
  assert.equal(buttons[1]?.querySelector('.choice-detail')?.textContent, 'Fresh thread. Context: 7% used.');
  assert.equal(document.activeElement, buttons[0], 'the first choice has focus');
});

test('GATE-1: keys 1–4 pick the matching choice and send approve with the plan file', async () => {
  const choices = ['execute', 'fresh_context', 'switch_auto', 'revise'] as const;
  for (const [i, choice] of choices.entries()) {
    const app = mountApp();
    await app.show([gate()]);
    const card = screen.getByRole('region', { name: 'Ready to code?' });
    fireEvent.keyDown(document.activeElement ?? card, { key: String(i + 1) });
    assert.deepEqual(
      app.commands('approve'),
      [{ type: 'approve', planFile: '.vtcode/plans/rate-limit.md', choice }],
      choice,
    );
    fireEvent.keyDown(card, { key: '1' });
    assert.equal(app.commands('approve').length, 1, 'one choice per gate');
    // Answered, the choices are inert but keep the focus where the user left it (aria-disabled, not disabled).
    assert.ok(
      [...card.querySelectorAll('.gate-choice')].every(
        (b) => b.getAttribute('aria-disabled') === 'true' && !(b as HTMLButtonElement).disabled,
      ),
    );
    cleanup();
  }
});

test('GATE-1: arrows move between the choices and Enter/click picks; Ctrl+digit is left to VS Code', async () => {
  const app = mountApp();
  await app.show([gate()]);
  const card = screen.getByRole('region', { name: 'Ready to code?' });
  fireEvent.keyDown(card, { key: '2', ctrlKey: true });
  assert.equal(app.commands('approve').length, 0);
  fireEvent.keyDown(document.activeElement ?? card, { key: 'ArrowDown' });
  fireEvent.keyDown(document.activeElement ?? card, { key: 'ArrowDown' });
  assert.equal(
    document.activeElement?.querySelector('.choice-label')?.textContent,
    'Yes, switch to Auto and implement',
  );
  fireEvent.click(document.activeElement as Element);
  assert.deepEqual(app.commands('approve'), [
    { type: 'approve', planFile: '.vtcode/plans/rate-limit.md', choice: 'switch_auto' },
  ]);
});

test('GATE-2: "Edit plan (Ctrl+G)" and "Open plan file" ask the host', async () => {
  const app = mountApp();
  await app.show([gate()]);
  fireEvent.click(screen.getByText('Edit plan (Ctrl+G)'));
  fireEvent.click(screen.getByText('Open plan file'));
  assert.deepEqual(
    app.sent.filter((m) => m.type === 'editPlan' || m.type === 'openPlan'),
    [{ type: 'editPlan' }, { type: 'openPlan' }],
  );
  assert.equal(app.commands('approve').length, 0);
});

test('GATE-4: the context figure is a rounded, clamped percentage', () => {
  assert.equal(contextFigure(0.07), 'Fresh thread. Context: 7% used.');
  assert.equal(contextFigure(0.456), 'Fresh thread. Context: 46% used.');
  assert.equal(contextFigure(1.7), 'Fresh thread. Context: 100% used.');
  assert.equal(contextFigure(Number.NaN), 'Fresh thread. Context: 0% used.');
});

test('GATE-1: resolved and superseded gates render compactly with the outcome, without buttons', async () => {
  const app = mountApp();
  await app.show([
    gate({ id: 'g1', state: 'resolved', choice: 'fresh_context' }),
    gate({ id: 'g2', state: 'superseded' }),
    gate({ id: 'g3', state: 'resolved', choice: 'revise' }),
  ]);
  assert.equal(app.container.querySelector('.gate-choice'), null);
  assert.deepEqual(
    [...app.container.querySelectorAll('.gate-summary')].map((g) => g.textContent),
    [
      'Rate-limit logins — Yes, clear context and implement',
      'Rate-limit logins — Superseded by a newer plan',
      'Rate-limit logins — No, stay in Plan mode',
    ],
  );
});

test('INT-2: no gate is offered while a required interview is open', async () => {
  const app = mountApp();
  await app.show([
    gate(),
    {
      kind: 'interview',
      id: 'i1',
      interviewId: 'int-1',
      source: 'model',
      state: 'pending',
      answers: [],
      questions: [{ id: 'q', question: 'Which DB?', options: [{ label: 'A' }], allowFreeform: false }],
    },
  ]);
  assert.equal(app.container.querySelector('.gate-choice'), null);
  assert.ok(screen.getByText('Answer the open question first; the plan approval follows.'));
  fireEvent.keyDown(screen.getByRole('listbox'), { key: '1' });
  assert.equal(app.commands('approve').length, 0, 'digits in the wizard never approve');
  await app.deliver({
    type: 'entry',
    entry: {
      kind: 'interview',
      id: 'i1',
      interviewId: 'int-1',
      source: 'model',
      state: 'answered',
      answers: [{ questionId: 'q', label: 'A' }],
      questions: [{ id: 'q', question: 'Which DB?', options: [{ label: 'A' }], allowFreeform: false }],
    },
  });
  assert.equal(
    app.container.querySelectorAll('.gate-choice').length,
    4,
    'the gate returns once the interview is answered',
  );
});

test('GATE-3: a gate the host sends again still pending (failed handoff) can be answered again', async () => {
  const app = mountApp();
  await app.show([gate()]);
  fireEvent.keyDown(document.activeElement as Element, { key: '1' });
  await app.deliver({ type: 'entry', entry: gate() });
  const buttons = [...app.container.querySelectorAll('.gate-choice')] as HTMLButtonElement[];
  assert.ok(buttons.every((b) => !b.disabled));
  fireEvent.click(buttons[0] as HTMLButtonElement);
  assert.equal(app.commands('approve').length, 2);
});
