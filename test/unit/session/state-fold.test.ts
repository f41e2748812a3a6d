/**
 * The session state as a fold over its events (EVT-1, ADD-4), field by field: what each event
 * does to the state a resumed session is rebuilt from. The fold is applied to logs written by
 * earlier versions too, so each rule here holds for any event order the schema allows, not only
 * the order today's Session writes (issue 19: the survivors of state.ts).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventSequencer, type EventInput } from '../../../src/core/session/events';
import { applyEvent, initialState, replay, type SessionState } from '../../../src/core/session/state';
import type { AgentMode } from '../../../src/core/vocabulary';
import { stampEvents } from '../../fixtures/events';

const start = (agent: AgentMode = 'plan'): SessionState =>
  initialState({ id: 's-1', workspace: '/ws', provider: 'openai', model: 'gpt-test', agent });

/** The state after `inputs`, stamped as a live session stamps them, from a new session in `agent`. */
const fold = (inputs: readonly EventInput[], agent: AgentMode = 'plan'): SessionState =>
  replay(start(agent), stampEvents(inputs));

/** The state after each of `inputs` in turn. */
const steps = (inputs: readonly EventInput[], agent: AgentMode = 'plan'): SessionState[] =>
  inputs.map((_, n) => fold(inputs.slice(0, n + 1), agent));

const userTurn = (input = 'go'): EventInput => ({ type: 'turn.started', agent: 'plan', kind: 'user', input });
const answer = (text: string): EventInput => ({ type: 'message.completed', text, finishReason: 'stop' });
const call = (callId: string, name = 'read_file'): EventInput => ({ type: 'tool.call', callId, name, arguments: '{}' });
const modeChange = (from: AgentMode, to: AgentMode): EventInput => ({ type: 'mode.changed', from, to });
const started = (agent: AgentMode): EventInput => ({
  type: 'session.started',
  agent,
  provider: 'openai',
  model: 'gpt-test',
  workspace: '/ws',
  resumed: false,
});

test('EVT-1: a new session has had no turn, status new, and has not been asked to implement', () => {
  const s = start();
  assert.deepEqual([s.turn, s.status, s.statusReason, s.askedToImplement], [0, 'new', null, false]);
});

test('MODE-2: /plan off returns to build when the session started planning, and to the agent it was started in otherwise', () => {
  assert.equal(start('plan').previousExecution, 'build');
  assert.equal(start('auto').previousExecution, 'auto');
  assert.equal(fold([started('plan')], 'plan').previousExecution, 'build');
  assert.equal(fold([started('auto')], 'build').previousExecution, 'auto', 'the logged start decides, not the default');
});

test('MODE-2: while planning, the agent /plan off returns to is the one planning was entered from, and never plan itself', () => {
  const inputs = [
    started('auto'),
    modeChange('auto', 'plan'),
    modeChange('plan', 'build'),
    modeChange('build', 'plan'),
    modeChange('plan', 'auto'),
  ];
  const after = steps(inputs, 'auto').map((s) => [s.agent, s.previousExecution]);
  for (const [agent, previous] of after) assert.notEqual(previous, 'plan', `in ${agent}`);
  assert.deepEqual(
    after.filter(([agent]) => agent === 'plan'),
    [
      ['plan', 'auto'],
      ['plan', 'build'],
    ],
  );
});

test('GATE-5: planning asked for by name stays explicit until planning ends, whichever of its two events comes first', () => {
  const requested: EventInput = { type: 'planning.requested', command: '/plan' };
  const explicit = (inputs: EventInput[]) => steps(inputs, 'build').map((s) => s.planningExplicit);
  assert.deepEqual(explicit([modeChange('build', 'plan'), requested, modeChange('plan', 'build')]), [
    false,
    true,
    false,
  ]);
  assert.deepEqual(explicit([requested, modeChange('build', 'plan'), modeChange('plan', 'build')]), [
    true,
    true,
    false,
  ]);
});

test('MODE-6: only a closing question about implementing counts as the agent asking to implement', () => {
  const asks = (text: string) => fold([userTurn(), answer(text)]).askedToImplement;
  for (const text of [
    'The plan is ready. Shall I implement it?',
    'Ready to code?',
    'Shall I start coding?',
    'Should I start the implementation?\n\n',
  ])
    assert.equal(asks(text), true, text);
  for (const text of [
    'I implemented the flag.',
    'Can I proceed? First, here is what I found in src/greet.js.',
    'The steps are documented at https://example.com/implement?lang=ts',
  ])
    assert.equal(asks(text), false, text);
});

