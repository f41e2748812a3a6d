/**
 * One turn of an agent: request → stream (through the plan parser) → tool calls (dispatch gate,
 * fuse, research guards, preview budget, handler) → results attached to their batch → next
 * request, until the model answers without tools. In plan mode the answer's plan is extracted,
 * validated, repaired at most twice (SYN-4), persisted (STORE-1) and put up for approval; in an
 * execution agent a plan block is a mid-execution revision (EXEC-4).
 *
 * Limits: the implementation turn gets its own loop allowance (EXEC-1); the session tool-call
 * limit and the execution tool-loop limit pause the turn on a runtime prompt (`turn.suspended`),
 * and the session continues the same turn when the user answers (EXEC-3). Everything a paused
 * turn needs to continue is in the event fold, so a resumed session can answer it too.
 *
 * Everything the turn does is said through `emit`: the session applies each event to its state
 * and writes it to the log, so the history the next request is built from is the event fold.
 */
import { SETTINGS } from '../config/settings';
import type { FileSystem } from '../ports';
import {
  admitPreview, blockedHandoff, consume, fuseLimits, navigate, navigationSignal, newCounters, newFuse, newNavigation,
  newPreviewBudget, planningLimits, previewResult, previewStub, recordCall, resultCap, describeCommand, describeToolCall,
  type ArchiveOutcome, type BudgetCounters, type FuseState, type NavigationState, type PreviewBudget,
} from '../guards';
import { collectStream, requestView, streamWithRetry, type ModelProvider, type RetryOptions, type StreamOutcome, type ToolCall } from '../llm';
import { buildRepairRequest, buildSynopsis, PlanStore, PlanStreamParser, validatePlan } from '../plan';
import { gateToolCall } from '../policy';
import type { ExecutionMode, GrantableBudgetKind, TurnStatus } from '../vocabulary';
import type { EventInput } from './events';
import { handOff, refreshTrackerFromPlan } from './handoff';
import { recoveryInterview, type InterviewQuestionInput } from './interview';
import type { PromptTemplates } from './prompts';
import { fill } from './prompts';
import type { SessionState, Suspension } from './state';
import type { ToolOutcome, ToolRuntime } from './tool-runtime';
import type { CommandSettings, PlanConfirmation, TurnLimits } from './turn-settings';

export type { TurnLimits } from './turn-settings';

/**
 * EXEC-1, EXEC-3: the hard cap on model round-trips per turn that runtime additions (the
 * implementation allowance, loop grants) may reach. A configured limit above it is kept as the
 * user's choice; the runtime just adds nothing beyond it. Table: 40 → 90, 100 → 120, 0 → 0.
 */
export const HARD_LOOP_CAP = 120;
/** EXEC-1: the implementation turn's one internal tool-loop allowance. */
export const IMPLEMENTATION_LOOP_ALLOWANCE = 50;
/** EXEC-3: what one tool-loop grant (prompted or automatic) adds, up to the hard cap. */
export const LOOP_GRANT = 50;
/** EXEC-3: the session tool-call limit when none is configured. */
export const DEFAULT_SESSION_TOOL_CALLS = SETTINGS.maxToolCallsPerSession.default;
/** INT-3: dismissed model interviews after which questions are denied for the session. */
export const INTERVIEW_DENIAL_DISMISSALS = 2;

/** The labels of the limit prompts (EXEC-3); answers carry them verbatim (INT-1). */
export const LIMIT_GRANT = 'Grant more';
export const LIMIT_DENY = 'Deny';

/** EXEC-1: configured loops plus the one-time allowance, clamped by the hard cap; 0 stays unlimited. */
export function implementationLoopLimit(configured: number): number {
  if (configured === 0) return 0;
  return Math.min(configured + IMPLEMENTATION_LOOP_ALLOWANCE, Math.max(configured, HARD_LOOP_CAP));
}

/** EXEC-3: the limit after one more grant, or null when the hard cap leaves nothing to grant. */
export function grantedLoopLimit(current: number, base: number): number | null {
  const ceiling = Math.max(base, HARD_LOOP_CAP);
  if (current === 0 || current >= ceiling) return null;
  return Math.min(current + LOOP_GRANT, ceiling);
}

/**
 * The turn's tool-call and loop budgets: planning floors (NAV-1), the implementation allowance
 * for an approved-plan turn and its continuations (EXEC-1), then any grants this turn (EXEC-3).
 */
export function turnBudget(limits: TurnLimits, state: SessionState): { toolCalls: number; loops: number; baseLoops: number } {
  const planning = state.agent === 'plan';
  const configured = planningLimits({ toolCalls: limits.toolCallsPerTurn, loops: limits.loopsPerTurn }, planning);
  const baseLoops = !planning && state.turnKind === 'implementation' ? implementationLoopLimit(configured.loops) : configured.loops;
  return { toolCalls: configured.toolCalls, loops: state.turnLoopLimit ?? baseLoops, baseLoops };
}

