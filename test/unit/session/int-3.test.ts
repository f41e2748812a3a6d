/**
 * INT-3: a permanent denial of request_user_input is recorded for the session and suppresses
 * later questions; one bounded synthesis retry follows; without a valid plan planning waits with
 * a keep-planning message and no approval events.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { INTERVIEW_DENIAL_DISMISSALS } from '../../../src/core/session/runloop';
import { Session } from '../../../src/core/session/session';
import { of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const ask = (n: number) => ({
  toolCalls: [
    {
      id: `call_q${n}`,
      name: 'request_user_input',
      arguments: JSON.stringify({
        questions: [{ id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] }],
      }),
    },
  ],
});

/** Two questions dismissed; the model then asks a third time. */
async function denyTwice(after: Parameters<typeof h.server.enqueue>) {
  h.server.enqueue(ask(1), ask(2), ask(3), ...after);
  const { session, events } = await h.start('plan');
  await session.submit('Make the greeter shout');
  await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  assert.equal(of(events, 'interview.denied').length, 0, 'one dismissal is not a permanent denial');
  const result = await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  return { session, events, result };
}

test('INT-3: a second dismissal is recorded as a permanent denial; the next question is denied without asking and one synthesis retry yields the plan', async () => {
  assert.equal(INTERVIEW_DENIAL_DISMISSALS, 2);
  const { session, events, result } = await denyTwice([{ text: planText(VALID_PLAN) }]);
  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_approval' });
  assert.deepEqual(
    of(events, 'interview.denied').map((e) => e.dismissals),
    [2],
  );
  assert.equal(of(events, 'interview.requested').length, 2, 'the third question was never shown');
  const denied = of(events, 'tool.blocked').find((b) => b.callId === 'call_q3');
  assert.equal(denied?.policy, 'interview');
  assert.match(denied?.reason ?? '', /^Denied: the user turned down clarification questions/);
  assert.equal(of(events, 'directive').at(-1)?.kind, 'synthesis');
  assert.equal(h.body(3).tool_choice, 'none', 'the retry is tool-free');
  assert.equal(session.state.interviewsDenied, true);
});

test('INT-3: without a valid plan after the one retry, planning stays active with a keep-planning message and no approval events', async () => {
  const { session, events, result } = await denyTwice([
    { text: 'I would really need to know the casing first.' },
    { text: 'never requested' },
  ]);
  assert.deepEqual(result, { kind: 'ran', status: 'idle' });
  assert.equal(h.server.requests.length, 4, 'exactly one synthesis retry');
  assert.equal(session.state.agent, 'plan');
  assert.match(of(events, 'turn.completed').at(-1)?.reason ?? '', /No valid plan yet.*Keep planning/);
  assert.doesNotMatch(of(events, 'turn.completed').at(-1)?.reason ?? '', /implement/i);
  assert.equal(of(events, 'plan.approval.requested').length, 0);
  assert.equal(of(events, 'plan.approval.resolved').length, 0);
  assert.equal(
    of(events, 'interview.requested').filter((i) => i.source === 'runtime').length,
    0,
    'no recovery interview either',
  );
  assert.deepEqual(h.plansOnDisk(), []);
});

test('INT-3: an invalid plan from the retry is rejected visibly and planning waits; nothing claims readiness', async () => {
  const { session, events } = await denyTwice([
    { text: planText('# Shout\n\n## Summary\nShout.\n\n## Implementation Steps\n1. Do it') },
    { text: 'never requested' },
  ]);
  assert.equal(session.state.status, 'idle');
  assert.equal(of(events, 'plan.rejected').length, 1);
  assert.equal(h.server.requests.length, 4, 'no repair request after the one retry');
  assert.equal(of(events, 'plan.approval.requested').length, 0);
});

test('INT-3, ADD-4: the denial survives a resume; later questions are still denied without asking', async () => {
  const { session } = await denyTwice([{ text: 'No plan.' }]);
  const resumed = await Session.resume(h.deps(), session.id);
  const all = h.watch(resumed);
  assert.equal(resumed.state.interviewsDenied, true);
  h.server.enqueue(ask(4), { text: planText(VALID_PLAN) });
  assert.deepEqual(await resumed.submit('Try again'), { kind: 'ran', status: 'awaiting_approval' });
  const events = all.slice(resumed.replayedCount);
  assert.equal(of(events, 'interview.requested').length, 0);
  assert.equal(of(events, 'tool.blocked').find((b) => b.callId === 'call_q4')?.policy, 'interview');
});

test('INT-1: answering questions never counts towards the denial', async () => {
  h.server.enqueue(ask(1), ask(2), ask(3), { text: 'Thanks.' });
  const { session, events } = await h.start('plan');
  await session.submit('Shout');
  await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  await session.answer(of(events, 'interview.requested').at(-1)!.interviewId, [{ questionId: 'style', label: 'Yes' }]);
  assert.equal(of(events, 'interview.requested').length, 3, 'the third question is still asked');
  assert.equal(session.state.interviewsDenied, false);
});

test("INT-3: a question withdrawn by a new /plan request is not the user's dismissal", async () => {
  h.server.enqueue(ask(1), ask(2), ask(3), ask(4));
  const { session, events } = await h.start('plan');
  await session.submit('Shout');
  await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  await session.submit('/plan something else'); // withdraws question 2
  assert.equal(of(events, 'interview.resolved').at(-1)?.superseded, true);
  await session.submit('/plan and another thing'); // withdraws question 3
  assert.equal(session.state.interviewDismissals, 1);
  assert.equal(session.state.interviewsDenied, false);
  assert.equal(of(events, 'interview.requested').length, 4, 'question 4 is still asked');
});
