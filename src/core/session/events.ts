/**
 * The one authoritative event stream (EVT-1). Every client (webview, tree view, CLI JSONL,
 * `resume`) rebuilds the lifecycle from these events alone, and the session log stores exactly
 * these lines, so each event is a zod schema and every emitted event is validated.
 *
 * Envelope: `type`, `session` (id), `turn` (0 before the first turn), `seq` (strictly increasing
 * per session, across resumes), `ts` (ISO-8601 UTC).
 */
import { z } from 'zod';
import type { Clock } from '../ports';
import {
  AGENT_MODES,
  APPROVAL_CHOICES,
  BUDGET_KINDS,
  GRANTABLE_BUDGET_KINDS,
  HANDOFF_PHASES,
  TURN_STATUSES,
} from '../vocabulary';

export const AgentSchema = z.enum(AGENT_MODES);

const text = z.string();
const count = z.int().min(0);
const callId = z.string().min(1);
const toolName = z.string().min(1);

const envelope = {
  session: z.string().min(1),
  turn: count,
  seq: count,
  ts: z.iso.datetime(),
};

function event<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.strictObject({ type: z.literal(type), ...envelope, ...shape });
}

/** Which mode switch an event belongs to: a failed switch is logged with it and can be retried (MODE-5). */
const SwitchPathSchema = z.enum(['plan_entry', 'plan_approval', 'plan_exit', 'startup_plan_entry']);

const ApprovalChoiceSchema = z.enum(APPROVAL_CHOICES);
const TurnStatusSchema = z.enum(TURN_STATUSES);
const BudgetKindSchema = z.enum(BUDGET_KINDS);
const HandoffPhaseSchema = z.enum(HANDOFF_PHASES);

const failureShape = z.strictObject({
  kind: z.enum(['http', 'transport', 'protocol', 'setup']),
  provider: z.string(),
  status: z.int().optional(),
  retryable: z.boolean(),
  retryAfterMs: z.number().min(0).optional(),
  message: text,
  attempts: z.int().min(1).optional(),
});

const interviewOption = z.strictObject({
  label: z.string().min(1),
  description: z.string().optional(),
  recommended: z.boolean().optional(),
});

const interviewQuestion = z.strictObject({
  id: z.string().min(1),
  header: z.string().optional(),
  question: z.string().min(1),
  options: z.array(interviewOption),
  allowFreeform: z.boolean(),
});

/** A validator issue as `src/core/plan/validate.ts` reports it (`PlanIssue`). */
const validatorReason = z.strictObject({
  code: z.string().min(1),
  message: z.string().min(1),
  step: z.int().min(1).optional(),
  section: z.string().optional(),
  line: z.int().min(1).optional(),
});

