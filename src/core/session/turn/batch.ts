/**
 * One assistant batch of tool calls: each call is admitted (admission.ts), executed and
 * post-processed (preview budget, navigation accounting); when the batch is done, a pending model
 * question, a tripped fuse or a scheduled tool-free pass (synthesis in planning, recovery in an
 * execution agent) decides how the turn goes on.
 */
import {
  blockedHandoff,
  describeCommand,
  describeToolCall,
  fuseLimits,
  navigate,
  navigationSignal,
  newFuse,
  previewResult,
  previewStub,
  recordCall,
  resultCap,
} from '../../guards';
import type { ToolCall } from '../../llm';
import { gateToolCall } from '../../policy';
import type { AgentMode } from '../../vocabulary';
import { toolBlockedEvent, toolCallEvent } from '../events';
import { fill } from '../prompts';
import type { ToolOutcome } from '../tool-runtime';
import { admit, schedule, trackerCallOf, type BatchState, type CallContext } from './admission';
import type { TurnDeps, TurnEnd } from './deps';
import { directive, type TurnState } from './phase';
import { errorMessage } from '../../errors';

/**
 * Runs one assistant batch; returns a TurnEnd when the turn must stop. `granted` continues a
 * batch paused on the session limit (EXEC-3): its first call was admitted and counted before the
 * pause and is now granted, so it runs without being counted or checked again.
 */
export async function runBatch(
  deps: TurnDeps,
  turn: TurnState,
  calls: readonly ToolCall[],
  signal: AbortSignal,
  granted?: { firstCallEmitted: boolean },
): Promise<TurnEnd | null> {
  const agent = deps.state().agent;
  const batch: BatchState = { interview: null, tripped: null, scheduled: null };
  for (const [index, call] of calls.entries()) {
    const isGranted = granted !== undefined && index === 0;
    if (!(isGranted && granted.firstCallEmitted)) await deps.emit(toolCallEvent(call));
    if (signal.aborted || batch.tripped) {
      await deps.emit(toolBlockedEvent(call, 'fuse', 'Not run: the turn stopped before this call.'));
      continue;
    }
    const args = parseArguments(call.arguments);
    const gate = gateToolCall(agent, { name: call.name, arguments: args }, { workspaceRoot: deps.root });
    const previewKind =
      call.name === 'run_command' && gate.allowed && gate.command?.class === 'verification'
        ? 'verification'
        : 'inspection';
    const ctx: CallContext = {
      deps,
      turn,
      batch,
      agent,
      call,
      args,
      gate,
      previewKind,
      pending: calls.slice(index),
      granted: isGranted,
      tracker: trackerCallOf(call, args),
      signal,
    };
    const stop = await runCall(ctx);
    if (stop) return stop;
  }
  return finishBatch(deps, turn, batch, agent);
}

/** admit → execute → post-process; returns a TurnEnd when the call ends the turn. */
async function runCall(ctx: CallContext): Promise<TurnEnd | null> {
  const verdict = await admit(ctx);
  if (verdict.kind === 'stop') return verdict.end;
  if (verdict.kind === 'blocked') return null;
  return postProcess(ctx, await execute(ctx));
}

function requestedPreview(args: unknown): number | undefined {
  const requested = (args as { max_preview_bytes?: unknown } | null)?.max_preview_bytes;
  return typeof requested === 'number' ? requested : undefined;
}

/** Runs the tool; a thrown error is the call's failed result, never the turn's. */
async function execute(ctx: CallContext): Promise<ToolOutcome> {
  const { deps, agent, call } = ctx;
  try {
    const plan = deps.state().activePlan;
    return await deps.tools.execute(call.name, ctx.args, {
      agent,
      signal: ctx.signal,
      previewLimit: resultCap(agent === 'plan' ? 'plan' : 'exec', ctx.previewKind, requestedPreview(ctx.args)),
      commands: deps.commands,
      ...(plan ? { planFile: `${deps.root}/${plan.planFile}` } : {}),
    });
  } catch (err) {
    return {
      kind: 'result',
      ok: false,
      content: `Tool failed: ${errorMessage(err)}`,
      class: 'other',
      empty: true,
      truncated: false,
    };
  }
}

