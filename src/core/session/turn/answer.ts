/**
 * What the turn does with a completed model answer: tool calls go to a batch (or are refused
 * while tools are closed); in an execution agent a tagged plan is a revision (EXEC-4), anything
 * else ends the turn; in planning the answer is condensed, asked for again, repaired (SYN-4) or
 * published. Each returns a TurnEnd, or null when the turn continues with another request.
 */
import type { PlanStreamResult } from '../../plan';
import { fill } from '../prompts';
import { refuseClosedCalls, runBatch } from './batch';
import type { TurnDeps, TurnEnd } from './deps';
import { directive, toolsClosed, type TurnState } from './phase';
import { approvalOrHandoff, executionReplan, MAX_REPAIRS, publishPlan } from './plan-publish';
import type { ModelStep } from './request';

const KEEP_PLANNING = 'No valid plan yet. Keep planning: add the missing details or send "continue".';

export async function handleAnswer(
  deps: TurnDeps,
  turn: TurnState,
  answer: Extract<ModelStep, { kind: 'answered' }>,
  planning: boolean,
  signal: AbortSignal,
): Promise<TurnEnd | null> {
  const { response, streamed } = answer;
  if (response.toolCalls.length > 0) {
    return toolsClosed(turn)
      ? refuseClosedCalls(deps, turn, response.toolCalls)
      : runBatch(deps, turn, response.toolCalls, signal);
  }
  const truncated = answer.finishReason === 'length' || streamed.truncated;
  if (!planning) {
    // EXEC-4: only a tagged block is a revision; a summary with headings is just an answer.
    if (streamed.plan !== null && streamed.source === 'tagged')
      return executionReplan(deps, turn, streamed.plan, truncated);
    return { status: 'idle' };
  }
  return planningAnswer(deps, turn, streamed, response.text, truncated);
}

async function planningAnswer(
  deps: TurnDeps,
  turn: TurnState,
  streamed: PlanStreamResult,
  text: string,
  truncated: boolean,
): Promise<TurnEnd | null> {
  // INT-3: after a denied interview the one synthesis retry either yields a valid plan or planning waits.
  const retryOver = turn.denialRetry && toolsClosed(turn);
  if (truncated && (streamed.plan !== null || text.trim() !== '')) return condense(deps, turn, retryOver);
  if (streamed.plan === null) return askForPlan(deps, turn, text, retryOver);
  return publishOrRepair(deps, turn, streamed.plan, retryOver);
}

/** A cut-off answer is asked for once more, shorter. */
async function condense(deps: TurnDeps, turn: TurnState, retryOver: boolean): Promise<TurnEnd | null> {
  if (retryOver) return { status: 'idle', reason: KEEP_PLANNING };
  if (turn.condensed)
    return {
      status: 'blocked',
      reason: 'The plan was cut off twice. Ask for a shorter plan or raise the output limit.',
    };
  turn.condensed = true;
  await directive(deps, turn, 'condense', deps.prompts.condense, true);
  return null;
}

/** An answer without a plan block: in research it is just an answer; a tool-free pass asks again. */
async function askForPlan(deps: TurnDeps, turn: TurnState, text: string, retryOver: boolean): Promise<TurnEnd | null> {
  if (retryOver) return { status: 'idle', reason: KEEP_PLANNING };
  if (!toolsClosed(turn)) return { status: 'idle' };
  // SYN-2: a reasoning-only or empty answer never becomes a plan or a final response.
  const reason = text.trim() === '' ? 'the last answer was empty' : 'the last answer had no plan block';
  await directive(deps, turn, 'synthesis', fill(deps.prompts.synthesis, { reason }));
  return null;
}

/** A valid plan is published; an invalid one is repaired at most MAX_REPAIRS times (SYN-4). */
async function publishOrRepair(
  deps: TurnDeps,
  turn: TurnState,
  plan: string,
  retryOver: boolean,
): Promise<TurnEnd | null> {
  const verdict = await publishPlan(deps, plan, turn.repairs);
  if (verdict.kind === 'persisted') return approvalOrHandoff(deps, verdict.planFile);
  if (verdict.kind === 'store_failed') return { status: 'blocked', reason: verdict.reason };
  if (retryOver) return { status: 'idle', reason: KEEP_PLANNING };
  if (turn.repairs >= MAX_REPAIRS) {
    return { status: 'blocked', reason: `The plan is still invalid after ${MAX_REPAIRS} repairs: ${verdict.summary}` };
  }
  turn.repairs += 1;
  await directive(deps, turn, 'repair', verdict.repairRequest, toolsClosed(turn));
  return null;
}
