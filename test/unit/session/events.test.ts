import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventSequencer, SessionEventSchema, type EventInput } from '../../../src/core/session/events';
import type { Clock } from '../../../src/core/ports';

function fakeClock(start = Date.parse('2026-11-29T10:00:00Z')): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

/** One of every event type, as a producer would write it. */
const SAMPLES: EventInput[] = [
  {
    type: 'session.started',
    agent: 'plan',
    provider: 'openai',
    model: 'qwen2.5-coder',
    workspace: '/ws',
    resumed: false,
  },
  { type: 'mode.changed', from: 'build', to: 'plan', switchPath: 'plan_entry' },
  { type: 'planning.requested', command: '/plan' },
  { type: 'turn.started', agent: 'plan', kind: 'user', input: 'plan a cache' },
  { type: 'message.delta', text: 'Looking' },
  { type: 'message.completed', text: 'Looking.', finishReason: 'stop' },
  { type: 'reasoning.delta', text: 'private' },
  { type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
  { type: 'tool.result', callId: 'c1', name: 'read_file', ok: true, content: 'A' },
  {
    type: 'tool.blocked',
    callId: 'c2',
    name: 'write_file',
    reason: 'Mutation blocked: plan mode is read-only',
    policy: 'read_only',
  },
  { type: 'plan.delta', text: '# Plan' },
  { type: 'plan.completed', text: '# Plan\n' },
  {
    type: 'plan.rejected',
    reasons: [
      { code: 'missing_section', message: 'Summary is missing', line: 1 },
      {
        code: 'step_missing_verify',
        message: 'step 2 has no verify:',
        step: 2,
        section: 'Implementation Steps',
        line: 9,
      },
    ],
    attempt: 1,
    draft: '# Plan',
    final: false,
  },
  { type: 'plan.persisted', planFile: '.vtcode/plans/cache.md', title: 'Cache' },
  { type: 'plan.approval.requested', planFile: '.vtcode/plans/cache.md', trackerFile: '.vtcode/plans/cache.tasks.md' },
  { type: 'plan.approval.resolved', choice: 'fresh_context', automatic: false },
  {
    type: 'interview.requested',
    interviewId: 'i1',
    source: 'model',
    questions: [
      {
        id: 'q1',
        question: 'Which store?',
        options: [{ label: 'Redis', recommended: true }, { label: 'Memory' }],
        allowFreeform: true,
      },
    ],
  },
  { type: 'interview.resolved', interviewId: 'i1', answers: [{ questionId: 'q1', label: 'Redis' }], cancelled: false },
  {
    type: 'planning.awaiting_input',
    reason: 'synthesis exhausted',
    choices: ['Retry from retained evidence', 'Add clarification', 'Choose another model'],
  },
  {
    type: 'tracker.updated',
    trackerFile: '.vtcode/plans/cache.tasks.md',
    total: 3,
    completed: 1,
    inProgress: 1,
    blocked: 0,
  },
  { type: 'budget_exhausted', kind: 'tool_loop', used: 60, max: 60 },
  { type: 'session_tool_limit_increased', previous: 200, limit: 300 },
  { type: 'tool_loop_limit_increased', previous: 60, limit: 110, automatic: true },
  {
    type: 'turn.suspended',
    reason: 'session_calls',
    interviewId: 'session-limit-3-500',
    calls: [
      { callId: 'c7', name: 'read_file', arguments: '{"path":"a"}' },
      { callId: 'c8', name: 'grep', arguments: '{"pattern":"x"}' },
    ],
    firstCallEmitted: true,
  },
  { type: 'interview.denied', dismissals: 2 },
  { type: 'interview.resolved', interviewId: 'i2', cancelled: true, superseded: true },
  {
    type: 'context.reset',
    trigger: 'fresh_context',
    planPreserved: true,
    previousContextUsage: 0.07,
    toolBudgetReset: true,
  },
  { type: 'handoff.phase', phase: 'restoring' },
  {
    type: 'provider.retry',
    retry: 1,
    delayMs: 250,
    failure: { kind: 'http', provider: 'openai', status: 500, retryable: true, message: 'HTTP 500' },
  },
  {
    type: 'provider.failed',
    failure: { kind: 'transport', provider: 'anthropic', retryable: true, message: 'ECONNRESET', attempts: 4 },
  },
  {
    type: 'directive',
    kind: 'repair',
    text: 'Fix step 2: it has no verify item.',
    allowanceUsed: 0,
    toolsClosed: false,
  },
  { type: 'notice', level: 'warning', text: 'A turn is running; /plan was not sent.', switchPath: 'plan_entry' },
  { type: 'turn.completed', status: 'awaiting_approval' },
];

test('EVT-1: every event type round-trips through the schema with its envelope', () => {
  const seq = new EventSequencer('s1', fakeClock());
  const types = new Set<string>();
  for (const input of SAMPLES) {
    const event = seq.stamp(input);
    types.add(event.type);
    assert.deepEqual(SessionEventSchema.parse(JSON.parse(JSON.stringify(event))), event);
  }
  const declared = SessionEventSchema.options.map((o) => o.shape.type.value);
  assert.deepEqual([...types].sort(), [...declared].sort(), 'a sample for every declared event type');
  for (const required of [
    'plan.delta',
    'plan.approval.requested',
    'plan.approval.resolved',
    'context.reset',
    'budget_exhausted',
    'session_tool_limit_increased',
    'tool_loop_limit_increased',
  ]) {
    assert.ok(types.has(required), required);
  }
});

test('EVT-1: the sequencer stamps session, turn, strictly increasing seq and ISO time', () => {
  const clock = fakeClock();
  const seq = new EventSequencer('s1', clock);
  const a = seq.stamp({
    type: 'session.started',
    agent: 'plan',
    provider: 'openai',
    model: 'm',
    workspace: '/ws',
    resumed: false,
  });
  seq.beginTurn();
  clock.advance(1500);
  const b = seq.stamp({ type: 'turn.started', agent: 'plan', kind: 'user' });
  assert.deepEqual([a.session, a.turn, a.seq, a.ts], ['s1', 0, 0, '2026-11-29T10:00:00.000Z']);
  assert.deepEqual([b.session, b.turn, b.seq, b.ts], ['s1', 1, 1, '2026-11-29T10:00:01.500Z']);
  const resumed = new EventSequencer('s1', clock, { seq: 41, turn: 7 });
  const c = resumed.stamp({ type: 'message.delta', text: 'x' });
  assert.deepEqual([c.turn, c.seq], [7, 42]);
  assert.equal(resumed.beginTurn(), 8);
});

test('EVT-1: approval choices are exactly the seven of the spec, plus `automatic`', () => {
  const seq = new EventSequencer('s1', fakeClock());
  for (const choice of [
    'execute',
    'fresh_context',
    'switch_build',
    'switch_auto',
    'revise',
    'cancel',
    'auto_accept',
  ] as const) {
    assert.equal(seq.stamp({ type: 'plan.approval.resolved', choice, automatic: true }).type, 'plan.approval.resolved');
  }
  assert.throws(
    () => seq.stamp({ type: 'plan.approval.resolved', choice: 'approve' as 'execute', automatic: false }),
    /choice/,
  );
});

test('EVT-1: malformed events are refused with the offending field, and the seq is not consumed', () => {
  const seq = new EventSequencer('s1', fakeClock());
  assert.throws(
    () => seq.stamp({ type: 'budget_exhausted', kind: 'wall_clock' as 'tool_calls', used: 1, max: 1 }),
    /kind/,
  );
  assert.throws(() => seq.stamp({ type: 'turn.completed', status: 'done' as 'idle' }), /status/);
  assert.throws(
    () => seq.stamp({ type: 'message.delta', text: 'x', extra: 1 } as unknown as EventInput),
    /extra|Unrecognized/,
  );
  assert.equal(seq.stamp({ type: 'message.delta', text: 'ok' }).seq, 0);
  assert.equal(
    SessionEventSchema.safeParse({ type: 'message.delta', text: 'x', session: 's', turn: 0, seq: 0, ts: 'yesterday' })
      .success,
    false,
  );
});

test('EVT-1: turn.completed carries one of the six statuses', () => {
  const seq = new EventSequencer('s1', fakeClock());
  for (const status of ['idle', 'awaiting_approval', 'awaiting_input', 'blocked', 'cancelled', 'failed'] as const) {
    assert.equal(seq.stamp({ type: 'turn.completed', status }).type, 'turn.completed');
  }
});
