/**
 * ADD-4: replaying a log rebuilds exactly the state that applying its events one by one gives,
 * although replay adds messages to its own history in place (issue 16 item 3: a 10,000-event
 * resume copied the history once per event), and leaves the state it started from untouched.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventSequencer, type EventInput, type SessionEvent } from '../../../src/core/session/events';
import { applyEvent, initialState, replay, type SessionState } from '../../../src/core/session/state';

function events(): SessionEvent[] {
  const seq = new EventSequencer('s', { now: () => 1_700_000_000_000 });
  const inputs: EventInput[] = [
    { type: 'session.started', agent: 'plan', provider: 'p', model: 'm', workspace: '/w', resumed: false },
    // A call before any assistant message has nothing to attach to.
    { type: 'tool.call', callId: 'orphan', name: 'read_file', arguments: '{}' },
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'look around' },
    { type: 'message.completed', text: 'Reading.', finishReason: 'tool_calls' },
    { type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
    { type: 'tool.call', callId: 'c2', name: 'grep', arguments: '{"pattern":"x"}' },
    { type: 'tool.result', callId: 'c1', name: 'read_file', ok: true, content: '1: a' },
    { type: 'tool.blocked', callId: 'c2', name: 'grep', reason: 'blocked' },
    { type: 'directive', kind: 'synthesis', text: 'synthesise now', allowanceUsed: 2, toolsClosed: true },
    { type: 'message.completed', text: 'Asking.', finishReason: 'tool_calls' },
    { type: 'tool.call', callId: 'q1', name: 'request_user_input', arguments: '{}' },
    {
      type: 'interview.requested',
      interviewId: 'q1',
      source: 'model',
      questions: [{ id: 'a', question: 'Which?', options: [{ label: 'One' }], allowFreeform: false }],
    },
    { type: 'interview.resolved', interviewId: 'q1', answers: [{ questionId: 'a', label: 'One' }], cancelled: false },
    { type: 'turn.completed', status: 'idle' },
    { type: 'context.reset', trigger: 'user', planPreserved: false, previousContextUsage: 0.4, toolBudgetReset: true },
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'again' },
    { type: 'message.completed', text: 'Done.', finishReason: 'stop' },
    { type: 'turn.completed', status: 'idle' },
  ];
  return inputs.map((input) => {
    if (input.type === 'turn.started') seq.beginTurn();
    return seq.stamp(input);
  });
}

test('ADD-4: replay gives the state of applying each event in turn, and leaves its starting state as it was', () => {
  const start: SessionState = {
    ...initialState({ id: 's', workspace: '/w', provider: 'p', model: 'm', agent: 'plan' }),
    history: [{ role: 'user', content: 'before' }],
  };
  const snapshot = structuredClone(start);
  const all = events();
  const stepwise = all.reduce((state, event) => applyEvent(state, event), start);
  assert.deepEqual(replay(start, all), stepwise);
  assert.deepEqual(start, snapshot, 'the starting state is untouched');
  // Every prefix too: the in-place history must match at each step, not only at the end.
  for (let n = 0; n <= all.length; n++)
    assert.deepEqual(
      replay(start, all.slice(0, n)),
      all.slice(0, n).reduce((s, e) => applyEvent(s, e), start),
      `after ${n} events`,
    );
  assert.deepEqual(
    stepwise.history.map((m) => m.role),
    ['user', 'assistant'],
    'the reset cleared what came before it; the second turn added its input and answer',
  );
});
