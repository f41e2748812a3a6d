/**
 * The session's state as a fold over its events (EVT-1): the live session applies every event it
 * emits through `applyEvent`, and `resume` / a window reload applies the logged events the same
 * way, so a restored session is exactly the one that was running.
 */
import type { Message, ToolCall } from '../llm';
import type { AgentMode, ExecutionMode, GrantableBudgetKind, TurnStatus } from '../vocabulary';
import type { EventOf, SessionEvent } from './events';
import { answerText, type InterviewQuestionInput } from './interview';

const INTERVIEW_DISMISSED =
  'The user dismissed the question without answering. Do not ask it again this turn; continue with a reasonable default and state it as an assumption.';

interface PendingInterview {
  interviewId: string;
  source: 'model' | 'runtime';
  questions: InterviewQuestionInput[];
}

/** A turn paused on a runtime limit prompt (EXEC-3); answering it continues the same turn. */
export interface Suspension {
  reason: GrantableBudgetKind;
  interviewId: string;
  /** The rest of the paused batch, starting with the call that hit the limit. */
  calls: ToolCall[];
  firstCallEmitted: boolean;
}

type TurnKind = EventOf<'turn.started'>['kind'];

/** A tool-free pass: synthesis, or the recovery pass after a tripped fuse, which stays recovery (FUSE-1). */
export type ClosedPass = 'synthesis' | 'recovery';

export interface SessionState {
  id: string;
  workspace: string;
  provider: string;
  model: string;
  agent: AgentMode;
  /** Restored by `/plan off` (MODE-2). */
  previousExecution: ExecutionMode;
  /** The current planning was asked for explicitly (`planning.requested`): its plans always wait for approval (GATE-5). */
  planningExplicit: boolean;
  turn: number;
  /** Last turn outcome; `running` while a turn is in progress; `new` before the first turn. */
  status: TurnStatus | 'running' | 'new';
  statusReason: string | null;
  history: Message[];
  pendingInterview: PendingInterview | null;
  /** The persisted plan waiting for "Ready to code?" (GATE-1), if any. */
  pendingApproval: { planFile: string } | null;
  /** The latest persisted plan of this session (approved or not). */
  activePlan: { planFile: string; title: string | null } | null;
  /**
   * The tool-free pass a guard put the current turn in (SYN-1), set by the `directive` that closed
   * its tools; null while they are open. Continuations of the turn and a resume start in it.
   */
  closedPass: ClosedPass | null;
  /** SYN-1 allowance spent in the current turn: every request and transport retry while tools are closed. */
  allowanceUsed: number;
  /** The last assistant message asked whether to implement (MODE-6 short confirmations). */
  askedToImplement: boolean;
  /** Why the current turn number began; its continuations keep it (EXEC-1, EXEC-4). */
  turnKind: TurnKind | null;
  /** Tool calls admitted this turn (the per-turn budget survives a pause, EXEC-3). */
  turnCalls: number;
  /** Model requests made this turn. */
  turnLoops: number;
  /** The turn's loop limit after grants (`tool_loop_limit_increased`); null = the configured one. */
  turnLoopLimit: number | null;
  /** A user granted more loops once: later loop-limit hits grant without asking (EXEC-3). */
  loopGrantLatched: boolean;
  /** Tool calls admitted in the whole session, across turns and resumes. */
  sessionCalls: number;
  /** The session tool-call limit after grants; null = the configured one. */
  sessionCallLimit: number | null;
  suspended: Suspension | null;
  /** Model interviews the user dismissed without answering (INT-3). */
  interviewDismissals: number;
  /** `request_user_input` is denied for the rest of the session (INT-3). */
  interviewsDenied: boolean;
}

export function initialState(init: {
  id: string;
  workspace: string;
  provider: string;
  model: string;
  agent: AgentMode;
}): SessionState {
  return {
    ...init,
    previousExecution: init.agent === 'plan' ? 'build' : init.agent,
    planningExplicit: false,
    turn: 0,
    status: 'new',
    statusReason: null,
    history: [],
    pendingInterview: null,
    pendingApproval: null,
    activePlan: null,
    closedPass: null,
    allowanceUsed: 0,
    askedToImplement: false,
    turnKind: null,
    turnCalls: 0,
    turnLoops: 0,
    turnLoopLimit: null,
    loopGrantLatched: false,
    sessionCalls: 0,
    sessionCallLimit: null,
    suspended: null,
    interviewDismissals: 0,
    interviewsDenied: false,
  };
}

