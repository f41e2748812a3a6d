import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import type { EntryOf, InterviewQuestion } from '../../src/protocol';
import { mountApp } from './fixtures';

afterEach(cleanup);

const storage: InterviewQuestion = {
  id: 'q1',
  header: 'Storage',
  question: 'Where should rate-limit counters live?',
  options: [
    { label: 'In memory', description: 'Simple, per process' },
    { label: 'Redis', description: 'Shared across instances', recommended: true },
    { label: 'Postgres' },
  ],
  allowFreeform: true,
};
const window_: InterviewQuestion = {
  id: 'q2',
  question: 'Which window?',
  options: [{ label: '1 minute' }, { label: '15 minutes' }],
  allowFreeform: false,
};

function interview(questions: InterviewQuestion[], over: Partial<EntryOf<'interview'>> = {}): EntryOf<'interview'> {
  return {
    kind: 'interview',
    id: 'i1',
    interviewId: 'int-1',
    source: 'model',
    questions,
    state: 'pending',
    answers: [],
    ...over,
  };
}

async function openWizard(questions: InterviewQuestion[], over: Partial<EntryOf<'interview'>> = {}) {
  const app = mountApp();
  await app.show([interview(questions, over)], {
    inputLockedReason: 'Answer the question above first',
    status: 'Waiting for your answer',
  });
  return app;
}

const listbox = () => screen.getByRole('listbox', { name: /Where should|Which window/ });
const selected = () =>
  screen
    .getAllByRole('option')
    .find((o) => o.getAttribute('aria-selected') === 'true')
    ?.querySelector('.option-label')?.textContent;

test('INT-1: the wizard shows the question, numbered options and the recommended marker, and takes focus', async () => {
  await openWizard([storage]);
  assert.ok(screen.getByText('Where should rate-limit counters live?'));
  assert.ok(screen.getByText('Storage'));
  const options = screen.getAllByRole('option');
  assert.deepEqual(
    options.map((o) => o.textContent),
    ['1.In memorySimple, per process', '2.Redis (Recommended)Shared across instances', '3.Postgres'],
  );
  assert.equal(document.activeElement, listbox(), 'the listbox has focus');
  assert.equal(selected(), 'Redis', 'the recommended option starts selected');
  assert.equal(listbox().getAttribute('aria-activedescendant'), options[1]?.id);
});

test('INT-1: arrows and number keys choose, Enter submits the declared label exactly (no number, no marker)', async () => {
  const app = await openWizard([storage]);
  fireEvent.keyDown(listbox(), { key: 'ArrowDown' });
  assert.equal(selected(), 'Postgres');
  fireEvent.keyDown(listbox(), { key: 'ArrowDown' });
  assert.equal(selected(), 'Postgres', 'stays on the last option');
  fireEvent.keyDown(listbox(), { key: 'ArrowUp' });
  fireEvent.keyDown(listbox(), { key: 'ArrowUp' });
  assert.equal(selected(), 'In memory');
  fireEvent.keyDown(listbox(), { key: '2' });
  assert.equal(selected(), 'Redis');
  fireEvent.keyDown(listbox(), { key: '9' });
  assert.equal(selected(), 'Redis', 'a number without an option changes nothing');
  assert.equal(app.commands('answerInterview').length, 0, 'choosing does not submit');
  fireEvent.keyDown(listbox(), { key: 'Enter' });
  assert.deepEqual(app.commands('answerInterview'), [
    { type: 'answerInterview', interviewId: 'int-1', answers: [{ questionId: 'q1', label: 'Redis' }] },
  ]);
});

test('INT-1: the free-form note travels with the answer; clicking an option chooses it', async () => {
  const app = await openWizard([storage]);
  fireEvent.click(screen.getByText('Postgres'));
  fireEvent.input(screen.getByLabelText('Note (optional)'), { target: { value: '  we already run it  ' } });
  fireEvent.click(screen.getByText('Submit'));
  assert.deepEqual(app.commands('answerInterview'), [
    {
      type: 'answerInterview',
      interviewId: 'int-1',
      answers: [{ questionId: 'q1', label: 'Postgres', note: 'we already run it' }],
    },
  ]);
});

test('INT-1: a free-form-only question needs text and sends it as a note', async () => {
  const app = await openWizard([{ id: 'q9', question: 'What should the limit be?', options: [], allowFreeform: true }]);
  const box = screen.getByLabelText('Your answer');
  assert.equal(document.activeElement, box);
  fireEvent.keyDown(box, { key: 'Enter' });
  assert.equal(app.commands('answerInterview').length, 0, 'nothing to send yet');
  fireEvent.input(box, { target: { value: '5 per minute' } });
  fireEvent.keyDown(box, { key: 'Enter' });
  assert.deepEqual(app.commands('answerInterview'), [
    { type: 'answerInterview', interviewId: 'int-1', answers: [{ questionId: 'q9', note: '5 per minute' }] },
  ]);
});

