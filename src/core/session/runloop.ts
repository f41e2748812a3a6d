/**
 * One turn of an agent: request → stream (through the plan parser) → tool calls (admitted step by
 * step, turn/admission.ts) → results attached to their batch → next request, until the model
 * answers without tools. In plan mode the answer's plan is extracted, validated, repaired at most
 * twice (SYN-4), persisted (STORE-1) and put up for approval; in an execution agent a plan block
 * is a mid-execution revision (EXEC-4). The turn's phase (research, repair, synthesis, recovery)
 * is explicit in turn/phase.ts.
 *
 * Limits: the implementation turn gets its own loop allowance (EXEC-1); the session tool-call
 * limit and the execution tool-loop limit pause the turn on a runtime prompt (`turn.suspended`),
 * and the session continues the same turn when the user answers (EXEC-3). Everything a paused
 * turn needs to continue is in the event fold, so a resumed session can answer it too.
 *
 * Everything the turn does is said through `emit`: the session applies each event to its state
 * and writes it to the log, so the history the next request is built from is the event fold.
 */
import { consume } from '../guards';
import { recoveryInterview } from './interview';
import { handleAnswer } from './turn/answer';
import { runBatch } from './turn/batch';
import type { TurnDeps, TurnEnd } from './turn/deps';
import { loopLimitReached, turnBudget } from './turn/limits';
import { newTurnState, toolsClosed, type TurnState } from './turn/phase';
import { askModel, SYNTHESIS_ALLOWANCE } from './turn/request';

export type { TurnDeps, TurnEnd, TurnResume } from './turn/deps';
export {
  DEFAULT_SESSION_TOOL_CALLS,
  grantedLoopLimit,
  HARD_LOOP_CAP,
  IMPLEMENTATION_LOOP_ALLOWANCE,
  implementationLoopLimit,
  LIMIT_DENY,
  LIMIT_GRANT,
  sessionCallLimit,
  turnBudget,
} from './turn/limits';

/** INT-3: dismissed model interviews after which questions are denied for the session. */
export const INTERVIEW_DENIAL_DISMISSALS = 2;

export async function runTurn(deps: TurnDeps, signal: AbortSignal): Promise<TurnEnd> {
  const start = deps.state();
  const planning = start.agent === 'plan';
  const limits = turnBudget(deps.limits, start);
  const turn = newTurnState(start, limits);

  if (deps.resume && deps.resume.suspension.calls.length > 0) {
    const { calls, firstCallEmitted } = deps.resume.suspension;
    const stop = await runBatch(deps, turn, calls, signal, { firstCallEmitted });
    if (stop) return stop;
  }

  for (;;) {
    if (signal.aborted) return { status: 'cancelled' };
    const loop = await chargeLoop(deps, turn, limits.baseLoops);
    if (loop === 'recheck') continue;
    if (loop !== 'charged') return loop;
    if (toolsClosed(turn) && deps.state().allowanceUsed >= SYNTHESIS_ALLOWANCE) return exhausted(deps, planning);
    const step = await askModel(deps, turn, signal);
    if (step.kind === 'retry') continue;
    if (step.kind === 'end') return step.end;
    const stop = await handleAnswer(deps, turn, step, planning, signal);
    if (stop) return stop;
  }
}

/**
 * Charges one model round-trip to the loop budget (not once planning research is over). At the
 * limit the turn pauses or ends, or continues under a grant or as synthesis and checks again.
 */
async function chargeLoop(
  deps: TurnDeps,
  turn: TurnState,
  baseLoops: number,
): Promise<'charged' | 'recheck' | TurnEnd> {
  if (turn.loopsSpent) return 'charged';
  const loop = consume(turn.budget, 'tool_loop');
  turn.budget = loop.state;
  if (loop.decision.kind !== 'exhausted') return 'charged';
  const { used, max } = loop.decision.record;
  return (await loopLimitReached(deps, turn, baseLoops, used, max)) ?? 'recheck';
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
  await deps.emit({
    type: 'planning.awaiting_input',
    reason,
    choices: recoveryInterview()[0]!.options.map((o) => o.label),
  });
  return { status: 'awaiting_input', reason };
}