async function postProcess(ctx: CallContext, outcome: ToolOutcome): Promise<TurnEnd | null> {
  if (outcome.kind === 'interview') {
    ctx.batch.interview = { callId: ctx.call.id, questions: outcome.questions };
    return null;
  }
  if (outcome.kind === 'planning_suggested') return planningSuggested(ctx, outcome.reason);
  if (ctx.tracker !== null) ctx.turn.trackerRepeats.record(ctx.tracker, outcome.ok);
  await recordResult(ctx, outcome);
  return null;
}

/** MODE-4: the agent suggested planning; skip-confirmations enters it directly, otherwise the user is asked. */
async function planningSuggested(ctx: CallContext, reason: string): Promise<TurnEnd> {
  const { deps, call } = ctx;
  if (deps.planConfirmation === 'skip') {
    await deps.emit({
      type: 'tool.result',
      callId: call.id,
      name: call.name,
      ok: true,
      content:
        'Plan confirmation is off in this session, so the Planning workflow starts now. Stop here; planning continues read-only.',
    });
    await deps.emit({
      type: 'notice',
      level: 'info',
      text: `The agent suggested planning (${reason}); plan confirmation is off, so the Planning workflow starts now, read-only.`,
    });
    return { status: 'idle', next: { kind: 'planning' } };
  }
  await deps.emit({
    type: 'tool.result',
    callId: call.id,
    name: call.name,
    ok: true,
    content: 'The user was asked whether to enter the Planning workflow. Stop here and wait for their decision.',
  });
  await deps.emit({
    type: 'interview.requested',
    interviewId: `planning-${call.id}`,
    source: 'runtime',
    questions: [
      {
        id: 'enter_planning',
        header: 'Enter Planning workflow?',
        question: `Enter Planning workflow? ${reason}`,
        options: [
          {
            label: 'Enter Planning workflow (Recommended)',
            description: 'Enter read-only planning and research.',
            recommended: true,
          },
          { label: 'Continue without Planning workflow' },
        ],
        allowFreeform: false,
      },
    ],
  });
  return { status: 'awaiting_input', reason: 'Waiting for your decision on entering the Planning workflow.' };
}

/** What navigation counts the call as: a command from the reading its gate check judged (one reading, issue 17). */
function described(ctx: CallContext): ReturnType<typeof describeToolCall> {
  return ctx.gate.allowed && ctx.gate.command !== undefined
    ? describeCommand(ctx.gate.command)
    : describeToolCall(ctx.call.name, ctx.args);
}

/** NAV-5: the result as the preview budget lets the model see it, then navigation accounting (NAV-2 … NAV-4). */
async function recordResult(ctx: CallContext, outcome: Extract<ToolOutcome, { kind: 'result' }>): Promise<void> {
  const { deps, turn, call } = ctx;
  const requested = requestedPreview(ctx.args);
  const bodyBytes = Buffer.byteLength(outcome.content, 'utf8');
  const preview = previewResult(turn.preview, {
    kind: ctx.previewKind,
    bodyBytes,
    ...(requested !== undefined ? { requested } : {}),
  });
  turn.preview = preview.state;
  const content =
    preview.decision.kind === 'stub'
      ? previewStub({ tool: call.name, bodyBytes, lines: outcome.content.split('\n').length })
      : preview.decision.truncated
        ? `${truncateUtf8(outcome.content, preview.decision.bytes)}\n[… output cut at ${preview.decision.bytes} of ${bodyBytes} bytes by this turn's preview budget; narrow the request to see more]`
        : outcome.content;
  await deps.emit({
    type: 'tool.result',
    callId: call.id,
    name: call.name,
    ok: outcome.ok,
    content,
    ...(outcome.truncated || preview.decision.kind === 'stub' ? { truncated: true } : {}),
  });
  if (preview.decision.synthesis) schedule(ctx.batch, 'the preview budget is used up');

  const signal = navigationSignal({ succeeded: outcome.ok, empty: outcome.empty, repeated: false });
  const nav = navigate(turn.nav, { kind: 'outcome', outcome: { ...described(ctx), class: outcome.class, signal } });
  turn.nav = nav.state;
  if (nav.decision.kind === 'schedule_pass') schedule(ctx.batch, nav.decision.reason);
}