/**
 * The closing question may still be wrapped in Markdown emphasis (`**Ready to code?**`) or trailed by
 * emoji and a `(yes/no)` hint (MODE-6); anything else after the `?` makes it no closing question.
 * Letters, not `\b`, bound the keyword: `_` is a word character, so `\b` misses `__Proceed?__`.
 */
const ASKS_TO_IMPLEMENT =
  /(?<![a-z\d])(implement|proceed|start (the )?(implementation|build|coding)|ready to code)(?![a-z\d])[^?\n]*\?(?:[\s*_~]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F|\u200D|\(\s*y(?:es)?\s*\/\s*no?\s*\))*$/iu;

function lastAssistant(history: Message[]): Extract<Message, { role: 'assistant' }> | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === 'assistant') return m;
  }
  return undefined;
}

/**
 * `owns`: `state.history` belongs to the caller alone (see `replay`), so messages are added to it in
 * place, which keeps replaying a long log linear instead of quadratic; otherwise it is copied on write.
 */
type Reducer<T extends SessionEvent['type']> = (
  state: SessionState,
  event: Extract<SessionEvent, { type: T }>,
  owns: boolean,
) => SessionState;

function withMessage(state: SessionState, message: Message, owns: boolean): Message[] {
  if (!owns) return [...state.history, message];
  state.history.push(message);
  return state.history;
}

/** State as it was; listed so that a new event type is a decision here. */
const unchanged = (state: SessionState): SessionState => state;

function turnStarted(
  state: SessionState,
  event: Extract<SessionEvent, { type: 'turn.started' }>,
  owns: boolean,
): SessionState {
  const carriesInput = event.kind === 'user' || event.kind === 'implementation' || event.kind === 'continuation';
  const history =
    event.input !== undefined && carriesInput
      ? withMessage(state, { role: 'user', content: event.input }, owns)
      : state.history;
  const base = {
    ...state,
    turn: event.turn,
    status: 'running' as const,
    statusReason: null,
    history,
    askedToImplement: false,
  };
  // A continuation of the same turn number keeps the turn's budgets, kind and closed tools (SYN-1).
  if (event.turn === state.turn && state.turnKind !== null) return base;
  return {
    ...base,
    turnKind: event.kind,
    turnCalls: 0,
    turnLoops: 0,
    turnLoopLimit: null,
    suspended: null,
    closedPass: null,
    allowanceUsed: 0,
  };
}

/**
 * The one rule for closed passes, shared by the fold and the running turn (turn/phase.ts): a
 * directive that closes tools starts a pass, a recovery directive the recovery pass (FUSE-1), and
 * recovery stays recovery until the turn ends (SYN-1).
 */
export function closedPassAfter(
  current: ClosedPass | null,
  kind: EventOf<'directive'>['kind'],
  closesTools: boolean,
): ClosedPass | null {
  if (!closesTools || current === 'recovery') return current;
  return kind === 'recovery' ? 'recovery' : 'synthesis';
}

/** One model request or transport retry: while tools are closed it spends the allowance (SYN-1). */
const spent = (state: SessionState): number => state.allowanceUsed + (state.closedPass === null ? 0 : 1);

function toolCalled(
  state: SessionState,
  event: Extract<SessionEvent, { type: 'tool.call' }>,
  owns: boolean,
): SessionState {
  const history = owns ? state.history : [...state.history];
  const target = lastAssistant(history);
  if (!target) return state;
  const call: ToolCall = { id: event.callId, name: event.name, arguments: event.arguments };
  const index = history.lastIndexOf(target);
  history[index] = { ...target, toolCalls: [...(target.toolCalls ?? []), call] };
  return { ...state, history, turnCalls: state.turnCalls + 1, sessionCalls: state.sessionCalls + 1 };
}

function interviewResolved(
  state: SessionState,
  event: Extract<SessionEvent, { type: 'interview.resolved' }>,
  owns: boolean,
): SessionState {
  const pending = state.pendingInterview;
  if (!pending || pending.source !== 'model') return { ...state, pendingInterview: null, suspended: null };
  const content =
    event.cancelled || !event.answers ? INTERVIEW_DISMISSED : answerText(pending.questions, event.answers);
  return {
    ...state,
    pendingInterview: null,
    interviewDismissals: state.interviewDismissals + (event.cancelled && !event.superseded ? 1 : 0),
    history: withMessage(
      state,
      { role: 'tool', toolCallId: pending.interviewId, name: 'request_user_input', content, isError: event.cancelled },
      owns,
    ),
  };
}