/** The session tool-call limit now in force (EXEC-3): the configured one, or the last grant. */
export function sessionCallLimit(limits: TurnLimits, state: SessionState): number {
  return state.sessionCallLimit ?? limits.sessionToolCalls ?? DEFAULT_SESSION_TOOL_CALLS;
}

/** How a paused turn continues after its limit prompt was granted (EXEC-3). */
export interface TurnResume {
  suspension: Suspension;
}

export interface TurnDeps {
  fs: FileSystem;
  root: string;
  provider: ModelProvider;
  tools: ToolRuntime;
  prompts: PromptTemplates;
  /** The turn's settings (turn-settings.ts), read once when the turn started. */
  limits: TurnLimits;
  commands: CommandSettings;
  planConfirmation: PlanConfirmation;
  retry?: RetryOptions;
  emit(event: EventInput): Promise<void>;
  state(): SessionState;
  /** Persists and verifies the session archive (the log) before a blocked handoff (FUSE-2). */
  checkpoint(): Promise<ArchiveOutcome>;
  /** The turn begins with tools closed (a user-requested retry from retained evidence, SYN-3). */
  startClosed?: boolean;
  /** Continue a turn paused on a granted limit prompt: the paused batch runs first (EXEC-3). */
  resume?: TurnResume;
}

/** One synthesis request plus at most two corrective requests (SYN-1). */
export const SYNTHESIS_ALLOWANCE = 3;
/** Validation repair requests before a planning turn ends blocked (SYN-4). */
export const MAX_REPAIRS = 2;

/**
 * What the session starts on its own once the turn has completed, under skip-confirmations: the
 * one implementation turn of a plan accepted without the gate (GATE-3), or the Planning workflow
 * the agent suggested (MODE-4).
 */
export type TurnFollowUp = { kind: 'implementation'; prompt: string } | { kind: 'planning' };

export interface TurnEnd {
  status: TurnStatus;
  reason?: string;
  next?: TurnFollowUp;
}

interface TurnState {
  fuse: FuseState;
  nav: NavigationState;
  budget: BudgetCounters;
  preview: PreviewBudget;
  /** Tools are closed: the next requests are synthesis/recovery passes. */
  toolsClosed: boolean;
  recovering: boolean;
  /** SYN-1 allowance spent this turn; carried by every directive event so resume keeps it. */
  allowanceUsed: number;
  repairs: number;
  condensed: boolean;
  /** The planning loop limit was hit: research is over and the SYN-1 allowance bounds what is left. */
  loopsSpent: boolean;
  /** INT-3: a denied interview scheduled the one synthesis retry; without a valid plan the turn ends. */
  denialRetry: boolean;
  /** EXEC-4: revisions already continued without a gate this turn. */
  autoReplans: number;
}

/** EXEC-4: revisions that continue an approved turn without a gate; the next one goes to the gate. */
export const MAX_AUTO_REPLANS = 1;

const KEEP_PLANNING = 'No valid plan yet. Keep planning: add the missing details or send "continue".';

/** What the execution prompt says about confirmations: the one difference between build and auto (MODE-7). */
const CONFIRMATION: Readonly<Record<ExecutionMode, string>> = {
  build: 'Commands you run with run_command are shown to the user for confirmation first.',
  auto: 'Commands you run with run_command execute without confirmation; the same safety gates apply.',
};

/** The system prompt for the agent. */
export function systemPrompt(prompts: PromptTemplates, state: SessionState): string {
  if (state.agent === 'plan') return fill(prompts.plan, { workspace: state.workspace });
  return fill(prompts.build, { workspace: state.workspace, agent: state.agent, confirmation: CONFIRMATION[state.agent] });
}