/**
 * After the last call: a model question waits for the user, a tripped fuse recovers or ends, a
 * scheduled pass closes tools: synthesis in planning, in an execution agent the same recovery pass
 * a tripped fuse starts (NAV-4). A trip wins over a scheduled pass, so one pass is announced once.
 */
async function finishBatch(
  deps: TurnDeps,
  turn: TurnState,
  batch: BatchState,
  agent: AgentMode,
): Promise<TurnEnd | null> {
  if (batch.interview) {
    await deps.emit({
      type: 'interview.requested',
      interviewId: batch.interview.callId,
      source: 'model',
      questions: batch.interview.questions,
    });
    return { status: 'awaiting_input', reason: 'Waiting for your answer.' };
  }
  if (batch.tripped) {
    if (batch.tripped.next === 'end_turn_blocked') return blockedEnd(deps, batch.tripped.message);
    await recoveryPass(deps, turn, batch.tripped.message);
    return null;
  }
  if (batch.scheduled === null) return null;
  if (agent === 'plan') {
    turn.nav = navigate(turn.nav, { kind: 'pass_scheduled' }).state;
    await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason: batch.scheduled }));
    return null;
  }
  await deps.emit({
    type: 'notice',
    level: 'info',
    text: `Tool calls stopped adding evidence (${batch.scheduled}). The agent answers once without tools from what it found; tools reopen with your next message.`,
  });
  await recoveryPass(deps, turn, batch.scheduled);
  return null;
}

/** One tool-free recovery pass; it has its own fuse: 1× cap, counted from zero (FUSE-1). */
async function recoveryPass(deps: TurnDeps, turn: TurnState, reason: string): Promise<void> {
  turn.fuse = newFuse();
  turn.nav = navigate(turn.nav, { kind: 'recovery' }).state;
  await directive(deps, turn, 'recovery', fill(deps.prompts.recovery, { reason }));
}

/** FUSE-2/FUSE-3: checkpoint the history first; the handoff offers resume only if that worked. */
async function blockedEnd(deps: TurnDeps, reason: string): Promise<TurnEnd> {
  const handoff = blockedHandoff({ planning: deps.state().agent === 'plan', reason, archive: await deps.checkpoint() });
  return { status: 'blocked', reason: [handoff.summary, ...handoff.nextSteps.map((s) => `- ${s}`)].join('\n') };
}

/**
 * Tool calls while tools are closed. In a recovery pass they are blocked calls counted by the
 * recovery fuse (1× cap, FUSE-1); in a synthesis pass they are a violation that spends allowance
 * like any other miss (SYN-1) and the pass is asked for again.
 */
export async function refuseClosedCalls(
  deps: TurnDeps,
  turn: TurnState,
  calls: readonly ToolCall[],
): Promise<TurnEnd | null> {
  const recovering = turn.phase === 'recovery';
  let tripped: string | null = null;
  for (const call of calls) {
    await deps.emit(toolCallEvent(call));
    await deps.emit(
      toolBlockedEvent(
        call,
        recovering ? 'fuse' : 'navigation',
        'Tools are closed for this pass: answer from the evidence you already have.',
      ),
    );
    if (!recovering) continue;
    const step = recordCall(turn.fuse, 'blocked', fuseLimits(deps.limits.maxConsecutiveBlocked, 'recovery'));
    turn.fuse = step.state;
    if (step.decision.kind === 'tripped') tripped ??= step.decision.message;
  }
  if (tripped) return blockedEnd(deps, tripped);
  if (!recovering)
    await directive(
      deps,
      turn,
      'synthesis',
      fill(deps.prompts.synthesis, { reason: 'a tool was called during a tool-free pass' }),
    );
  return null;
}

function truncateUtf8(text: string, bytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= bytes) return text;
  // Drop a partial multi-byte character at the cut.
  return buf
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
}