test('INT-1: several questions are asked one after another, Back keeps earlier choices, then one submit', async () => {
  const app = await openWizard([storage, window_]);
  assert.ok(screen.getByText('1 of 2'));
  fireEvent.keyDown(listbox(), { key: '1' });
  fireEvent.keyDown(listbox(), { key: 'Enter' });
  assert.equal(app.commands('answerInterview').length, 0);
  assert.ok(screen.getByText('Which window?'));
  assert.ok(screen.getByText('2 of 2'));
  assert.equal(document.activeElement, listbox(), 'focus moves to the next question');
  fireEvent.click(screen.getByText('Back'));
  assert.equal(selected(), 'In memory');
  fireEvent.click(screen.getByText('Next'));
  fireEvent.keyDown(listbox(), { key: '2' });
  fireEvent.keyDown(listbox(), { key: 'Enter' });
  assert.deepEqual(app.commands('answerInterview'), [
    {
      type: 'answerInterview',
      interviewId: 'int-1',
      answers: [
        { questionId: 'q1', label: 'In memory' },
        { questionId: 'q2', label: '15 minutes' },
      ],
    },
  ]);
});

test('INT-2: Esc cancels without an answer and focus returns to the composer once it is unlocked', async () => {
  const app = await openWizard([storage]);
  fireEvent.keyDown(listbox(), { key: 'Escape' });
  assert.deepEqual(app.commands('cancelInterview'), [{ type: 'cancelInterview', interviewId: 'int-1' }]);
  assert.equal(app.commands('answerInterview').length, 0);
  await app.deliver(
    { type: 'entry', entry: interview([storage], { state: 'cancelled' }) },
    {
      type: 'status',
      status: { mode: 'plan', model: 'gpt-test', status: null, busy: false, inputLockedReason: null, sandbox: null },
    },
  );
  assert.equal(document.activeElement, screen.getByLabelText('Message'));
  assert.ok(screen.getByText('Question dismissed without an answer.'));
});

test('INT-2: Esc in the note field cancels too, and a second key press sends nothing more', async () => {
  const app = await openWizard([storage]);
  const note = screen.getByLabelText('Note (optional)');
  fireEvent.keyDown(note, { key: 'Escape' });
  fireEvent.keyDown(listbox(), { key: 'Enter' });
  assert.equal(app.commands('cancelInterview').length, 1);
  assert.equal(app.commands('answerInterview').length, 0);
});

test('INT-1: an answered interview renders as a compact summary', async () => {
  const app = mountApp();
  await app.show([
    interview([storage, window_], {
      state: 'answered',
      answers: [
        { questionId: 'q1', label: 'Redis', note: 'shared' },
        { questionId: 'q2', label: '1 minute' },
      ],
    }),
  ]);
  assert.equal(screen.queryByRole('listbox'), null);
  const summary = screen.getByRole('note', { name: 'Your answers' });
  assert.equal(summary.textContent, 'Where should rate-limit counters live? → Redis — sharedWhich window? → 1 minute');
});

test('SYN-3: the runtime recovery interview uses the same wizard, marked as runtime, and submits nothing by itself', async () => {
  const app = await openWizard(
    [
      {
        id: 'recovery',
        question: 'Planning could not produce a valid plan. What next?',
        options: [
          { label: 'Retry from retained evidence', recommended: true },
          { label: 'Add clarification' },
          { label: 'Choose another model' },
        ],
        allowFreeform: true,
      },
    ],
    { source: 'runtime', interviewId: 'rt-1' },
  );
  const card = app.container.querySelector('.wizard');
  assert.ok(card?.classList.contains('wizard-runtime'));
  assert.ok(screen.getByText('Planning needs your input'));
  assert.equal(app.commands('answerInterview').length, 0);
  fireEvent.keyDown(listbox_(), { key: '3' });
  fireEvent.keyDown(listbox_(), { key: 'Enter' });
  assert.deepEqual(app.commands('answerInterview'), [
    {
      type: 'answerInterview',
      interviewId: 'rt-1',
      answers: [{ questionId: 'recovery', label: 'Choose another model' }],
    },
  ]);
});

const listbox_ = () => screen.getByRole('listbox');