export const SessionEventSchema = z.discriminatedUnion('type', [
  event('session.started', {
    agent: AgentSchema,
    provider: z.string().min(1),
    model: z.string(),
    workspace: z.string().min(1),
    resumed: z.boolean(),
    /** How agent commands are contained here (RO-1): shown in the chat header and by the CLI. */
    sandbox: z.strictObject({ sandboxed: z.boolean(), summary: z.string().min(1) }).optional(),
  }),
  event('mode.changed', {
    from: AgentSchema,
    to: AgentSchema,
    switchPath: SwitchPathSchema.optional(),
    reason: text.optional(),
  }),
  /**
   * The user asked for planning explicitly (`/plan`, `/plan <goal>`, `/mode plan`, VS Code's Start
   * Planning): until planning ends, its plans wait for approval even when confirmations are
   * skipped (GATE-5). Planning the session started in, or entered from the agent's start_planning
   * suggestion, is implicit.
   */
  event('planning.requested', { command: z.enum(['/plan', '/mode plan']) }),
  event('turn.started', {
    agent: AgentSchema,
    /** Why the turn runs: the user's input, the approved implementation, or a runtime pass. */
    kind: z.enum(['user', 'implementation', 'synthesis', 'repair', 'continuation']),
    input: text.optional(),
  }),
  event('message.delta', { text }),
  event('message.completed', {
    text,
    finishReason: z.enum(['stop', 'tool_calls', 'length', 'content_filter', 'other']),
  }),
  /** Private reasoning: shown as such, never as a plan or answer (SYN-2). */
  event('reasoning.delta', { text }),
  event('tool.call', { callId, name: toolName, arguments: text }),
  event('tool.result', {
    callId,
    name: toolName,
    ok: z.boolean(),
    content: text,
    truncated: z.boolean().optional(),
  }),
  event('tool.blocked', {
    callId,
    name: toolName,
    /** What the model is told, e.g. "Mutation blocked: …". */
    reason: text,
    policy: z.enum(['read_only', 'shell', 'fuse', 'navigation', 'budget', 'interview']).optional(),
  }),
  event('plan.delta', { text }),
  event('plan.completed', {
    text,
    /**
     * `editor`: the runtime re-read the plan file after the user edited and saved it (GATE-2), so
     * this text is a new revision of the plan under review rather than the model's answer. Absent
     * for the model's plans and in logs written before revisions were tracked.
     */
    source: z.literal('editor').optional(),
  }),
  event('plan.rejected', {
    reasons: z.array(validatorReason).min(1),
    /** 0 for the first draft, 1..2 for repair attempts (SYN-4). */
    attempt: count,
    draft: text,
    final: z.boolean(),
  }),
  event('plan.persisted', {
    planFile: z.string().min(1),
    title: text.optional(),
    trackerFile: z.string().min(1).optional(),
  }),
  event('plan.approval.requested', {
    planFile: z.string().min(1),
    trackerFile: z.string().min(1).optional(),
  }),
  event('plan.approval.resolved', {
    choice: ApprovalChoiceSchema,
    automatic: z.boolean(),
    planFile: z.string().min(1).optional(),
  }),
  event('interview.requested', {
    interviewId: z.string().min(1),
    source: z.enum(['model', 'runtime']),
    questions: z.array(interviewQuestion).min(1),
  }),
  event('interview.resolved', {
    interviewId: z.string().min(1),
    /** Absent when the user dismissed the interview (Esc, Ctrl-C). */
    answers: z
      .array(
        z.strictObject({ questionId: z.string().min(1), label: z.string().optional(), note: z.string().optional() }),
      )
      .optional(),
    cancelled: z.boolean(),
    /** The runtime withdrew the question (a new `/plan` request), so it is not the user's dismissal (INT-3). */
    superseded: z.boolean().optional(),
  }),
  /** Headless stand-in for the recovery interview (SYN-3, INT-3). */
  event('planning.awaiting_input', {
    reason: text,
    choices: z.array(z.string().min(1)).min(1),
  }),
  event('tracker.updated', {
    trackerFile: z.string().min(1),
    total: count,
    completed: count,
    inProgress: count,
    blocked: count,
  }),
  event('budget_exhausted', { kind: BudgetKindSchema, used: count, max: count }),
  /**
   * A turn paused on a runtime limit prompt (EXEC-3). `calls` are the rest of the assistant's
   * tool-call batch, in order, starting with the call that hit the limit (empty for a tool-loop
   * pause, which happens between requests); `firstCallEmitted` says whether that first call's
   * `tool.call` event is already in the log. Answering the interview continues the same turn.
   */
  event('turn.suspended', {
    reason: z.enum(GRANTABLE_BUDGET_KINDS),
    interviewId: z.string().min(1),
    calls: z.array(z.strictObject({ callId, name: toolName, arguments: text })),
    firstCallEmitted: z.boolean(),
  }),
  /**
   * INT-3: the user turned down clarification questions for good (dismissed them repeatedly);
   * later `request_user_input` calls are denied without asking.
   */
  event('interview.denied', { dismissals: count }),
  event('session_tool_limit_increased', { previous: count, limit: count }),
  event('tool_loop_limit_increased', { previous: count, limit: count, automatic: z.boolean() }),
  event('context.reset', {
    trigger: z.enum(['fresh_context', 'user']),
    planPreserved: z.boolean(),
    /** Context use before the reset, 0..1 (shown as "Context: 7% used."). */
    previousContextUsage: z.number().min(0).max(1),
    toolBudgetReset: z.boolean(),
  }),
  /**
   * Where an approved handoff is (GATE-4): a fresh-context handoff passes `preparing` (before its
   * `context.reset`), `restoring` and `starting`; every handoff ends with `done`, just before its
   * implementation turn starts. Clients show the phase's text and lock input until `done`. Logs
   * written before this event carried the three texts as plain `notice` events.
   */
  event('handoff.phase', { phase: HandoffPhaseSchema }),
  /** One per retry, each charged against the synthesis allowance while recovering (SYN-1). */
  event('provider.retry', { retry: z.int().min(1), delayMs: z.number().min(0), failure: failureShape }),
  /** A provider failure that ended a model request (EXEC-5: distinct from a cancellation). */
  event('provider.failed', { failure: failureShape }),
  /**
   * A runtime-authored message added to the model's history (repair request, synthesis pass,
   * condense retry, recovery pass). `toolsClosed` says whether the turn's tools are closed after it:
   * the fold keeps a closed pass for the rest of the turn, continuations and a resume included
   * (SYN-1). `allowanceUsed` is the synthesis allowance spent so far this turn, for readers of the
   * log; the fold counts the allowance from the requests' own events.
   */
  event('directive', {
    kind: z.enum(['repair', 'synthesis', 'condense', 'recovery', 'handoff']),
    text,
    allowanceUsed: count,
    toolsClosed: z.boolean(),
  }),
  /** Something the user must see that is not a model message: a dropped `/plan`, a failed handoff step. */
  event('notice', {
    level: z.enum(['info', 'warning', 'error']),
    text,
    switchPath: SwitchPathSchema.optional(),
    /**
     * The notice is about a save of the plan file that did not validate (GATE-2): the chat shows it
     * on that plan's card until a later save is valid, instead of as a line that goes stale.
     */
    invalidEdit: z.strictObject({ planFile: z.string().min(1), reasons: z.array(validatorReason).min(1) }).optional(),
  }),
  event('turn.completed', { status: TurnStatusSchema, reason: text.optional() }),
]);

