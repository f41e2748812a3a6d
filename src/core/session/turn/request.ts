/**
 * One model request of the turn: streamed through the plan parser (visible text, reasoning and
 * the plan body as events, EVT-1), transport retries counted against the synthesis allowance
 * while tools are closed (SYN-1), the answer completed as events.
 */
import {
  collectStream,
  requestView,
  streamWithRetry,
  type FinishReason,
  type ModelResponse,
  type RetryOptions,
  type StreamOutcome,
} from '../../llm';
import { PlanStreamParser, type PlanStreamResult } from '../../plan';
import type { ExecutionMode } from '../../vocabulary';
import { fill, type PromptTemplates } from '../prompts';
import type { SessionState } from '../state';
import type { TurnDeps, TurnEnd } from './deps';
import { toolsClosed, type TurnState } from './phase';

/** One synthesis request plus at most two corrective requests (SYN-1). */
export const SYNTHESIS_ALLOWANCE = 3;

/** What the execution prompt says about confirmations: the one difference between build and auto (MODE-7). */
const CONFIRMATION: Readonly<Record<ExecutionMode, string>> = {
  build: 'Commands you run with run_command are shown to the user for confirmation first.',
  auto: 'Commands you run with run_command execute without confirmation; the same safety gates apply.',
};

/** The system prompt for the agent. */
function systemPrompt(prompts: PromptTemplates, state: SessionState): string {
  if (state.agent === 'plan') return fill(prompts.plan, { workspace: state.workspace });
  return fill(prompts.build, {
    workspace: state.workspace,
    agent: state.agent,
    confirmation: CONFIRMATION[state.agent],
  });
}

export type ModelStep =
  | { kind: 'answered'; response: ModelResponse; finishReason: FinishReason; streamed: PlanStreamResult }
  /** A failed request while tools are closed: the runloop asks again, or the user once the allowance is spent (SYN-3). */
  | { kind: 'retry' }
  | { kind: 'end'; end: TurnEnd };

export async function askModel(deps: TurnDeps, turn: TurnState, signal: AbortSignal): Promise<ModelStep> {
  // SYN-1: while tools are closed every request and transport retry spends the allowance; the event
  // fold counts them from their events (message.completed, provider.failed, provider.retry).
  const closed = toolsClosed(turn);
  const parser = new PlanStreamParser();
  const outcome = await stream(deps, closed, parser, signal);

  if (outcome.status === 'cancelled') return { kind: 'end', end: { status: 'cancelled' } };
  if (outcome.status === 'failed') {
    await deps.emit({ type: 'provider.failed', failure: outcome.failure });
    if (closed) return { kind: 'retry' };
    return { kind: 'end', end: { status: 'failed', reason: outcome.failure.message } };
  }
  const streamed = parser.finish();
  if (streamed.flushed) await deps.emit({ type: 'message.delta', text: streamed.flushed });
  const planRest = parser.takePlanDelta();
  if (planRest) await deps.emit({ type: 'plan.delta', text: planRest });
  await deps.emit({ type: 'message.completed', text: outcome.response.text, finishReason: outcome.finishReason });
  if (streamed.plan !== null) await deps.emit({ type: 'plan.completed', text: streamed.plan });
  return { kind: 'answered', response: outcome.response, finishReason: outcome.finishReason, streamed };
}

function stream(
  deps: TurnDeps,
  closed: boolean,
  parser: PlanStreamParser,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const state = deps.state();
  const request = {
    system: systemPrompt(deps.prompts, state),
    messages: requestView(state.history),
    tools: deps.tools.definitions(state.agent),
    toolChoice: closed ? 'none' : 'auto',
    maxOutputTokens: deps.limits.maxOutputTokens,
    signal,
  } as const;
  const retry: RetryOptions = {
    ...deps.retry,
    onRetry: (notice) => {
      void deps.emit({ type: 'provider.retry', retry: notice.retry, delayMs: notice.delayMs, failure: notice.failure });
    },
  };
  return collectStream(streamWithRetry(deps.provider, request, retry), async (chunk) => {
    if (chunk.type === 'text_delta') {
      const visible = parser.push(chunk.text);
      if (visible) await deps.emit({ type: 'message.delta', text: visible });
      // EVT-1: the plan body streams as it arrives, one event per provider chunk at most.
      const planDelta = parser.takePlanDelta();
      if (planDelta) await deps.emit({ type: 'plan.delta', text: planDelta });
    } else if (chunk.type === 'reasoning_delta') {
      await deps.emit({ type: 'reasoning.delta', text: chunk.text });
    }
  });
}
