/**
 * The turn's tool-call and loop budgets (NAV-1, EXEC-1, EXEC-3) and the limit prompts that pause
 * a turn when one runs out: the session continues the same turn when the user answers.
 */
import { SETTINGS } from '../../config/settings';
import { newCounters, planningLimits } from '../../guards';
import type { ToolCall } from '../../llm';
import type { GrantableBudgetKind } from '../../vocabulary';
import type { InterviewQuestionInput } from '../interview';
import { fill } from '../prompts';
import type { SessionState } from '../state';
import type { TurnLimits } from '../turn-settings';
import type { TurnDeps, TurnEnd } from './deps';
import { directive, toolsClosed, type TurnState } from './phase';

/**
 * EXEC-1, EXEC-3: the hard cap on model round-trips per turn that runtime additions (the
 * implementation allowance, loop grants) may reach. A configured limit above it is kept as the
 * user's choice; the runtime just adds nothing beyond it. Table: 40 → 90, 100 → 120, 0 → 0.
 */
export const HARD_LOOP_CAP = 120;
/** EXEC-1: the implementation turn's one internal tool-loop allowance. */
export const IMPLEMENTATION_LOOP_ALLOWANCE = 50;
/** EXEC-3: what one tool-loop grant (prompted or automatic) adds, up to the hard cap. */
const LOOP_GRANT = 50;
/** EXEC-3: the session tool-call limit when none is configured. */
export const DEFAULT_SESSION_TOOL_CALLS = SETTINGS.maxToolCallsPerSession.default;

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
export function turnBudget(
  limits: TurnLimits,
  state: SessionState,
): { toolCalls: number; loops: number; baseLoops: number } {
  const planning = state.agent === 'plan';
  const configured = planningLimits({ toolCalls: limits.toolCallsPerTurn, loops: limits.loopsPerTurn }, planning);
  const baseLoops =
    !planning && state.turnKind === 'implementation' ? implementationLoopLimit(configured.loops) : configured.loops;
  return { toolCalls: configured.toolCalls, loops: state.turnLoopLimit ?? baseLoops, baseLoops };
}

/** The session tool-call limit now in force (EXEC-3): the configured one, or the last grant. */
export function sessionCallLimit(limits: TurnLimits, state: SessionState): number {
  return state.sessionCallLimit ?? limits.sessionToolCalls ?? DEFAULT_SESSION_TOOL_CALLS;
}

/** How each limit prompt reads (EXEC-3); a Record, so a new grantable budget must say it. */
const LIMIT_PROMPT: Readonly<
  Record<GrantableBudgetKind, { what: string; where: string; header: string; idPrefix: string }>
> = {
  session_calls: {
    what: 'tool calls',
    where: 'the session tool-call limit',
    header: 'Session tool-call limit reached',
    idPrefix: 'session-limit',
  },
  tool_loop: {
    what: 'model round-trips',
    where: 'the tool-loop limit for this turn',
    header: 'Tool-loop limit reached',
    idPrefix: 'tool-loop',
  },
};

function limitInterview(
  kind: GrantableBudgetKind,
  agent: string,
  used: number,
  grant: number,
): InterviewQuestionInput[] {
  const { what, where, header } = LIMIT_PROMPT[kind];
  return [
    {
      id: kind,
      header,
      question: `The ${agent} agent reached ${where} (${used} ${what}). Grant ${grant} more?`,
      options: [
        {
          label: LIMIT_GRANT,
          description: `Allow ${grant} more ${what}; the pending work continues in this turn.`,
          recommended: true,
        },
        { label: LIMIT_DENY, description: 'Stop here; the pending call is denied.' },
      ],
      allowFreeform: false,
    },
  ];
}

/** EXEC-3: pause the turn on a limit prompt; the session continues it when the user answers. */
export async function suspend(
  deps: TurnDeps,
  kind: GrantableBudgetKind,
  used: number,
  grant: number,
  calls: readonly ToolCall[],
  firstCallEmitted: boolean,
): Promise<TurnEnd> {
  const state = deps.state();
  const interviewId = `${LIMIT_PROMPT[kind].idPrefix}-${state.turn}-${used}`;
  await deps.emit({
    type: 'interview.requested',
    interviewId,
    source: 'runtime',
    questions: limitInterview(kind, state.agent, used, grant),
  });
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
export async function loopLimitReached(
  deps: TurnDeps,
  turn: TurnState,
  baseLoops: number,
  used: number,
  max: number,
): Promise<TurnEnd | null> {
  const state = deps.state();
  if (state.agent === 'plan') {
    await deps.emit({ type: 'budget_exhausted', kind: 'tool_loop', used, max });
    turn.loopsSpent = true;
    if (!toolsClosed(turn))
      await directive(
        deps,
        turn,
        'synthesis',
        fill(deps.prompts.synthesis, { reason: `the tool-loop limit (${max}) is reached` }),
      );
    return null;
  }
  const next = grantedLoopLimit(max, baseLoops);
  if (next === null) {
    await deps.emit({ type: 'budget_exhausted', kind: 'tool_loop', used, max });
    return {
      status: 'blocked',
      reason: `The turn used all ${max} model round-trips, the hard cap. Send "continue" to keep going in a new turn.`,
    };
  }
  if (state.agent === 'auto' || state.loopGrantLatched) {
    await deps.emit({ type: 'tool_loop_limit_increased', previous: max, limit: next, automatic: true });
    turn.budget = newCounters({ ...turn.budget.max, tool_loop: next }, turn.budget.used);
    return null;
  }
  return suspend(deps, 'tool_loop', used, next - max, [], false);
}