export async function runTurn(deps: TurnDeps, signal: AbortSignal): Promise<TurnEnd> {
  const start = deps.state();
  const planning = start.agent === 'plan';
  const phase = planning ? 'plan' : 'exec';
  const limits = turnBudget(deps.limits, start);
  const turn: TurnState = {
    fuse: newFuse(),
    nav: newNavigation(phase),
    // A continuation of the same turn keeps what the turn already spent (EXEC-3 pauses, INT-1 answers).
    budget: newCounters({ tool_calls: limits.toolCalls, tool_loop: limits.loops, session_calls: 0 }, { tool_calls: start.turnCalls, tool_loop: start.turnLoops }),
    preview: newPreviewBudget(phase),
    toolsClosed: deps.startClosed === true || start.allowanceUsed > 0,
    recovering: false,
    allowanceUsed: start.allowanceUsed,
    repairs: 0,
    condensed: false,
    loopsSpent: false,
    denialRetry: false,
    autoReplans: 0,
  };

  if (deps.resume && deps.resume.suspension.calls.length > 0) {
    const { calls, firstCallEmitted } = deps.resume.suspension;
    const stop = await runBatch(deps, turn, calls, signal, { firstCallEmitted });
    if (stop) return stop;
  }

  for (;;) {
    if (signal.aborted) return { status: 'cancelled' };
    if (!turn.loopsSpent) {
      const loop = consume(turn.budget, 'tool_loop');
      turn.budget = loop.state;
      if (loop.decision.kind === 'exhausted') {
        const stop = await loopLimitReached(deps, turn, limits.baseLoops, loop.decision.record.used, loop.decision.record.max);
        if (stop) return stop;
        continue;
      }
    }

    const state = deps.state();
    if (turn.toolsClosed && turn.allowanceUsed >= SYNTHESIS_ALLOWANCE) return exhausted(deps, planning);
    const charge = turn.toolsClosed ? 1 : 0;
    let retries = 0;
    const parser = new PlanStreamParser();
    const outcome: StreamOutcome = await collectStream(
      streamWithRetry(
        deps.provider,
        {
          system: systemPrompt(deps.prompts, state),
          messages: requestView(state.history),
          tools: deps.tools.definitions(state.agent),
          toolChoice: turn.toolsClosed ? 'none' : 'auto',
          maxOutputTokens: deps.limits.maxOutputTokens,
          signal,
        },
        {
          ...deps.retry,
          onRetry: (notice) => {
            retries += 1;
            void deps.emit({ type: 'provider.retry', retry: notice.retry, delayMs: notice.delayMs, failure: notice.failure });
          },
        },
      ),
      async (chunk) => {
        if (chunk.type === 'text_delta') {
          const visible = parser.push(chunk.text);
          if (visible) await deps.emit({ type: 'message.delta', text: visible });
          // EVT-1: the plan body streams as it arrives, one event per provider chunk at most.
          const planDelta = parser.takePlanDelta();
          if (planDelta) await deps.emit({ type: 'plan.delta', text: planDelta });
        } else if (chunk.type === 'reasoning_delta') {
          await deps.emit({ type: 'reasoning.delta', text: chunk.text });
        }
      },
    );
    // SYN-1: while tools are closed every request and every transport retry spends the allowance.
    if (turn.toolsClosed) turn.allowanceUsed += charge + retries;

    if (outcome.status === 'cancelled') return { status: 'cancelled' };
    if (outcome.status === 'failed') {
      await deps.emit({ type: 'provider.failed', failure: outcome.failure });
      if (turn.toolsClosed && turn.allowanceUsed < SYNTHESIS_ALLOWANCE) continue;
      return { status: 'failed', reason: outcome.failure.message };
    }

    const streamed = parser.finish();
    if (streamed.flushed) await deps.emit({ type: 'message.delta', text: streamed.flushed });
    const planRest = parser.takePlanDelta();
    if (planRest) await deps.emit({ type: 'plan.delta', text: planRest });
    const response = outcome.response;
    const hasPlanBlock = streamed.plan !== null;
    await deps.emit({ type: 'message.completed', text: response.text, finishReason: outcome.finishReason });
    if (streamed.plan !== null) await deps.emit({ type: 'plan.completed', text: streamed.plan });

    if (response.toolCalls.length > 0 && !turn.toolsClosed) {
      const stop = await runBatch(deps, turn, response.toolCalls, signal);
      if (stop) return stop;
      continue;
    }
    if (response.toolCalls.length > 0 && turn.toolsClosed) {
      const stop = await refuseClosedCalls(deps, turn, response.toolCalls);
      if (stop) return stop;
      continue;
    }

    const truncated = outcome.finishReason === 'length' || streamed.truncated;
    if (!planning) {
      // EXEC-4: only a tagged block is a revision; a summary with headings is just an answer.
      if (streamed.plan !== null && streamed.source === 'tagged') {
        const stop = await executionReplan(deps, turn, streamed.plan, truncated);
        if (stop) return stop;
        continue;
      }
      return { status: 'idle' };
    }
    // INT-3: after a denied interview the one synthesis retry either yields a valid plan or planning waits.
    const retryOver = turn.denialRetry && turn.toolsClosed;
    if (truncated && (hasPlanBlock || response.text.trim() !== '')) {
      if (retryOver) return { status: 'idle', reason: KEEP_PLANNING };
      if (turn.condensed) return { status: 'blocked', reason: 'The plan was cut off twice. Ask for a shorter plan or raise the output limit.' };
      turn.condensed = true;
      await directive(deps, turn, 'condense', deps.prompts.condense, true);
      continue;
    }
    if (streamed.plan === null) {
      if (retryOver) return { status: 'idle', reason: KEEP_PLANNING };
      // SYN-2: a reasoning-only or empty answer never becomes a plan or a final response.
      if (response.text.trim() === '' && turn.toolsClosed) {
        await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason: 'the last answer was empty' }));
        continue;
      }
      if (turn.toolsClosed) {
        await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason: 'the last answer had no plan block' }));
        continue;
      }
      return { status: 'idle' };
    }
    const verdict = await publishPlan(deps, streamed.plan, turn.repairs);
    if (verdict.kind === 'persisted') return approvalOrHandoff(deps, verdict.planFile);
    if (verdict.kind === 'store_failed') return { status: 'blocked', reason: verdict.reason };
    if (retryOver) return { status: 'idle', reason: KEEP_PLANNING };
    if (turn.repairs >= MAX_REPAIRS) {
      return { status: 'blocked', reason: `The plan is still invalid after ${MAX_REPAIRS} repairs: ${verdict.summary}` };
    }
    turn.repairs += 1;
    await directive(deps, turn, 'repair', verdict.repairRequest, turn.toolsClosed);
  }
}


