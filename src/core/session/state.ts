/**
 * The session's state as a fold over its events (EVT-1): the live session applies every event it
 * emits through `applyEvent`, and `resume` / a window reload applies the logged events the same
 * way, so a restored session is exactly the one that was running.
 */
import type { Message, ToolCall } from '../llm';
import type { Agent, SessionEvent, TurnStatus } from './events';
import { answerText, type InterviewQuestionInput } from './interview';

export const INTERVIEW_DISMISSED = 'The user dismissed the question without answering. Do not ask it again this turn; continue with a reasonable default and state it as an assumption.';

export interface PendingInterview {
  interviewId: string;
  source: 'model' | 'runtime';
  questions: InterviewQuestionInput[];
}

export interface SessionState {
  id: string;
  workspace: string;
  provider: string;
  model: string;
  agent: Agent;
  /** Restored by `/plan off` (MODE-2). */
  previousExecution: Exclude<Agent, 'plan'>;
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
  /** SYN-1 allowance consumed in the current turn. */
  allowanceUsed: number;
  /** The last assistant message asked whether to implement (MODE-6 short confirmations). */
  askedToImplement: boolean;
}

export function initialState(init: { id: string; workspace: string; provider: string; model: string; agent: Agent }): SessionState {
  return {
    ...init,
    previousExecution: init.agent === 'plan' ? 'build' : init.agent,
    turn: 0,
    status: 'new',
    statusReason: null,
    history: [],
    pendingInterview: null,
    pendingApproval: null,
    activePlan: null,
    allowanceUsed: 0,
    askedToImplement: false,
  };
}

const ASKS_TO_IMPLEMENT = /\b(implement|proceed|start (the )?(implementation|build|coding)|ready to code)\b[^?\n]*\?\s*$/i;

function lastAssistant(history: Message[]): Extract<Message, { role: 'assistant' }> | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === 'assistant') return m;
  }
  return undefined;
}

/** Applies one event; returns a new state object (history arrays are copied on write). */
export function applyEvent(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'session.started':
      return { ...state, agent: event.agent, provider: event.provider, model: event.model, workspace: event.workspace,
        previousExecution: event.agent === 'plan' ? state.previousExecution : event.agent };
    case 'mode.changed':
      return { ...state, agent: event.to, previousExecution: event.from === 'plan' ? state.previousExecution : event.from };
    case 'turn.started': {
      const carriesInput = event.kind === 'user' || event.kind === 'implementation' || event.kind === 'continuation';
      const history = event.input !== undefined && carriesInput ? [...state.history, { role: 'user' as const, content: event.input }] : state.history;
      return { ...state, turn: event.turn, status: 'running', statusReason: null, history, allowanceUsed: 0, askedToImplement: false };
    }
    case 'message.completed':
      return {
        ...state,
        history: [...state.history, { role: 'assistant', content: event.text }],
        askedToImplement: ASKS_TO_IMPLEMENT.test(event.text.trim()),
      };
    case 'tool.call': {
      const history = [...state.history];
      const target = lastAssistant(history);
      if (!target) return state;
      const call: ToolCall = { id: event.callId, name: event.name, arguments: event.arguments };
      const index = history.lastIndexOf(target);
      history[index] = { ...target, toolCalls: [...(target.toolCalls ?? []), call] };
      return { ...state, history };
    }
    case 'tool.result':
      return { ...state, history: [...state.history, { role: 'tool', toolCallId: event.callId, name: event.name, content: event.content, isError: !event.ok }] };
    case 'tool.blocked':
      return { ...state, history: [...state.history, { role: 'tool', toolCallId: event.callId, name: event.name, content: event.reason, isError: true }] };
    case 'directive':
      return { ...state, history: [...state.history, { role: 'user', content: event.text }], allowanceUsed: Math.max(state.allowanceUsed, event.allowanceUsed) };
    case 'interview.requested':
      return { ...state, pendingInterview: { interviewId: event.interviewId, source: event.source, questions: event.questions } };
    case 'interview.resolved': {
      const pending = state.pendingInterview;
      if (!pending || pending.source !== 'model') return { ...state, pendingInterview: null };
      const content = event.cancelled || !event.answers ? INTERVIEW_DISMISSED : answerText(pending.questions, event.answers);
      return {
        ...state,
        pendingInterview: null,
        history: [...state.history, { role: 'tool', toolCallId: pending.interviewId, name: 'request_user_input', content, isError: event.cancelled }],
      };
    }
    case 'plan.persisted':
      return { ...state, activePlan: { planFile: event.planFile, title: event.title ?? null } };
    case 'plan.approval.requested':
      return { ...state, pendingApproval: { planFile: event.planFile } };
    case 'plan.approval.resolved':
      return { ...state, pendingApproval: null, activePlan: event.choice === 'cancel' ? null : state.activePlan };
    case 'context.reset':
      return { ...state, history: [], allowanceUsed: 0, askedToImplement: false };
    case 'turn.completed':
      return { ...state, status: event.status, statusReason: event.reason ?? null };
    default:
      return state;
  }
}

export function replay(init: SessionState, events: readonly SessionEvent[]): SessionState {
  return events.reduce(applyEvent, init);
}
