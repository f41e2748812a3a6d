/**
 * Where a turn stops (runloop.ts, turn/request.ts): a user stop mid-answer or mid-batch ends the
 * turn before anything else is asked or shown (EXEC-5), and a continued batch that pauses again
 * is not followed by a model request (EXEC-3).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMIT_GRANT } from '../../../src/core/session/runloop';
import { LIMITS, of, read, useHarness } from './harness';

const h = useHarness();

test('EXEC-5, PLAN-1: a turn stopped mid-answer shows only the text already released: held-back markup is not flushed and no message is completed', async () => {
  h.server.enqueue({ text: ['Working on it <propo'], hang: true });
  const { session, events } = await h.start('plan');
  const pending = session.submit('Plan it');
  while (!of(events, 'message.delta').length) await new Promise((r) => setTimeout(r, 10));
  session.stop();
  assert.deepEqual(await pending, { kind: 'ran', status: 'cancelled' });
  assert.equal(
    of(events, 'message.delta')
      .map((e) => e.text)
      .join(''),
    'Working on it ',
  );
  assert.equal(of(events, 'message.completed').length, 0);
});

test('EXEC-5, EXEC-3: a stop during a tool batch ends the turn before the next round-trip: no loop-limit prompt is opened', async () => {
  // Loop limit 1: the next round-trip would need a grant, so a turn that went on would ask for one.
  h.server.enqueue({ toolCalls: [read(1)] }, { text: 'never requested' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, loopsPerTurn: 1 } }));
  session.on((e) => {
    if (e.type === 'tool.call') session.stop();
  });
  assert.deepEqual(await session.submit('Read the README'), { kind: 'ran', status: 'cancelled' });
  assert.match(of(events, 'tool.blocked')[0]?.reason ?? '', /^Not run: the turn stopped/);
  assert.equal(of(events, 'interview.requested').length, 0);
  assert.equal(of(events, 'turn.suspended').length, 0);
  assert.equal(session.state.pendingInterview, null);
  assert.equal(h.server.requests.length, 1);
});

test('EXEC-3: a granted batch that reaches the raised session limit pauses again, before any model request', async () => {
  h.server.enqueue(
    { toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] },
    { text: 'never requested' },
  );
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 1 } }));
  assert.deepEqual(await session.submit('Read three files'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1)!;
  const r = await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]);
  assert.deepEqual(r, { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(
    of(events, 'turn.suspended').map((s) => s.calls.map((c) => c.callId)),
    [['call_r2', 'call_r3'], ['call_r3']],
  );
  assert.deepEqual(
    of(events, 'tool.result').map((x) => x.callId),
    ['call_r1', 'call_r2'],
  );
  assert.equal(h.server.requests.length, 1, 'the paused batch asks the user, not the model');
});
