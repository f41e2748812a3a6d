/**
 * The smaller promises of the `Session` object: its ids (ADD-4), unsubscribing a listener (EVT-1),
 * the context use the gate shows (GATE-1), input while a question is open (INT-2), the host's
 * retry options reaching model requests, and limit answers (EXEC-3): judged with the settings the
 * turn started with, and a denial ends the turn blocked saying which limit and how to go on.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMIT_DENY, LIMIT_GRANT } from '../../../src/core/session/runloop';
import { Session } from '../../../src/core/session/session';
import type { TurnLimits } from '../../../src/core/session/turn-settings';
import { LIMITS, of, read, settingsWith, useHarness } from './harness';

const h = useHarness();

test('ADD-4: a session id is the UTC start time to the second, then six random hex digits', () => {
  const clock = { now: () => Date.UTC(2026, 11, 2, 7, 3, 9, 456) };
  const id = Session.newId(clock);
  assert.match(id, /^20261202-070309-[0-9a-f]{6}$/);
  assert.notEqual(Session.newId(clock), id, 'two sessions started in the same second differ');
});

test('EVT-1: a listener removed with the function on() returned hears nothing more', async () => {
  const { session } = await h.start('plan');
  const heard: string[] = [];
  const off = session.on((e) => heard.push(e.type));
  await session.submit('');
  off();
  await session.submit('');
  assert.deepEqual(heard, ['notice']);
});

test('GATE-1: the context use grows with the conversation, as a fraction of the window', async () => {
  h.server.enqueue({ text: 'Noted.' });
  const { session } = await h.start('build');
  assert.equal(session.contextUsage(), 0);
  await session.submit('x'.repeat(12_800));
  const used = session.contextUsage();
  assert.ok(used >= 0.025 && used < 0.03, `a 12,800-character message is about 2.5% of 128k tokens: ${used}`);
});

test('INT-2: a message while a question is open is refused with a warning saying to answer or dismiss it', async () => {
  const question = {
    name: 'request_user_input',
    arguments: JSON.stringify({
      questions: [{ id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] }],
    }),
  };
  h.server.enqueue({ toolCalls: [question] });
  const { session, events } = await h.start('plan');
  await session.submit('Make it shout');
  const text = 'Answer the open question first (or dismiss it with Esc).';
  assert.deepEqual(await session.submit('Also whisper'), { kind: 'notice', text });
  assert.equal(of(events, 'notice').at(-1)?.level, 'warning');
  assert.equal(h.server.requests.length, 1);
});

test("ADD-1: a failed request is retried with the host's retry options (its sleep, its jitter)", async () => {
  const slept: number[] = [];
  h.server.enqueue({ status: 500, errorMessage: 'overloaded' }, { text: 'Done.' });
  const { session } = await h.start(
    'build',
    h.deps({ retry: { sleep: async (ms) => void slept.push(ms), random: () => 0 } }),
  );
  assert.deepEqual(await session.submit('Say done'), { kind: 'ran', status: 'idle' });
  assert.equal(slept.length, 1, 'one wait before the one retry');
  assert.equal(h.server.requests.length, 2);
});

/** A build session stopped at a session tool-call limit of 2, with settings the test can change. */
async function sessionLimitAsked() {
  const settings = { limits: { ...LIMITS, sessionToolCalls: 2 } as TurnLimits };
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] }, { text: 'Done.' });
  const { session, events } = await h.start('build', h.deps({ turnSettings: () => settingsWith(settings.limits) }));
  assert.deepEqual(await session.submit('Read three files'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1)!;
  return { session, events, settings, interviewId: asked.interviewId };
}

test('EXEC-3: a grant is judged by the settings its turn started with, not ones changed while the question was open', async () => {
  const { session, events, settings, interviewId } = await sessionLimitAsked();
  settings.limits = { ...LIMITS, sessionToolCalls: 10 };
  await session.answer(interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]);
  const raised = of(events, 'session_tool_limit_increased')[0];
  assert.deepEqual({ previous: raised?.previous, limit: raised?.limit }, { previous: 2, limit: 4 });
});

test('EXEC-3: a denied session limit ends the turn blocked, naming the limit', async () => {
  const { session, events, interviewId } = await sessionLimitAsked();
  await session.answer(interviewId, [{ questionId: 'session_calls', label: LIMIT_DENY }]);
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual(
    { status: end?.status, reason: end?.reason },
    { status: 'blocked', reason: 'The session tool-call limit (2) is reached; more calls were not granted.' },
  );
});

test('EXEC-3: a denied loop limit ends the turn blocked, naming the round-trips and how to go on', async () => {
  h.server.enqueue({ toolCalls: [read(1)] }, { toolCalls: [read(2)] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } }));
  await session.submit('Loop a bit');
  const asked = of(events, 'interview.requested').at(-1)!;
  await session.answer(asked.interviewId, [{ questionId: 'tool_loop', label: LIMIT_DENY }]);
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual(
    { status: end?.status, reason: end?.reason },
    {
      status: 'blocked',
      reason:
        'The turn used all 2 model round-trips; more were not granted. Send "continue" to keep going in a new turn.',
    },
  );
});
