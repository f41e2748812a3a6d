/**
 * Admission of one tool call: a pipeline of small named steps (gate → budgets → fuse → interview
 * rules → tracker repeats → preview admission), each saying continue, blocked (reason and policy) or stop (the
 * turn ends). A refusal before the fuse step counts as a blocked call for the fuse (FUSE-1); a
 * refusal after it does not. The admitted call is then executed and post-processed (batch.ts).
 */
import { admitPreview, consume, fuseLimits, recordCall, type PreviewKind } from '../../guards';
import type { ToolCall } from '../../llm';
import type { DispatchDecision } from '../../policy';
import type { AgentMode } from '../../vocabulary';
import { toolBlockedEvent, type BlockPolicy } from '../events';
import { TASK_TRACKER_TOOL, taskTrackerArgsSchema } from '../../tools/task-tracker';
import type { TrackerCall } from '../../tracker';
import type { ToolOutcome } from '../tool-runtime';
import type { TurnDeps, TurnEnd } from './deps';
import { DEFAULT_SESSION_TOOL_CALLS, sessionCallLimit, suspend } from './limits';
import { toolsClosed, type TurnState } from './phase';

export type Verdict =
  { kind: 'continue' } | { kind: 'blocked'; reason: string; policy: BlockPolicy } | { kind: 'stop'; end: TurnEnd };

/** What one assistant batch gathers while its calls run; read when the batch ends. */
export interface BatchState {
  /** The model question to show once the batch is done (one at a time, INT-1). */
  interview: { callId: string; questions: Extract<ToolOutcome, { kind: 'interview' }>['questions'] } | null;
  tripped: { next: 'recovery_pass' | 'end_turn_blocked'; message: string } | null;
  /**
   * Why a tool-free pass follows this batch (the first reason wins): synthesis in planning,
   * recovery in an execution agent, where only navigation schedules it (NAV-4).
   */
  scheduled: string | null;
}

export interface CallContext {
  deps: TurnDeps;
  turn: TurnState;
  batch: BatchState;
  agent: AgentMode;
  call: ToolCall;
  args: unknown;
  gate: DispatchDecision;
  /** Verification commands get their own preview allowance (NAV-5). */
  previewKind: PreviewKind;
  /** This call and the rest of the batch: what a session-limit pause keeps for later (EXEC-3). */
  pending: readonly ToolCall[];
  /** The first call of a batch resumed on a granted limit: counted before the pause, not again. */
  granted: boolean;
  /** A task_tracker call's arguments as the tracker reads them (trackerCallOf), for TRK-4. */
  tracker: TrackerCall | null;
  signal: AbortSignal;
}

export type AdmissionStep = (ctx: CallContext) => Promise<Verdict>;

const CONTINUE: Verdict = { kind: 'continue' };

function blocked(reason: string, policy: BlockPolicy): Verdict {
  return { kind: 'blocked', reason, policy };
}

export function schedule(batch: BatchState, reason: string): void {
  batch.scheduled ??= reason;
}

/** RO-1 … RO-4: the dispatch gate's verdict on the call. */
async function gate(ctx: CallContext): Promise<Verdict> {
  if (ctx.gate.allowed) return CONTINUE;
  return blocked(ctx.gate.reason, ctx.gate.kind === 'mutation' ? 'read_only' : 'shell');
}

/** The turn's tool-call budget, then the session tool-call limit, which pauses the turn (EXEC-3). */
async function budgets(ctx: CallContext): Promise<Verdict> {
  if (ctx.granted) return CONTINUE;
  const { deps, turn } = ctx;
  const used = consume(turn.budget, 'tool_calls');
  turn.budget = used.state;
  if (used.decision.kind === 'exhausted') {
    const r = used.decision.record;
    await deps.emit({ type: 'budget_exhausted', kind: 'tool_calls', used: r.used, max: r.max });
    // Planning converges on the synthesis pass; an execution agent's refused calls feed the fuse (FUSE-1).
    if (ctx.agent === 'plan') schedule(ctx.batch, 'the tool-call budget is used up');
    return blocked(`Tool-call budget for this turn is used up (${r.used}/${r.max}).`, 'budget');
  }
  // EXEC-3: this call is already counted in the session total, hence the -1.
  const limit = sessionCallLimit(deps.limits, deps.state());
  const sessionUsed = deps.state().sessionCalls - 1;
  if (limit === 0 || sessionUsed < limit) return CONTINUE;
  // Only one question at a time: with a model question already pending the call fails closed.
  if (!ctx.batch.interview) {
    const grant = deps.limits.sessionToolCalls || DEFAULT_SESSION_TOOL_CALLS;
    return { kind: 'stop', end: await suspend(deps, 'session_calls', sessionUsed, grant, ctx.pending, true) };
  }
  await deps.emit({ type: 'budget_exhausted', kind: 'session_calls', used: sessionUsed, max: limit });
  return blocked(`The session tool-call limit (${limit}) is reached.`, 'budget');
}