async function directive(
  deps: TurnDeps,
  turn: TurnState,
  kind: 'repair' | 'synthesis' | 'condense' | 'recovery' | 'handoff',
  text: string,
  closeTools = kind !== 'repair',
): Promise<void> {
  if (closeTools) turn.toolsClosed = true;
  await deps.emit({ type: 'directive', kind, text, allowanceUsed: turn.allowanceUsed, toolsClosed: turn.toolsClosed });
}

/**
 * Tool calls while tools are closed. In a recovery pass they are blocked calls counted by the
 * recovery fuse (1× cap, FUSE-1); in a synthesis pass they are a violation that spends allowance
 * like any other miss (SYN-1) and the pass is asked for again.
 */
async function refuseClosedCalls(deps: TurnDeps, turn: TurnState, calls: readonly ToolCall[]): Promise<TurnEnd | null> {
  let tripped: string | null = null;
  for (const call of calls) {
    await deps.emit({ type: 'tool.call', callId: call.id, name: call.name, arguments: call.arguments });
    await deps.emit({ type: 'tool.blocked', callId: call.id, name: call.name, reason: 'Tools are closed for this pass: answer from the evidence you already have.', policy: turn.recovering ? 'fuse' : 'navigation' });
    if (!turn.recovering) continue;
    const step = recordCall(turn.fuse, 'blocked', fuseLimits(deps.limits.maxConsecutiveBlocked, 'recovery'));
    turn.fuse = step.state;
    if (step.decision.kind === 'tripped') tripped ??= step.decision.message;
  }
  if (tripped) return blockedEnd(deps, tripped);
  if (!turn.recovering) await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason: 'a tool was called during a tool-free pass' }));
  return null;
}

/** FUSE-2/FUSE-3: checkpoint the history first; the handoff offers resume only if that worked. */
async function blockedEnd(deps: TurnDeps, reason: string): Promise<TurnEnd> {
  const handoff = blockedHandoff({ planning: deps.state().agent === 'plan', reason, archive: await deps.checkpoint() });
  return { status: 'blocked', reason: [handoff.summary, ...handoff.nextSteps.map((s) => `- ${s}`)].join('\n') };
}

/** SYN-3: allowance gone → runtime interview (or its headless diagnostic); no model call. */
async function exhausted(deps: TurnDeps, planning: boolean): Promise<TurnEnd> {
  const reason = planning
    ? 'Planning could not produce a valid plan within its recovery allowance.'
    : 'The recovery allowance is used up.';
  await deps.emit({
    type: 'interview.requested',
    interviewId: `recovery-${deps.state().turn}`,
    source: 'runtime',
    questions: recoveryInterview(),
  });
  await deps.emit({ type: 'planning.awaiting_input', reason, choices: recoveryInterview()[0]!.options.map((o) => o.label) });
  return { status: 'awaiting_input', reason };
}

type PublishVerdict =
  | { kind: 'persisted'; planFile: string }
  | { kind: 'rejected'; repairRequest: string; summary: string }
  | { kind: 'store_failed'; reason: string };

/** Validate → persist → request approval (STORE-1: nothing is written for an invalid plan). */
async function publishPlan(deps: TurnDeps, plan: string, attempt: number): Promise<PublishVerdict> {
  const report = validatePlan(plan);
  if (!report.ready) {
    const reasons = report.errors.map((e) => ({ code: e.code, message: e.message, ...(e.line ? { line: e.line } : {}) }));
    await deps.emit({ type: 'plan.rejected', reasons, attempt, draft: plan, final: attempt >= MAX_REPAIRS });
    return {
      kind: 'rejected',
      repairRequest: buildRepairRequest(plan, report),
      summary: report.errors.map((e) => e.message).join('; '),
    };
  }
  const saved = await persistPlan(deps, plan);
  if (saved.kind === 'store_failed') return saved;
  await deps.emit({ type: 'plan.approval.requested', planFile: saved.planFile });
  return { kind: 'persisted', planFile: saved.planFile };
}