export type SessionEvent = z.infer<typeof SessionEventSchema>;
export type SessionEventType = SessionEvent['type'];
export type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

type Envelope = 'session' | 'turn' | 'seq' | 'ts';
/** An event as its producer writes it; the sequencer adds the envelope. */
export type EventInput = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, Envelope> : never) : never;

export type BlockPolicy = NonNullable<Extract<EventInput, { type: 'tool.blocked' }>['policy']>;

/** The model's tool call as it is recorded, before anything decides about it. */
export function toolCallEvent(call: { id: string; name: string; arguments: string }): EventInput {
  return { type: 'tool.call', callId: call.id, name: call.name, arguments: call.arguments };
}

/** A tool call refused without running: why, and which policy refused it. */
export function toolBlockedEvent(call: { id: string; name: string }, policy: BlockPolicy, reason: string): EventInput {
  return { type: 'tool.blocked', callId: call.id, name: call.name, reason, policy };
}

/**
 * Stamps events with the envelope. Plain state, no emitter: the caller decides where events go
 * (log, webview, stdout). `beginTurn` starts the next turn number; a resumed session continues
 * from the last logged event so `seq` and `turn` keep increasing.
 */
export class EventSequencer {
  private seq: number;
  private turnNumber: number;

  constructor(
    readonly session: string,
    private readonly clock: Clock,
    resumeFrom?: { seq: number; turn: number },
  ) {
    this.seq = resumeFrom ? resumeFrom.seq + 1 : 0;
    this.turnNumber = resumeFrom ? resumeFrom.turn : 0;
  }

  beginTurn(): number {
    this.turnNumber += 1;
    return this.turnNumber;
  }

  /** Validates and stamps; throws a ZodError naming the field when a producer builds a bad event. */
  stamp(input: EventInput): SessionEvent {
    const candidate = {
      ...input,
      session: this.session,
      turn: this.turnNumber,
      seq: this.seq,
      ts: new Date(this.clock.now()).toISOString(),
    };
    const parsed = SessionEventSchema.parse(candidate);
    this.seq += 1;
    return parsed;
  }
}