test('MODE-6: the agent has asked to implement only until the next turn starts or the context is reset', () => {
  const asked = answer('Ready to code?');
  assert.deepEqual(
    steps([userTurn(), asked, userTurn('ok')]).map((s) => s.askedToImplement),
    [false, true, false],
  );
  const reset: EventInput = {
    type: 'context.reset',
    trigger: 'user',
    planPreserved: true,
    previousContextUsage: 0.2,
    toolBudgetReset: false,
  };
  assert.equal(fold([userTurn(), asked, reset]).askedToImplement, false);
});

test('SYN-3, EXEC-3: a turn adds its input to the history once; a synthesis pass carries it as its directive, a continuation has none', () => {
  const synthesis: EventInput[] = [
    { type: 'turn.started', agent: 'plan', kind: 'synthesis', input: 'Synthesise from the evidence.' },
    {
      type: 'directive',
      kind: 'synthesis',
      text: 'Synthesise from the evidence.',
      allowanceUsed: 0,
      toolsClosed: true,
    },
  ];
  assert.deepEqual(fold(synthesis).history, [{ role: 'user', content: 'Synthesise from the evidence.' }]);
  const continued = fold([
    userTurn('look'),
    answer('Looked.'),
    { type: 'turn.started', agent: 'plan', kind: 'continuation' },
  ]);
  assert.deepEqual(
    continued.history.map((m) => [m.role, m.content]),
    [
      ['user', 'look'],
      ['assistant', 'Looked.'],
    ],
  );
});

test('EXEC-1: the first turn the fold sees starts its own budgets and kind, even when numbered 0', () => {
  const seq = new EventSequencer('s-1', { now: () => 1_700_000_000_000 });
  const first = seq.stamp({
    type: 'turn.started',
    agent: 'build',
    kind: 'implementation',
    input: 'Implement the plan.',
  });
  assert.equal(first.turn, 0);
  const s = applyEvent({ ...start('build'), turnCalls: 3, turnLoops: 2 }, first);
  assert.deepEqual([s.turnKind, s.turnCalls, s.turnLoops], ['implementation', 0, 0]);
});

test('EXEC-3, NAV-1: a blocked call gives back the turn and session budget its tool.call took, and is an error result', () => {
  const calls = [userTurn(), answer('Reading.'), call('c1'), call('c2'), call('c3')];
  const s = fold(calls);
  assert.deepEqual([s.turnCalls, s.sessionCalls], [3, 3]);
  const after = fold([...calls, { type: 'tool.blocked', callId: 'c3', name: 'read_file', reason: 'no' }]);
  assert.deepEqual([after.turnCalls, after.sessionCalls], [2, 2]);
  assert.deepEqual(after.history.at(-1), {
    role: 'tool',
    toolCallId: 'c3',
    name: 'read_file',
    content: 'no',
    isError: true,
  });
});

test('EVT-1: a tool result is an error in the history exactly when the tool failed', () => {
  const result = (ok: boolean): EventInput => ({
    type: 'tool.result',
    callId: 'c1',
    name: 'read_file',
    ok,
    content: 'x',
  });
  const isError = (ok: boolean) => {
    const last = fold([userTurn(), answer('Reading.'), call('c1'), result(ok)]).history.at(-1);
    return last?.role === 'tool' ? last.isError : undefined;
  };
  assert.deepEqual([isError(true), isError(false)], [false, true]);
});

test('EVT-1: a tool call attaches to the assistant message that made it, also when that message opens the history', () => {
  const s = fold([{ type: 'turn.started', agent: 'plan', kind: 'repair' }, answer('Reading.'), call('c1')]);
  assert.deepEqual(s.history, [
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] },
  ]);
  assert.deepEqual([s.turnCalls, s.sessionCalls], [1, 1]);
});

test('EXEC-3: a failed model request counts as one of the turn loops', () => {
  const failed: EventInput = {
    type: 'provider.failed',
    failure: { kind: 'http', provider: 'openai', status: 500, retryable: true, message: 'HTTP 500' },
  };
  assert.deepEqual(
    steps([userTurn(), answer('One.'), failed]).map((s) => s.turnLoops),
    [0, 1, 2],
  );
});

test('EXEC-3: only a loop grant the user gave latches later grants; an automatic one does not', () => {
  const grant = (automatic: boolean): EventInput => ({
    type: 'tool_loop_limit_increased',
    previous: 60,
    limit: 110,
    automatic,
  });
  assert.deepEqual(
    steps([grant(true), grant(false), grant(true)]).map((s) => s.loopGrantLatched),
    [false, true, true],
  );
});