/** One reducer per event type; a Record, so a new event type must say what it does to the state. */
const REDUCERS: { readonly [T in SessionEvent['type']]: Reducer<T> } = {
  'session.started': (state, event) => ({
    ...state,
    agent: event.agent,
    provider: event.provider,
    model: event.model,
    workspace: event.workspace,
    previousExecution: event.agent === 'plan' ? state.previousExecution : event.agent,
  }),
  'mode.changed': (state, event) => ({
    ...state,
    agent: event.to,
    previousExecution: event.from === 'plan' ? state.previousExecution : event.from,
    planningExplicit: event.to === 'plan' && state.planningExplicit,
  }),
  'planning.requested': (state) => ({ ...state, planningExplicit: true }),
  'turn.started': turnStarted,
  'message.completed': (state, event, owns) => ({
    ...state,
    turnLoops: state.turnLoops + 1,
    allowanceUsed: spent(state),
    history: withMessage(state, { role: 'assistant', content: event.text }, owns),
    askedToImplement: ASKS_TO_IMPLEMENT.test(event.text.trim()),
  }),
  'tool.call': toolCalled,
  'tool.result': (state, event, owns) => ({
    ...state,
    history: withMessage(
      state,
      { role: 'tool', toolCallId: event.callId, name: event.name, content: event.content, isError: !event.ok },
      owns,
    ),
  }),
  // A blocked call never ran, so it spends no turn or session budget.
  'tool.blocked': (state, event, owns) => ({
    ...state,
    history: withMessage(
      state,
      { role: 'tool', toolCallId: event.callId, name: event.name, content: event.reason, isError: true },
      owns,
    ),
    turnCalls: Math.max(0, state.turnCalls - 1),
    sessionCalls: Math.max(0, state.sessionCalls - 1),
  }),
  'provider.failed': (state) => ({ ...state, turnLoops: state.turnLoops + 1, allowanceUsed: spent(state) }),
  'provider.retry': (state) => ({ ...state, allowanceUsed: spent(state) }),
  'turn.suspended': (state, event) => ({
    ...state,
    suspended: {
      reason: event.reason,
      interviewId: event.interviewId,
      calls: event.calls.map((c) => ({ id: c.callId, name: c.name, arguments: c.arguments })),
      firstCallEmitted: event.firstCallEmitted,
    },
  }),
  session_tool_limit_increased: (state, event) => ({ ...state, sessionCallLimit: event.limit }),
  tool_loop_limit_increased: (state, event) => ({
    ...state,
    turnLoopLimit: event.limit,
    loopGrantLatched: state.loopGrantLatched || !event.automatic,
  }),
  'interview.denied': (state) => ({ ...state, interviewsDenied: true }),
  directive: (state, event, owns) => ({
    ...state,
    history: withMessage(state, { role: 'user', content: event.text }, owns),
    closedPass: closedPassAfter(state.closedPass, event.kind, event.toolsClosed),
  }),
  'interview.requested': (state, event) => ({
    ...state,
    pendingInterview: { interviewId: event.interviewId, source: event.source, questions: event.questions },
  }),
  'interview.resolved': interviewResolved,
  'plan.persisted': (state, event) => ({
    ...state,
    activePlan: { planFile: event.planFile, title: event.title ?? null },
  }),
  'plan.approval.requested': (state, event) => ({ ...state, pendingApproval: { planFile: event.planFile } }),
  'plan.approval.resolved': (state, event) => ({
    ...state,
    pendingApproval: null,
    activePlan: event.choice === 'cancel' ? null : state.activePlan,
  }),
  'context.reset': (state) => ({ ...state, history: [], allowanceUsed: 0, askedToImplement: false }),
  'turn.completed': (state, event) => ({ ...state, status: event.status, statusReason: event.reason ?? null }),
  budget_exhausted: unchanged,
  'handoff.phase': unchanged,
  'message.delta': unchanged,
  notice: unchanged,
  'plan.completed': unchanged,
  'plan.delta': unchanged,
  'plan.rejected': unchanged,
  'planning.awaiting_input': unchanged,
  'reasoning.delta': unchanged,
  'tracker.updated': unchanged,
};

/**
 * Applies one event; returns a new state object. History arrays are copied on write, unless
 * `ownsHistory` (see Reducer).
 */
export function applyEvent(state: SessionState, event: SessionEvent, ownsHistory = false): SessionState {
  return (REDUCERS[event.type] as (state: SessionState, event: SessionEvent, owns: boolean) => SessionState)(
    state,
    event,
    ownsHistory,
  );
}

export function replay(init: SessionState, events: readonly SessionEvent[]): SessionState {
  let state: SessionState = { ...init, history: [...init.history] };
  // The copy above is replay's own, and so is every history array applyEvent makes from it.
  for (const event of events) state = applyEvent(state, event, true);
  return state;
}
