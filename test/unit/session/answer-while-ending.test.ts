/**
 * INT-1, INT-2, EXEC-3, EXEC-5: a question is shown as soon as `interview.requested` is heard, but
 * the turn that asked is still ending (a limit prompt's suspension is recorded after the question).
 * An answer or a dismissal that arrives in that window is refused as busy before it touches the
 * question, so the question stays open and the same answer given after the turn ended is taken.
 * (Before: a grant in that window was taken for a runtime question's answer, the question closed and
 * the paused call was left without a question.)
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

/** Calls `act` the moment the question is heard and settles to the error's name (or 'accepted'). */
function actOnQuestion(session: Session, act: (interviewId: string) => Promise<unknown>): Promise<string> {
  return new Promise((resolve) => {
    const off = session.on((e) => {
      if (e.type !== 'interview.requested') return;
      off();
      act(e.interviewId).then(
        () => resolve('accepted'),
        (err: Error) => resolve(err.name),
      );
    });
  });
}

for (const [what, act] of [
  ['an answer', (s: Session, id: string) => s.answer(id, [{ questionId: 'style', label: 'Yes' }])],
  ['a dismissal', (s: Session, id: string) => s.dismissInterview(id)],
] as const) {
  test(`INT-1, INT-2: ${what} arriving before the asking turn has ended is refused as busy; the question stays open`, async () => {
    h.server.enqueue({ toolCalls: [question] }, { text: 'Shouting it is.' });
    const { session, events } = await h.start('plan');
    const early = actOnQuestion(session, (id) => act(session, id));
    assert.deepEqual(await session.submit('Make it shout'), { kind: 'ran', status: 'awaiting_input' });
    assert.equal(await early, 'SessionBusyError');
    assert.equal(of(events, 'interview.resolved').length, 0);
    assert.equal(session.state.pendingInterview?.interviewId, 'call_q1');

    assert.deepEqual(await session.answer('call_q1', [{ questionId: 'style', label: 'Yes' }]), {
      kind: 'ran',
      status: 'idle',
    });
    assert.equal(of(events, 'turn.started').at(-1)?.kind, 'continuation');
    assert.equal(h.server.requests.length, 2);
  });
}

test("EXEC-3: a grant arriving before the limit prompt's turn has ended is refused as busy; granted afterwards, the paused call runs", async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] }, { text: 'Done.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  const grant = (id: string) => session.answer(id, [{ questionId: 'session_calls', label: LIMIT_GRANT }]);
  const early = actOnQuestion(session, grant);
  assert.deepEqual(await session.submit('Read three files'), { kind: 'ran', status: 'awaiting_input' });
  assert.equal(await early, 'SessionBusyError');
  const asked = session.state.pendingInterview?.interviewId;
  assert.ok(asked, 'the limit question is still open');
  assert.equal(session.state.suspended?.interviewId, asked);
  assert.equal(of(events, 'interview.resolved').length, 0);

  assert.deepEqual(await grant(asked), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'session_tool_limit_increased').length, 1);
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3'],
  );
});