/**
 * A persisted plan waits at the gate, unless confirmations are skipped and planning was not asked
 * for explicitly: then it goes through the one handoff as `auto_accept` (automatic) to the build
 * agent in the current context (MODE-7), and the session runs its implementation turn. An explicit
 * `/plan` request always waits (GATE-5). A failed handoff leaves the plan pending with its reason.
 */
async function approvalOrHandoff(deps: TurnDeps, planFile: string): Promise<TurnEnd> {
  if (deps.planConfirmation !== 'skip' || deps.state().planningExplicit) return { status: 'awaiting_approval' };
  const handoff = await handOff({ fs: deps.fs, root: deps.root, emit: (e) => deps.emit(e), state: () => deps.state() }, 'auto_accept', true);
  if (!handoff.ok) return { status: 'awaiting_approval', reason: handoff.reason };
  await deps.emit({
    type: 'notice',
    level: 'info',
    text: `Plan confirmation is off, so ${planFile} was accepted without the "Ready to code?" gate: the build agent implements it now, in this context. A /plan request always waits for approval.`,
  });
  return { status: 'idle', next: { kind: 'implementation', prompt: handoff.implementationPrompt } };
}

/** STORE-1: writes a validated plan over the session's plan file (or a new one) and says so. */
async function persistPlan(deps: TurnDeps, plan: string): Promise<{ kind: 'saved'; planFile: string } | { kind: 'store_failed'; reason: string }> {
  const store = new PlanStore(deps.fs, deps.root);
  const previous = deps.state().activePlan;
  const slug = previous ? slugOf(previous.planFile) : undefined;
  try {
    const saved = await store.save(plan, slug ? { slug } : {});
    if (saved.status === 'rejected') return { kind: 'store_failed', reason: 'The plan did not validate when saved.' };
    if (saved.status === 'external_edit') {
      return { kind: 'store_failed', reason: `${saved.path} was edited outside the session; your edit was kept. Review it, then ask to re-plan.` };
    }
    const relative = saved.path.startsWith(`${deps.root}/`) ? saved.path.slice(deps.root.length + 1) : saved.path;
    const title = buildSynopsis(plan).title;
    await deps.emit({ type: 'plan.persisted', planFile: relative, ...(title ? { title } : {}) });
    return { kind: 'saved', planFile: relative };
  } catch (err) {
    return { kind: 'store_failed', reason: `Could not save the plan: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function slugOf(planFile: string): string {
  return (planFile.split('/').pop() ?? planFile).replace(/\.md$/, '');
}

/**
 * EXEC-4: a `<proposed_plan>` from an execution agent is validated and persisted like a planning
 * draft (plan file overwritten, tracker refreshed keeping finished steps) and published with the
 * usual events. In an approved execution turn (the implementation turn and its continuations) the
 * user already approved the goal, so work continues without a second gate; anywhere else the
 * revision goes through the ordinary gate (`auto` accepts it, as full-auto accepts any gate). An
 * invalid or cut-off revision is rejected visibly, overwrites nothing, sends no repair request
 * and ends the turn blocked. Returns null when the turn continues.
 */
async function executionReplan(deps: TurnDeps, turn: TurnState, plan: string, truncated: boolean): Promise<TurnEnd | null> {
  const report = validatePlan(plan);
  if (truncated || !report.ready) {
    const reasons = truncated
      ? [{ code: 'truncated', message: 'The revised plan was cut off before its closing tag.' }]
      : report.errors.map((e) => ({ code: e.code, message: e.message, ...(e.line ? { line: e.line } : {}) }));
    await deps.emit({ type: 'plan.rejected', reasons, attempt: 0, draft: plan, final: true });
    const planFile = deps.state().activePlan?.planFile;
    return {
      status: 'blocked',
      reason: `The revised plan was rejected and nothing was overwritten${planFile ? ` (${planFile} is unchanged)` : ''}: ${reasons.map((r) => r.message).join('; ')}`,
    };
  }
  const saved = await persistPlan(deps, plan);
  if (saved.kind === 'store_failed') return { status: 'blocked', reason: saved.reason };
  const { planFile } = saved;
  const tracker = await refreshTrackerFromPlan(deps.fs, deps.root, `${deps.root}/${planFile}`, plan);
  if (!tracker.ok) return { status: 'blocked', reason: `The revised plan was saved to ${planFile}, but ${tracker.reason.charAt(0).toLowerCase()}${tracker.reason.slice(1)}` };
  const { totals, trackerFile } = tracker;
  await deps.emit({ type: 'tracker.updated', trackerFile, total: totals.total, completed: totals.completed, inProgress: totals.in_progress, blocked: totals.blocked });

  const state = deps.state();
  const approvedTurn = state.turnKind === 'implementation' && turn.autoReplans < MAX_AUTO_REPLANS;
  if (approvedTurn || state.agent === 'auto' || deps.planConfirmation === 'skip') {
    turn.autoReplans += 1;
    if (approvedTurn) {
      await deps.emit({ type: 'notice', level: 'info', text: `The agent revised the approved plan during implementation; ${planFile} and its checklist were updated and work continues without a second approval.` });
    } else {
      await deps.emit({ type: 'plan.approval.requested', planFile, trackerFile });
      await deps.emit({ type: 'plan.approval.resolved', choice: 'auto_accept', automatic: true, planFile });
      const who = state.agent === 'auto' ? 'Auto accepted it' : 'plan confirmation is off, so it was accepted';
      await deps.emit({ type: 'notice', level: 'info', text: `The agent proposed a revised plan during execution; ${who} (${planFile}) and work continues.` });
    }
    await directive(deps, turn, 'handoff', `The revised plan in ${planFile} is saved and approved. Continue implementing it; keep the checklist (${trackerFile}) current with task_tracker.`, false);
    return null;
  }
  await deps.emit({ type: 'notice', level: 'warning', text: `The agent proposed a revised plan during execution (${planFile}); review it before work continues.` });
  await deps.emit({ type: 'plan.approval.requested', planFile, trackerFile });
  return { status: 'awaiting_approval', reason: 'The agent revised the plan during execution; review it before work continues.' };
}

/** How each limit prompt reads (EXEC-3); a Record, so a new grantable budget must say it. */
const LIMIT_PROMPT: Readonly<Record<GrantableBudgetKind, { what: string; where: string; header: string; idPrefix: string }>> = {
  session_calls: { what: 'tool calls', where: 'the session tool-call limit', header: 'Session tool-call limit reached', idPrefix: 'session-limit' },
  tool_loop: { what: 'model round-trips', where: 'the tool-loop limit for this turn', header: 'Tool-loop limit reached', idPrefix: 'tool-loop' },
};

function limitInterview(kind: GrantableBudgetKind, agent: string, used: number, grant: number): InterviewQuestionInput[] {
  const { what, where, header } = LIMIT_PROMPT[kind];
  return [{
    id: kind,
    header,
    question: `The ${agent} agent reached ${where} (${used} ${what}). Grant ${grant} more?`,
    options: [
      { label: LIMIT_GRANT, description: `Allow ${grant} more ${what}; the pending work continues in this turn.`, recommended: true },
      { label: LIMIT_DENY, description: 'Stop here; the pending call is denied.' },
    ],
    allowFreeform: false,
  }];
}

/** EXEC-3: pause the turn on a limit prompt; the session continues it when the user answers. */
async function suspend(deps: TurnDeps, kind: GrantableBudgetKind, used: number, grant: number, calls: readonly ToolCall[], firstCallEmitted: boolean): Promise<TurnEnd> {
  const state = deps.state();
  const interviewId = `${LIMIT_PROMPT[kind].idPrefix}-${state.turn}-${used}`;
  await deps.emit({ type: 'interview.requested', interviewId, source: 'runtime', questions: limitInterview(kind, state.agent, used, grant) });
  await deps.emit({
    type: 'turn.suspended',
    reason: kind,
    interviewId,
    calls: calls.map((c) => ({ callId: c.id, name: c.name, arguments: c.arguments })),
    firstCallEmitted,
  });
  return { status: 'awaiting_input', reason: `Waiting for your decision on more ${LIMIT_PROMPT[kind].what}.` };
}

/**
 * The turn's loop budget is used up. Planning stops research and synthesises from what it found
 * (the SYN-1 allowance bounds what is left). Execution asks once per session; after one manual
 * grant — and always for `auto` — the next increment is granted without asking. At the hard cap
 * the budget fails closed. Returns null when the turn continues.
 */
async function loopLimitReached(deps: TurnDeps, turn: TurnState, baseLoops: number, used: number, max: number): Promise<TurnEnd | null> {
  const state = deps.state();
  if (state.agent === 'plan') {
    await deps.emit({ type: 'budget_exhausted', kind: 'tool_loop', used, max });
    turn.loopsSpent = true;
    if (!turn.toolsClosed) await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason: `the tool-loop limit (${max}) is reached` }));
    return null;
  }
  const next = grantedLoopLimit(max, baseLoops);
  if (next === null) {
    await deps.emit({ type: 'budget_exhausted', kind: 'tool_loop', used, max });
    return { status: 'blocked', reason: `The turn used all ${max} model round-trips, the hard cap. Send "continue" to keep going in a new turn.` };
  }
  if (state.agent === 'auto' || state.loopGrantLatched) {
    await deps.emit({ type: 'tool_loop_limit_increased', previous: max, limit: next, automatic: true });
    turn.budget = newCounters({ ...turn.budget.max, tool_loop: next }, turn.budget.used);
    return null;
  }
  return suspend(deps, 'tool_loop', used, next - max, [], false);
}

/**
 * Runs one assistant batch; returns a TurnEnd when the turn must stop. `granted` continues a
 * batch paused on the session limit (EXEC-3): its first call was admitted and counted before the
 * pause and is now granted, so it runs without being counted or checked again.
 */
async function runBatch(
  deps: TurnDeps,
  turn: TurnState,
  calls: readonly ToolCall[],
  signal: AbortSignal,
  granted?: { firstCallEmitted: boolean },
): Promise<TurnEnd | null> {
  const agent = deps.state().agent;
  const planning = agent === 'plan';
  const cap = deps.limits.maxConsecutiveBlocked;
  let interview: { callId: string; questions: Extract<ToolOutcome, { kind: 'interview' }>['questions'] } | null = null;
  let tripped: { next: 'recovery_pass' | 'end_turn_blocked'; message: string } | null = null;
  let scheduled: string | null = null;

  for (const [index, call] of calls.entries()) {
    const isGranted = granted !== undefined && index === 0;
    if (!(isGranted && granted.firstCallEmitted)) await deps.emit({ type: 'tool.call', callId: call.id, name: call.name, arguments: call.arguments });
    if (signal.aborted || tripped) {
      await deps.emit({ type: 'tool.blocked', callId: call.id, name: call.name, reason: 'Not run: the turn stopped before this call.', policy: 'fuse' });
      continue;
    }
    const args = parseArguments(call.arguments);
    const gate = gateToolCall(agent, { name: call.name, arguments: args }, { workspaceRoot: deps.root });
    let blockedReason: string | null = gate.allowed ? null : gate.reason;
    if (gate.allowed && !isGranted) {
      const used = consume(turn.budget, 'tool_calls');
      turn.budget = used.state;
      if (used.decision.kind === 'exhausted') {
        const r = used.decision.record;
        await deps.emit({ type: 'budget_exhausted', kind: 'tool_calls', used: r.used, max: r.max });
        blockedReason = `Tool-call budget for this turn is used up (${r.used}/${r.max}).`;
        scheduled ??= 'the tool-call budget is used up';
      } else {
        // EXEC-3: this call is already counted in the session total, hence the -1.
        const limit = sessionCallLimit(deps.limits, deps.state());
        const sessionUsed = deps.state().sessionCalls - 1;
        if (limit !== 0 && sessionUsed >= limit) {
          // Only one question at a time: with a model question already pending the call fails closed.
          if (!interview) return suspend(deps, 'session_calls', sessionUsed, deps.limits.sessionToolCalls || DEFAULT_SESSION_TOOL_CALLS, calls.slice(index), true);
          await deps.emit({ type: 'budget_exhausted', kind: 'session_calls', used: sessionUsed, max: limit });
          blockedReason = `The session tool-call limit (${limit}) is reached.`;
        }
      }
    }
    const fuseStep = recordCall(turn.fuse, blockedReason ? 'blocked' : 'allowed', fuseLimits(cap, turn.recovering ? 'recovery' : planning ? 'plan' : 'normal'));
    turn.fuse = fuseStep.state;
    if (blockedReason) {
      await deps.emit({ type: 'tool.blocked', callId: call.id, name: call.name, reason: blockedReason, policy: gate.allowed ? 'budget' : gate.kind === 'mutation' ? 'read_only' : 'shell' });
      if (fuseStep.decision.kind === 'tripped') tripped = { next: fuseStep.decision.next, message: fuseStep.decision.message };
      continue;
    }
    if (call.name === 'request_user_input' && interview) {
      await deps.emit({ type: 'tool.blocked', callId: call.id, name: call.name, reason: 'Ask one interview at a time; this question was not shown.', policy: 'interview' });
      continue;
    }
    if (call.name === 'request_user_input' && deps.state().interviewsDenied) {
      // INT-3: denied without asking; planning gets its one synthesis retry from the evidence so far.
      await deps.emit({
        type: 'tool.blocked', callId: call.id, name: call.name, policy: 'interview',
        reason: 'Denied: the user turned down clarification questions for this session. Do not ask again; decide with reasonable defaults and state them as assumptions.',
      });
      if (planning && !turn.denialRetry && !turn.toolsClosed) {
        turn.denialRetry = true;
        scheduled ??= 'clarification questions are unavailable in this session';
      }
      continue;
    }

    const description = gate.allowed && gate.command !== undefined ? describeCommand(gate.command) : describeToolCall(call.name, args);
    const kind = call.name === 'run_command' && gate.allowed && gate.command?.class === 'verification' ? 'verification' : 'inspection';
    const admission = admitPreview(turn.preview, kind);
    if (admission.kind === 'reject') {
      await deps.emit({ type: 'tool.blocked', callId: call.id, name: call.name, reason: admission.reason, policy: 'budget' });
      if (planning) scheduled ??= 'the preview budget is used up';
      continue;
    }
    const requested = typeof (args as { max_preview_bytes?: unknown })?.max_preview_bytes === 'number' ? (args as { max_preview_bytes: number }).max_preview_bytes : undefined;
    let outcome: ToolOutcome;
    try {
      const plan = deps.state().activePlan;
      outcome = await deps.tools.execute(call.name, args, {
        agent,
        signal,
        previewLimit: resultCap(planning ? 'plan' : 'exec', kind, requested),
        commands: deps.commands,
        ...(plan ? { planFile: `${deps.root}/${plan.planFile}` } : {}),
      });
    } catch (err) {
      outcome = { kind: 'result', ok: false, content: `Tool failed: ${err instanceof Error ? err.message : String(err)}`, class: 'other', empty: true, truncated: false };
    }
    if (outcome.kind === 'interview') {
      interview = { callId: call.id, questions: outcome.questions };
      continue;
    }
    if (outcome.kind === 'planning_suggested' && deps.planConfirmation === 'skip') {
      // MODE-4: skip-confirmations accepts the suggestion directly; the session enters planning.
      await deps.emit({
        type: 'tool.result', callId: call.id, name: call.name, ok: true,
        content: 'Plan confirmation is off in this session, so the Planning workflow starts now. Stop here; planning continues read-only.',
      });
      await deps.emit({ type: 'notice', level: 'info', text: `The agent suggested planning (${outcome.reason}); plan confirmation is off, so the Planning workflow starts now, read-only.` });
      return { status: 'idle', next: { kind: 'planning' } };
    }
    if (outcome.kind === 'planning_suggested') {
      await deps.emit({
        type: 'tool.result', callId: call.id, name: call.name, ok: true,
        content: 'The user was asked whether to enter the Planning workflow. Stop here and wait for their decision.',
      });
      await deps.emit({
        type: 'interview.requested',
        interviewId: `planning-${call.id}`,
        source: 'runtime',
        questions: [{
          id: 'enter_planning',
          header: 'Enter Planning workflow?',
          question: `Enter Planning workflow? ${outcome.reason}`,
          options: [
            { label: 'Enter Planning workflow (Recommended)', description: 'Enter read-only planning and research.', recommended: true },
            { label: 'Continue without Planning workflow' },
          ],
          allowFreeform: false,
        }],
      });
      return { status: 'awaiting_input', reason: 'Waiting for your decision on entering the Planning workflow.' };
    }
    const bodyBytes = Buffer.byteLength(outcome.content, 'utf8');
    const preview = previewResult(turn.preview, { kind, bodyBytes, ...(requested !== undefined ? { requested } : {}) });
    turn.preview = preview.state;
    const content = preview.decision.kind === 'stub'
      ? previewStub({ tool: call.name, bodyBytes, lines: outcome.content.split('\n').length })
      : preview.decision.truncated
        ? `${truncateUtf8(outcome.content, preview.decision.bytes)}\n[… output cut at ${preview.decision.bytes} of ${bodyBytes} bytes by this turn's preview budget; narrow the request to see more]`
        : outcome.content;
    await deps.emit({ type: 'tool.result', callId: call.id, name: call.name, ok: outcome.ok, content, ...(outcome.truncated || preview.decision.kind === 'stub' ? { truncated: true } : {}) });
    if (preview.decision.synthesis) scheduled ??= 'the preview budget is used up';

    const nav = navigate(turn.nav, {
      kind: 'outcome',
      outcome: { ...description, class: outcome.class, signal: navigationSignal({ succeeded: outcome.ok, empty: outcome.empty, repeated: false }) },
    });
    turn.nav = nav.state;
    if (nav.decision.kind === 'schedule_pass') scheduled ??= nav.decision.reason;
  }

  if (interview) {
    await deps.emit({ type: 'interview.requested', interviewId: interview.callId, source: 'model', questions: interview.questions });
    return { status: 'awaiting_input', reason: 'Waiting for your answer.' };
  }
  if (tripped) {
    if (tripped.next === 'end_turn_blocked') return blockedEnd(deps, tripped.message);
    // The recovery pass has its own fuse: 1× cap, counted from zero (FUSE-1).
    turn.recovering = true;
    turn.fuse = newFuse();
    turn.nav = navigate(turn.nav, { kind: 'recovery' }).state;
    await directive(deps, turn, 'recovery', fill(deps.prompts.recovery, { reason: tripped.message }));
    return null;
  }
  if (scheduled && planning) {
    turn.nav = navigate(turn.nav, { kind: 'pass_scheduled' }).state;
    await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason: scheduled }));
  }
  return null;
}

function truncateUtf8(text: string, bytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= bytes) return text;
  // Drop a partial multi-byte character at the cut.
  return buf.subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
}