function fuseLimitsFor(ctx: CallContext): ReturnType<typeof fuseLimits> {
  const phase = ctx.turn.phase === 'recovery' ? 'recovery' : ctx.agent === 'plan' ? 'plan' : 'normal';
  return fuseLimits(ctx.deps.limits.maxConsecutiveBlocked, phase);
}

/** FUSE-1: a call that got past every earlier step resets the consecutive-blocked count. */
async function fuse(ctx: CallContext): Promise<Verdict> {
  ctx.turn.fuse = recordCall(ctx.turn.fuse, 'allowed', fuseLimitsFor(ctx)).state;
  return CONTINUE;
}

/** INT-1: one model interview at a time; INT-3: questions are denied once the user turned them down. */
async function interviewRules(ctx: CallContext): Promise<Verdict> {
  if (ctx.call.name !== 'request_user_input') return CONTINUE;
  if (ctx.batch.interview) return blocked('Ask one interview at a time; this question was not shown.', 'interview');
  if (!ctx.deps.state().interviewsDenied) return CONTINUE;
  // INT-3: denied without asking; planning gets its one synthesis retry from the evidence so far.
  const { turn } = ctx;
  if (ctx.agent === 'plan' && !turn.denialRetry && !toolsClosed(turn)) {
    turn.denialRetry = true;
    schedule(ctx.batch, 'clarification questions are unavailable in this session');
  }
  return blocked(
    'Denied: the user turned down clarification questions for this session. Do not ask again; decide with reasonable defaults and state them as assumptions.',
    'interview',
  );
}

/** A task_tracker call's arguments as the tracker reads them; null when they do not parse (the tool says why). */
export function trackerCallOf(call: ToolCall, args: unknown): TrackerCall | null {
  if (call.name !== TASK_TRACKER_TOOL.name) return null;
  const parsed = taskTrackerArgsSchema.safeParse(args);
  return parsed.success ? parsed.data : null;
}

/**
 * TRK-4: identical successful task_tracker calls in a row past the limit get one correction
 * instead of a result; repeating after it ends the turn with a blocked handoff.
 */
async function trackerRepeats(ctx: CallContext): Promise<Verdict> {
  if (ctx.tracker === null) return CONTINUE;
  const verdict = ctx.turn.trackerRepeats.check(ctx.tracker);
  if (verdict.kind === 'allow') return CONTINUE;
  if (verdict.kind === 'block') ctx.batch.tripped = { next: 'end_turn_blocked', message: verdict.message };
  return blocked(verdict.message, 'fuse');
}

/** NAV-5: once the turn's preview budget is spent, further inspection adds no evidence. */
async function previewAdmission(ctx: CallContext): Promise<Verdict> {
  const admission = admitPreview(ctx.turn.preview, ctx.previewKind);
  if (admission.kind !== 'reject') return CONTINUE;
  if (ctx.agent === 'plan') schedule(ctx.batch, 'the preview budget is used up');
  return blocked(admission.reason, 'budget');
}

const ADMISSION_STEPS: readonly AdmissionStep[] = [
  gate,
  budgets,
  fuse,
  interviewRules,
  trackerRepeats,
  previewAdmission,
];

/** Runs the steps in order up to the first that does not continue; a refusal is said as `tool.blocked`. */
export async function admit(ctx: CallContext, steps: readonly AdmissionStep[] = ADMISSION_STEPS): Promise<Verdict> {
  for (const [index, step] of steps.entries()) {
    const verdict = await step(ctx);
    if (verdict.kind === 'continue') continue;
    if (verdict.kind === 'blocked') await refuse(ctx, verdict, steps.slice(index + 1).includes(fuse));
    return verdict;
  }
  return CONTINUE;
}

async function refuse(
  ctx: CallContext,
  verdict: Extract<Verdict, { kind: 'blocked' }>,
  beforeFuse: boolean,
): Promise<void> {
  const { call } = ctx;
  const step = beforeFuse ? recordCall(ctx.turn.fuse, 'blocked', fuseLimitsFor(ctx)) : null;
  if (step) ctx.turn.fuse = step.state;
  await ctx.deps.emit(toolBlockedEvent(call, verdict.policy, verdict.reason));
  if (step?.decision.kind === 'tripped')
    ctx.batch.tripped = { next: step.decision.next, message: step.decision.message };
}