test('INT-2: a dismissed model question is answered to the model as dismissed, also when the resolution has no answers', () => {
  const asked: EventInput[] = [
    userTurn(),
    answer('Asking.'),
    call('q1', 'request_user_input'),
    {
      type: 'interview.requested',
      interviewId: 'q1',
      source: 'model',
      questions: [{ id: 'a', question: 'Which?', options: [{ label: 'One' }], allowFreeform: false }],
    },
  ];
  const reply = (cancelled: boolean) => {
    const s = fold([...asked, { type: 'interview.resolved', interviewId: 'q1', cancelled }]);
    assert.equal(s.pendingInterview, null);
    return s.history.at(-1);
  };
  const dismissed = reply(true);
  assert.ok(dismissed?.role === 'tool');
  assert.match(
    dismissed.content,
    /^The user dismissed the question without answering\. Do not ask it again this turn;/,
  );
  assert.deepEqual(
    { ...dismissed, content: '' },
    { role: 'tool', toolCallId: 'q1', name: 'request_user_input', content: '', isError: true },
  );
  assert.deepEqual(reply(false), { ...dismissed, isError: false });
});

test('EXEC-3: answering a runtime limit prompt ends the suspension and adds nothing to the model history', () => {
  const prompt: EventInput[] = [
    userTurn(),
    answer('Reading.'),
    call('c1'),
    {
      type: 'turn.suspended',
      reason: 'session_calls',
      interviewId: 'limit-1',
      calls: [{ callId: 'c1', name: 'read_file', arguments: '{}' }],
      firstCallEmitted: true,
    },
    {
      type: 'interview.requested',
      interviewId: 'limit-1',
      source: 'runtime',
      questions: [
        { id: 'session_calls', question: 'Grant 500 more?', options: [{ label: 'Grant' }], allowFreeform: false },
      ],
    },
  ];
  const before = fold(prompt);
  assert.equal(before.suspended?.interviewId, 'limit-1');
  const answered = fold([
    ...prompt,
    {
      type: 'interview.resolved',
      interviewId: 'limit-1',
      answers: [{ questionId: 'session_calls', label: 'Grant' }],
      cancelled: false,
    },
  ]);
  assert.deepEqual([answered.pendingInterview, answered.suspended], [null, null]);
  assert.deepEqual(answered.history, before.history);
});

test('EVT-1: a resolution with no question pending leaves the history as it was', () => {
  const s = fold([userTurn(), { type: 'interview.resolved', interviewId: 'gone', cancelled: true }]);
  assert.deepEqual([s.pendingInterview, s.history.length, s.interviewDismissals], [null, 1, 0]);
});

test('GATE-1: the active plan keeps its title; cancelling the approval drops the plan, revising keeps it', () => {
  const persisted: EventInput[] = [
    { type: 'plan.persisted', planFile: '.vtcode/plans/shout.md', title: 'Add a shout flag' },
    { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout.md' },
  ];
  const resolved = (choice: 'cancel' | 'revise') =>
    fold([...persisted, { type: 'plan.approval.resolved', choice, automatic: false }]);
  assert.deepEqual(fold(persisted).activePlan, { planFile: '.vtcode/plans/shout.md', title: 'Add a shout flag' });
  assert.deepEqual([resolved('cancel').activePlan, resolved('cancel').pendingApproval], [null, null]);
  assert.deepEqual(resolved('revise').activePlan, { planFile: '.vtcode/plans/shout.md', title: 'Add a shout flag' });
  assert.deepEqual(fold([{ type: 'plan.persisted', planFile: '.vtcode/plans/x.md' }]).activePlan, {
    planFile: '.vtcode/plans/x.md',
    title: null,
  });
});

test('EVT-1: a finished turn keeps the reason it gave for its status, and none when it gave none', () => {
  const done = (reason?: string): EventInput => ({
    type: 'turn.completed',
    status: 'blocked',
    ...(reason ? { reason } : {}),
  });
  assert.deepEqual(
    steps([userTurn(), done('The turn tool-call limit is reached.'), userTurn(), done()]).map((s) => [
      s.status,
      s.statusReason,
    ]),
    [
      ['running', null],
      ['blocked', 'The turn tool-call limit is reached.'],
      ['running', null],
      ['blocked', null],
    ],
  );
});

test('ADD-4: an applyEvent that owns the history adds to that array instead of copying it, so a long resume stays linear', () => {
  const [turn, said] = stampEvents([userTurn('look'), answer('Looked.')]);
  const owned = applyEvent(start(), turn!, true);
  const after = applyEvent(owned, said!, true);
  assert.equal(after.history, owned.history, 'the same array, one message longer');
  assert.equal(after.history.length, 2);
  const copied = applyEvent(owned, said!);
  assert.deepEqual(
    [copied.history.length, owned.history.length],
    [3, 2],
    'without ownership the array is copied on write',
  );
});
