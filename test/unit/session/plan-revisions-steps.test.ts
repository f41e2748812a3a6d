/**
 * GATE-2, EVT-1: what each event does to a plan file's revisions, step by step, as the chat's
 * transcript consumes it (`PlanRevisionLog.apply`): it renders a model's plan text as a draft but
 * not the user's re-read edit, and updates the plan card on a revision or an unchanged save.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { EventInput, EventOf, SessionEventType } from '../../../src/core/session/events';
import { PlanRevisionLog, type RevisionStep } from '../../../src/core/session/plan-revisions';
import { sessionStarted, stampEvents } from '../../fixtures/events';

const FILE = '.vtcode/plans/shout-flag.md';

/** The steps one log gives for `inputs`, stamped and applied in order. */
function steps(inputs: readonly EventInput[]): RevisionStep[] {
  const log = new PlanRevisionLog();
  return stampEvents(inputs).map((e) => log.apply(e));
}

type WithRevisionBranch = 'plan.completed' | 'plan.persisted' | 'plan.approval.requested';
type Quiet = Exclude<SessionEventType, WithRevisionBranch>;
type Input<T extends SessionEventType> = Omit<EventOf<T>, 'session' | 'turn' | 'seq' | 'ts'>;

/** One real event of every type that has no revision branch (the compiler asks for a new type). */
const QUIET: { [T in Quiet]: Input<T> } = {
  'session.started': sessionStarted(),
  'mode.changed': { type: 'mode.changed', from: 'build', to: 'plan', switchPath: 'plan_entry' },
  'planning.requested': { type: 'planning.requested', command: '/plan' },
  'turn.started': { type: 'turn.started', agent: 'plan', kind: 'user', input: 'add a --shout flag' },
  'message.delta': { type: 'message.delta', text: 'Looking' },
  'message.completed': { type: 'message.completed', text: 'Looking at the CLI.', finishReason: 'stop' },
  'reasoning.delta': { type: 'reasoning.delta', text: 'think' },
  'tool.call': { type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{"path":"cli.ts"}' },
  'tool.result': { type: 'tool.result', callId: 'c1', name: 'read_file', ok: true, content: 'x' },
  'tool.blocked': {
    type: 'tool.blocked',
    callId: 'c2',
    name: 'write_file',
    reason: 'Mutation blocked',
    policy: 'read_only',
  },
  'plan.delta': { type: 'plan.delta', text: '# Plan' },
  'plan.rejected': {
    type: 'plan.rejected',
    reasons: [{ code: 'no_steps', message: 'No steps.' }],
    attempt: 0,
    draft: '# Plan',
    final: false,
  },
  'plan.approval.resolved': { type: 'plan.approval.resolved', choice: 'revise', automatic: false, planFile: FILE },
  'interview.requested': {
    type: 'interview.requested',
    interviewId: 'i1',
    source: 'model',
    questions: [{ id: 'q1', question: 'Which?', options: [{ label: 'One' }], allowFreeform: false }],
  },
  'interview.resolved': {
    type: 'interview.resolved',
    interviewId: 'i1',
    answers: [{ questionId: 'q1', label: 'One' }],
    cancelled: false,
  },
  'planning.awaiting_input': { type: 'planning.awaiting_input', reason: 'stalled', choices: ['Retry'] },
  'tracker.updated': {
    type: 'tracker.updated',
    trackerFile: '.vtcode/plans/shout-flag.tracker.md',
    total: 3,
    completed: 1,
    inProgress: 1,
    blocked: 0,
  },
  budget_exhausted: { type: 'budget_exhausted', kind: 'tool_calls', used: 40, max: 40 },
  'turn.suspended': {
    type: 'turn.suspended',
    reason: 'tool_loop',
    interviewId: 'i2',
    calls: [],
    firstCallEmitted: false,
  },
  'interview.denied': { type: 'interview.denied', dismissals: 2 },
  session_tool_limit_increased: { type: 'session_tool_limit_increased', previous: 100, limit: 200 },
  tool_loop_limit_increased: { type: 'tool_loop_limit_increased', previous: 20, limit: 40, automatic: false },
  'context.reset': {
    type: 'context.reset',
    trigger: 'user',
    planPreserved: true,
    previousContextUsage: 0.4,
    toolBudgetReset: true,
  },
  'handoff.phase': { type: 'handoff.phase', phase: 'preparing' },
  'provider.retry': {
    type: 'provider.retry',
    retry: 1,
    delayMs: 500,
    failure: { kind: 'http', provider: 'openai', status: 503, retryable: true, message: 'unavailable' },
  },
  'provider.failed': {
    type: 'provider.failed',
    failure: { kind: 'transport', provider: 'openai', retryable: false, message: 'reset' },
  },
  directive: { type: 'directive', kind: 'synthesis', text: 'Write the plan.', allowanceUsed: 1, toolsClosed: true },
  notice: { type: 'notice', level: 'info', text: 'hello' },
  'turn.completed': { type: 'turn.completed', status: 'idle' },
};

test("EVT-1: every event type without a revision branch steps as { kind: 'none' }", () => {
  for (const [type, input] of Object.entries(QUIET) as [Quiet, EventInput][]) {
    assert.deepEqual(steps([input]), [{ kind: 'none' }], type);
  }
});

test("GATE-2: a plan text steps as a candidate from the planner inside a turn and from the editor outside one or when marked 'editor'", () => {
  assert.deepEqual(
    steps([
      // A log from before `source` existed: a text before any turn is a re-read save.
      { type: 'plan.completed', text: 'one' },
      QUIET['turn.started'],
      { type: 'plan.completed', text: 'two' },
      QUIET['turn.completed'],
      { type: 'plan.completed', text: 'three' },
      { type: 'plan.completed', text: 'four', source: 'editor' },
    ]),
    [
      { kind: 'candidate', source: 'editor' },
      { kind: 'none' },
      { kind: 'candidate', source: 'planner' },
      { kind: 'none' },
      { kind: 'candidate', source: 'editor' },
      { kind: 'candidate', source: 'editor' },
    ],
  );
});

test("GATE-2: the model's plan becomes a revision when plan.persisted names the file, not at an approval request before it", () => {
  const log = new PlanRevisionLog();
  const events = stampEvents([
    QUIET['turn.started'],
    { type: 'plan.completed', text: 'one' },
    { type: 'plan.approval.requested', planFile: FILE },
    { type: 'plan.persisted', planFile: FILE },
  ]);
  const [, , requested, persisted] = events.map((e) => log.apply(e));
  assert.deepEqual(requested, { kind: 'none' });
  assert.deepEqual(persisted, {
    kind: 'revision',
    revision: { planFile: FILE, number: 1, text: 'one', source: 'planner', seq: events[3]!.seq },
    previous: null,
  });
});

test('GATE-2: a rejected plan text steps as none and never becomes a revision, even when a plan file is persisted next', () => {
  const log = new PlanRevisionLog();
  const got = stampEvents([
    QUIET['turn.started'],
    { type: 'plan.completed', text: 'draft with a defect' },
    QUIET['plan.rejected'],
    { type: 'plan.persisted', planFile: FILE },
  ]).map((e) => log.apply(e));
  assert.deepEqual(got.slice(2), [{ kind: 'none' }, { kind: 'none' }]);
  assert.deepEqual(log.revisions(FILE), []);
});

test('GATE-2: plan.persisted with no plan text before it steps as none and adds no revision', () => {
  const log = new PlanRevisionLog();
  for (const e of stampEvents([QUIET['turn.started'], { type: 'plan.persisted', planFile: FILE }])) {
    assert.deepEqual(log.apply(e), { kind: 'none' });
  }
  assert.deepEqual(log.revisions(FILE), []);
});

test("GATE-2: a save equal to the latest revision up to surrounding whitespace steps as 'unchanged' with that revision", () => {
  const log = new PlanRevisionLog();
  const got = stampEvents([
    QUIET['turn.started'],
    { type: 'plan.completed', text: 'one\n' },
    { type: 'plan.persisted', planFile: FILE },
    QUIET['turn.completed'],
    { type: 'plan.completed', text: 'one', source: 'editor' },
    { type: 'plan.approval.requested', planFile: FILE },
  ]).map((e) => log.apply(e));
  const first = log.revisions(FILE)[0];
  assert.equal(first?.text, 'one\n');
  assert.deepEqual(got.at(-1), { kind: 'unchanged', revision: first });
  assert.equal(log.revisions(FILE).length, 1);
});

test('GATE-2: each new revision step carries the latest revision before it as `previous`', () => {
  const log = new PlanRevisionLog();
  const edits = ['two', 'three', 'four'].flatMap((text): EventInput[] => [
    { type: 'plan.completed', text, source: 'editor' },
    { type: 'plan.approval.requested', planFile: FILE },
  ]);
  const got = stampEvents([
    QUIET['turn.started'],
    { type: 'plan.completed', text: 'one' },
    { type: 'plan.persisted', planFile: FILE },
    QUIET['turn.completed'],
    ...edits,
  ]).map((e) => log.apply(e));
  const revisionSteps = got.filter((s) => s.kind === 'revision');
  assert.deepEqual(
    revisionSteps.map((s) => [s.revision.number, s.revision.text, s.revision.source, s.previous?.number ?? null]),
    [
      [1, 'one', 'planner', null],
      [2, 'two', 'editor', 1],
      [3, 'three', 'editor', 2],
      [4, 'four', 'editor', 3],
    ],
  );
  assert.deepEqual(
    revisionSteps.map((s) => s.previous),
    [null, ...log.revisions(FILE).slice(0, 3)],
  );
});
