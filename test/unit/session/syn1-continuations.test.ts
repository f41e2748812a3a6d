/**
 * SYN-1: once a guard closed the turn's tools, a continuation of the same turn (a granted limit
 * prompt, EXEC-3) and a resumed session keep them closed and share the turn's one allowance. The
 * route into a tool-free pass here: build with blocked-call cap 1, so two blocked writes trip the
 * fuse and the recovery pass starts (FUSE-1); with two loops per turn the recovery request is the
 * last one before the loop-limit prompt.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMIT_GRANT } from '../../../src/core/session/runloop';
import { Session } from '../../../src/core/session/session';
import { EventSequencer, type EventInput, type SessionEvent } from '../../../src/core/session/events';
import { initialState, replay, type SessionState } from '../../../src/core/session/state';
import { LIMITS, of, useHarness } from './harness';

const h = useHarness();

/** A write outside the workspace: always blocked. */
const outside = { name: 'write_file', arguments: '{"path":"../outside.txt","content":"x"}' };
const limits = { ...LIMITS, maxConsecutiveBlocked: 1, loopsPerTurn: 2 };

const toolChoices = (): (string | undefined)[] => h.server.requests.map((_, i) => h.body(i).tool_choice);

/** Runs a build session into the recovery pass and up to the loop-limit prompt; returns the prompt's id. */
async function pauseInRecovery(): Promise<{ session: Session; events: SessionEvent[]; prompt: string }> {
  const { session, events } = await h.start('build', h.deps({ limits }));
  assert.deepEqual(await session.submit('Write outside the workspace'), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(
    of(events, 'directive').map((d) => [d.kind, d.toolsClosed]),
    [['recovery', true]],
  );
  assert.equal(session.state.suspended?.reason, 'tool_loop');
  return { session, events, prompt: session.state.pendingInterview!.interviewId };
}

const grant = (session: Session, prompt: string) =>
  session.answer(prompt, [{ questionId: 'tool_loop', label: LIMIT_GRANT }]);

test('SYN-1, EXEC-3: a continuation after the loop-limit prompt keeps a recovery pass tool-free', async () => {
  h.server.enqueue({ toolCalls: [outside, outside] }, { toolCalls: [outside] }, { text: 'Nothing was written.' });
  const { session, events, prompt } = await pauseInRecovery();
  assert.deepEqual(await grant(session, prompt), { kind: 'ran', status: 'idle' });
  assert.deepEqual(toolChoices(), ['auto', 'none', 'none'], 'the continuation does not reopen research');
  assert.equal(of(events, 'message.completed').at(-1)?.text, 'Nothing was written.');
});

test('SYN-1, EXEC-3: a tool call in a continued recovery pass is counted by the recovery fuse, as before the prompt', async () => {
  h.server.enqueue(
    { toolCalls: [outside, outside] },
    { toolCalls: [outside] },
    { toolCalls: [{ id: 'call_after', ...outside }] },
    { text: 'Nothing was written.' },
  );
  const { session, events, prompt } = await pauseInRecovery();
  await grant(session, prompt);
  const refused = of(events, 'tool.blocked').find((b) => b.callId === 'call_after');
  assert.equal(refused?.policy, 'fuse', 'still the recovery pass, not research or a synthesis pass');
  assert.deepEqual(toolChoices(), ['auto', 'none', 'none', 'none']);
});

test('SYN-1, EXEC-3: a continuation shares the allowance: once it is spent the runtime asks how to continue (SYN-3), with no further request', async () => {
  h.server.enqueue(
    { toolCalls: [outside, outside] },
    // The recovery request: one transport retry and a tool call spend two units before the prompt.
    { status: 500, errorMessage: 'overloaded' },
    { toolCalls: [outside] },
    // After the grant: the third unit. A fresh allowance would ask twice more.
    { toolCalls: [outside] },
    { text: 'never requested' },
    { text: 'never requested' },
  );
  const { session, events, prompt } = await pauseInRecovery();
  assert.deepEqual(await grant(session, prompt), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(toolChoices(), ['auto', 'none', 'none', 'none']);
  assert.equal(of(events, 'planning.awaiting_input').at(-1)?.reason, 'The recovery allowance is used up.');
  assert.match(session.state.pendingInterview?.interviewId ?? '', /^recovery-/);
});

test('SYN-1, ADD-4: a session resumed at the loop-limit prompt keeps the recovery pass tool-free and its spent allowance', async () => {
  h.server.enqueue(
    { toolCalls: [outside, outside] },
    { status: 500, errorMessage: 'overloaded' },
    { toolCalls: [outside] },
    { toolCalls: [outside] },
    { text: 'never requested' },
  );
  const { session, prompt } = await pauseInRecovery();
  await session.close();
  const resumed = await Session.resume(h.deps({ limits }), session.id);
  const events = h.watch(resumed);
  assert.equal(resumed.state.pendingInterview?.interviewId, prompt);
  assert.deepEqual(await grant(resumed, prompt), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(toolChoices(), ['auto', 'none', 'none', 'none'], 'the resumed continuation stays tool-free');
  assert.equal(of(events, 'planning.awaiting_input').at(-1)?.reason, 'The recovery allowance is used up.');
});

test('SYN-1, ADD-4: the event fold keeps the closed pass and the allowance it spent for the rest of the turn, and a new turn starts with tools open', () => {
  const seq = new EventSequencer('s', { now: () => 1_700_000_000_000 });
  const stamp = (input: EventInput, newTurn = false): SessionEvent => {
    if (newTurn) seq.beginTurn();
    return seq.stamp(input);
  };
  const answered: EventInput = { type: 'message.completed', text: 'No.', finishReason: 'stop' };
  const failure = { kind: 'http', provider: 'p', status: 500, retryable: true, message: 'overloaded' } as const;
  const closing = (kind: 'synthesis' | 'recovery' | 'repair' | 'handoff', toolsClosed: boolean): EventInput => ({
    type: 'directive',
    kind,
    text: kind,
    allowanceUsed: 0,
    toolsClosed,
  });
  const log: SessionEvent[] = [];
  const after = (...inputs: (EventInput | SessionEvent)[]): Pick<SessionState, 'closedPass' | 'allowanceUsed'> => {
    for (const input of inputs) log.push('seq' in input ? input : stamp(input));
    const { closedPass, allowanceUsed } = replay(
      initialState({ id: 's', workspace: '/w', provider: 'p', model: 'm', agent: 'build' }),
      log,
    );
    return { closedPass, allowanceUsed };
  };
  const state = (closedPass: SessionState['closedPass'], allowanceUsed: number) => ({ closedPass, allowanceUsed });

  assert.deepEqual(
    after(stamp({ type: 'turn.started', agent: 'build', kind: 'user', input: 'go' }, true), answered),
    state(null, 0),
  );
  assert.deepEqual(after(closing('repair', false), answered), state(null, 0), 'a repair request keeps research open');
  assert.deepEqual(after(closing('recovery', true), answered), state('recovery', 1));
  assert.deepEqual(after({ type: 'provider.retry', retry: 1, delayMs: 0, failure }), state('recovery', 2));
  assert.deepEqual(
    after(closing('synthesis', true), closing('handoff', false)),
    state('recovery', 2),
    'recovery stays recovery',
  );
  assert.deepEqual(after({ type: 'provider.failed', failure }), state('recovery', 3));
  assert.deepEqual(
    after({ type: 'turn.started', agent: 'build', kind: 'continuation' }, answered),
    state('recovery', 4),
    'a continuation of the same turn keeps both',
  );
  assert.deepEqual(
    after(stamp({ type: 'turn.started', agent: 'build', kind: 'user', input: 'again' }, true)),
    state(null, 0),
  );
  assert.deepEqual(after(closing('synthesis', true), answered), state('synthesis', 1));
  assert.deepEqual(
    after(closing('recovery', true)),
    state('recovery', 1),
    'a fuse trip in a synthesis pass starts recovery',
  );
});
