/**
 * How `Session.answer` and `Session.dismissInterview` route what the user says to an open
 * question (INT-1, INT-2): answers to a question that is not open, to an unknown question or
 * with a label that was not offered are refused with a notice and leave the question open; a
 * limit prompt takes only an explicit choice (EXEC-3); the runtime's own questions (MODE-4
 * planning suggestion, SYN-3 recovery) are answered without a model call where the choice says so.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RECOVERY_CHOICES } from '../../../src/core/session/interview';
import { INTERVIEW_DENIAL_DISMISSALS, LIMIT_DENY, LIMIT_GRANT } from '../../../src/core/session/runloop';
import { LIMITS, of, planText, read, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

const ask = (n: number) => ({
  toolCalls: [
    {
      id: `call_q${n}`,
      name: 'request_user_input',
      arguments: JSON.stringify({
        questions: [
          { id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] },
          { id: 'scope', question: 'Also the CLI?', options: [{ label: 'Yes' }, { label: 'No' }] },
        ],
      }),
    },
  ],
});

/** A planning turn waiting on the model's two-question interview. */
async function modelQuestionOpen() {
  h.server.enqueue(ask(1));
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Make the greeter shout'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1);
  assert.ok(asked && asked.source === 'model');
  return { session, events, interviewId: asked.interviewId };
}

/** The question is still open and nothing was sent to the model. */
function stillOpen(session: { state: { pendingInterview: { interviewId: string } | null } }, interviewId: string) {
  assert.equal(session.state.pendingInterview?.interviewId, interviewId);
  assert.equal(h.server.requests.length, 1);
}

test('INT-1: an answer to a question that is not open (another id, or none open) is refused with a warning', async () => {
  const { session, events, interviewId } = await modelQuestionOpen();
  const before = events.length;
  const stale = await session.answer('call_q0', [{ questionId: 'style', label: 'Yes' }]);
  assert.deepEqual(stale, { kind: 'notice', text: 'That question is no longer open.' });
  assert.deepEqual(
    events.slice(before).map((e) => (e.type === 'notice' ? [e.level, e.text] : e.type)),
    [['warning', 'That question is no longer open.']],
  );
  stillOpen(session, interviewId);

  const { session: idle } = await h.start('plan');
  assert.deepEqual(await idle.answer(interviewId, [{ questionId: 'style', label: 'Yes' }]), {
    kind: 'notice',
    text: 'That question is no longer open.',
  });
});

test('INT-1: an answer naming a question that was not asked is refused as an error, even after a valid answer', async () => {
  const { session, events, interviewId } = await modelQuestionOpen();
  const result = await session.answer(interviewId, [
    { questionId: 'style', label: 'Yes' },
    { questionId: 'colour', label: 'Yes' },
  ]);
  assert.deepEqual(result, { kind: 'notice', text: "Unknown question 'colour'." });
  assert.equal(of(events, 'notice').at(-1)?.level, 'error');
  stillOpen(session, interviewId);
});

test('INT-1: a label the question did not offer is refused as an error and names the label', async () => {
  const { session, events, interviewId } = await modelQuestionOpen();
  const result = await session.answer(interviewId, [
    { questionId: 'style', label: 'Yes' },
    { questionId: 'scope', label: 'Maybe' },
  ]);
  assert.deepEqual(result, { kind: 'notice', text: "'Maybe' is not one of the offered options." });
  assert.equal(of(events, 'notice').at(-1)?.level, 'error');
  stillOpen(session, interviewId);
});

test('INT-1: an answer to the second question with no option chosen (a note only) is taken and the turn continues', async () => {
  const { session, events, interviewId } = await modelQuestionOpen();
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const result = await session.answer(interviewId, [
    { questionId: 'scope', note: 'the CLI can wait' },
    { questionId: 'style', label: 'Yes' },
  ]);
  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_approval' });
  assert.deepEqual(of(events, 'interview.resolved').at(-1)?.answers, [
    { questionId: 'scope', note: 'the CLI can wait' },
    { questionId: 'style', label: 'Yes' },
  ]);
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'continuation');
});

test('INT-2: dismissing a question that is not open is refused with a warning and the open one stays', async () => {
  const { session, events, interviewId } = await modelQuestionOpen();
  const before = events.length;
  assert.deepEqual(await session.dismissInterview('call_q0'), {
    kind: 'notice',
    text: 'That question is no longer open.',
  });
  assert.deepEqual(
    events.slice(before).map((e) => (e.type === 'notice' ? [e.level, e.text] : e.type)),
    [['warning', 'That question is no longer open.']],
  );
  stillOpen(session, interviewId);
});

test('INT-3: the dismissal that turns questions off says so in an info notice', async () => {
  const { session, events, interviewId } = await modelQuestionOpen();
  h.server.enqueue(ask(2), { text: planText(VALID_PLAN) });
  await session.dismissInterview(interviewId);
  assert.equal(of(events, 'notice').length, 0);
  const second = of(events, 'interview.requested').at(-1)!.interviewId;
  await session.dismissInterview(second);
  assert.equal(INTERVIEW_DENIAL_DISMISSALS, 2);
  const notice = of(events, 'notice').at(-1);
  assert.deepEqual(
    { level: notice?.level, text: notice?.text },
    {
      level: 'info',
      text: 'Questions are off for this session: the agent will decide with stated defaults instead of asking.',
    },
  );
});

