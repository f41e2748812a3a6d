/**
 * INT-1, INT-2, EXEC-3, EXEC-5: a question is shown as soon as `interview.requested` is heard, but
 * the turn that asked is still ending (a limit prompt's suspension is recorded after the question).
 * An answer or a dismissal that arrives in that window waits for that end and is then taken like
 * one given later. (Before: a grant in that window was taken for a runtime question's answer, the
 * question closed and the paused call was left without a question.)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Session } from '../../../src/core/session/session';
import { LIMIT_GRANT } from '../../../src/core/session/runloop';
import { LIMITS, of, read, useHarness } from './harness';

const h = useHarness();

const question = {
  id: 'call_q1',
  name: 'request_user_input',
  arguments: JSON.stringify({
    questions: [{ id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] }],
  }),
};

/** Calls `act` the moment the question is heard, while the asking turn is still running. */
function actOnQuestion<T>(session: Session, act: (interviewId: string) => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const off = session.on((e) => {
      if (e.type !== 'interview.requested') return;
      off();
      assert.equal(session.busy, true, 'the asking turn is still running when the question is heard');
      act(e.interviewId).then(resolve, reject);
    });
  });
}

test('INT-1: an answer arriving before the asking turn has ended waits for that end and continues the turn', async () => {
  h.server.enqueue({ toolCalls: [question] }, { text: 'Shouting it is.' });
  const { session, events } = await h.start('plan');
  const early = actOnQuestion(session, (id) => session.answer(id, [{ questionId: 'style', label: 'Yes' }]));
  assert.deepEqual(await session.submit('Make it shout'), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(await early, { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'interview.resolved').map((r) => r.interviewId),
    ['call_q1'],
  );
  assert.equal(session.state.pendingInterview, null);
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'continuation');
  assert.equal(h.server.requests.length, 2);
});

test('INT-2: a dismissal arriving before the asking turn has ended waits for that end, closes the question and continues without an answer', async () => {
  h.server.enqueue({ toolCalls: [question] }, { text: 'Going with upper case.' });
  const { session, events } = await h.start('plan');
  const early = actOnQuestion(session, (id) => session.dismissInterview(id));
  assert.deepEqual(await session.submit('Make it shout'), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(await early, { kind: 'ran', status: 'idle' });
  assert.equal(session.state.pendingInterview, null);
  assert.deepEqual(
    of(events, 'interview.resolved').map((r) => [r.interviewId, r.cancelled, r.answers]),
    [['call_q1', true, undefined]],
  );
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'continuation');
  assert.equal(h.server.requests.length, 2);
});

test("EXEC-3: a grant arriving before the limit prompt's turn has ended waits for that end; the paused call runs", async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] }, { text: 'Done.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  const early = actOnQuestion(session, (id) =>
    session.answer(id, [{ questionId: 'session_calls', label: LIMIT_GRANT }]),
  );
  assert.deepEqual(await session.submit('Read three files'), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(await early, { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'session_tool_limit_increased').length, 1);
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3'],
  );
});