test('EXEC-3: a limit prompt answered with no choice is not an answer: it asks for one of its two options', async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  assert.deepEqual(await session.submit('Read three files'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1)!;
  const choose = `Choose "${LIMIT_GRANT}" or "${LIMIT_DENY}".`;
  assert.equal(choose, 'Choose "Grant more" or "Deny".');
  assert.deepEqual(await session.answer(asked.interviewId, [{ questionId: 'session_calls' }]), {
    kind: 'notice',
    text: choose,
  });
  assert.deepEqual(await session.answer(asked.interviewId, []), { kind: 'notice', text: choose });
  assert.equal(of(events, 'notice').at(-1)?.level, 'warning');
  assert.equal(session.state.pendingInterview?.interviewId, asked.interviewId);
  assert.equal(of(events, 'interview.resolved').length, 0);
});

const suggest = {
  name: 'start_planning',
  arguments: JSON.stringify({ reason: 'The change touches several modules.' }),
};

test('MODE-4: "Enter Planning workflow" continues in plan mode, telling the model the user chose planning', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: 'Researching read-only now.' });
  const { session, events } = await h.start('build');
  await session.submit('Refactor the greeter');
  const asked = of(events, 'interview.requested').at(-1)!;
  await session.answer(asked.interviewId, [
    { questionId: 'enter_planning', label: 'Enter Planning workflow (Recommended)' },
  ]);
  const continued = of(events, 'turn.started').at(-1);
  assert.deepEqual(
    { kind: continued?.kind, agent: continued?.agent, input: continued?.input },
    {
      kind: 'continuation',
      agent: 'plan',
      input: 'The user chose to enter the Planning workflow. Research read-only and propose a plan.',
    },
  );
});

test('MODE-4: the planning suggestion answered with no choice continues without planning', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: 'Continuing without planning.' });
  const { session, events } = await h.start('build');
  await session.submit('Refactor the greeter');
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(await session.answer(asked.interviewId, []), { kind: 'ran', status: 'idle' });
  assert.equal(session.state.agent, 'build');
  assert.equal(
    of(events, 'turn.started').at(-1)?.input,
    'The user chose to continue without the Planning workflow. Carry on with the task.',
  );
});

test('MODE-4, INT-2: dismissing the planning suggestion leaves the session idle, without a model call', async () => {
  h.server.enqueue({ toolCalls: [suggest] });
  const { session, events } = await h.start('build');
  await session.submit('Refactor the greeter');
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(await session.dismissInterview(asked.interviewId), { kind: 'ran', status: 'idle' });
  const completed = of(events, 'turn.completed').at(-1);
  assert.deepEqual(
    { status: completed?.status, reason: completed?.reason },
    { status: 'idle', reason: 'Question dismissed; planning is idle and can be resumed.' },
  );
  assert.equal(h.server.requests.length, 1);
  assert.equal(session.state.pendingInterview, null);
});

/** Six research requests whose grep finds nothing: the seventh request is the synthesis pass (NAV-2, SYN-1). */
const fruitlessSearches = () =>
  Array.from({ length: 6 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `nothing-here-${i + 1}` }) }],
  }));

/** Planning whose synthesis allowance is spent: the SYN-3 recovery question is open. */
async function recoveryOpen() {
  h.server.enqueue(...fruitlessSearches(), { text: '' }, { text: 'Still thinking.' }, { text: 'No plan yet.' });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.match(asked.interviewId, /^recovery-/);
  return { session, events, asked };
}

test('SYN-3: "Retry from retained evidence" sends the write-up directive, tools closed', async () => {
  const { session, events, asked } = await recoveryOpen();
  h.server.enqueue({ text: planText(VALID_PLAN) });
  await session.answer(asked.interviewId, [{ questionId: 'recovery', label: RECOVERY_CHOICES[0] }]);
  const directive = of(events, 'directive').at(-1);
  assert.deepEqual(
    { kind: directive?.kind, text: directive?.text, toolsClosed: directive?.toolsClosed },
    {
      kind: 'synthesis',
      text: 'Write the plan now from the evidence already gathered, as one <proposed_plan> block. Do not call tools.',
      toolsClosed: true,
    },
  );
});

for (const [label, reason] of [
  [RECOVERY_CHOICES[1], 'Type the clarification in the composer; planning continues with it.'],
  [RECOVERY_CHOICES[2], 'Choose another model ("VT Code: Select Model"), then retry.'],
] as const) {
  test(`SYN-3: "${label}" sends nothing on its own: planning is idle and says what to do next`, async () => {
    const { session, events, asked } = await recoveryOpen();
    const requests = h.server.requests.length;
    assert.deepEqual(await session.answer(asked.interviewId, [{ questionId: 'recovery', label }]), {
      kind: 'ran',
      status: 'idle',
    });
    const completed = of(events, 'turn.completed').at(-1);
    assert.deepEqual({ status: completed?.status, reason: completed?.reason }, { status: 'idle', reason });
    assert.equal(h.server.requests.length, requests, 'no model call');
    assert.equal(session.state.agent, 'plan');
  });
}
