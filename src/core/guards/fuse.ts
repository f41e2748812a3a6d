/**
 * The blocked-call fuse (FUSE-1): bounds blocked and denied tool calls in one turn.
 *
 *   let fuse = newFuse();                                   // once per turn
 *   const step = recordCall(fuse, 'blocked', limits);       // after every gated call
 *   fuse = step.state;  if (step.decision.kind === 'tripped') …
 *
 * `limits` = fuseLimits(cap, phase): the consecutive cap is the configured
 * `maxConsecutiveBlockedToolCallsPerTurn`; the turn total is 2× cap in build/auto ('normal'),
 * 4× cap while planning ('plan') and 1× cap during recovery. Both limits are strict: the call
 * that makes a count exceed its limit trips the fuse (cap 3 in plan: 12 scattered blocked calls
 * pass, the 13th trips). An allowed call resets the streak but never the turn total. Outside
 * recovery a trip asks for one tool-free recovery pass; in recovery it ends the turn blocked.
 * State is a plain readonly object so it can be stored in the session log.
 */

export type FusePhase = 'normal' | 'plan' | 'recovery';

export interface FuseLimits {
  consecutive: number;
  total: number;
  phase: FusePhase;
}

export interface FuseState {
  readonly consecutive: number;
  readonly total: number;
}

export type FuseDecision =
  | { kind: 'continue' }
  | {
      kind: 'tripped';
      limit: 'total' | 'consecutive';
      cap: number;
      consecutive: number;
      total: number;
      /** What the runloop does next: one tool-free recovery pass, or end the turn blocked. */
      next: 'recovery_pass' | 'end_turn_blocked';
      /** Text for the transcript and the model. */
      message: string;
    };

const TOTAL_FACTOR: Record<FusePhase, number> = { normal: 2, plan: 4, recovery: 1 };

export function fuseLimits(cap: number, phase: FusePhase): FuseLimits {
  if (!Number.isInteger(cap) || cap < 1)
    throw new RangeError(`blocked-call cap must be a positive integer, got ${cap}`);
  return { consecutive: cap, total: cap * TOTAL_FACTOR[phase], phase };
}

export function newFuse(): FuseState {
  return { consecutive: 0, total: 0 };
}

export function recordCall(
  state: FuseState,
  outcome: 'blocked' | 'allowed',
  limits: FuseLimits,
): { state: FuseState; decision: FuseDecision } {
  if (outcome === 'allowed') return { state: { consecutive: 0, total: state.total }, decision: { kind: 'continue' } };
  const next = { consecutive: state.consecutive + 1, total: state.total + 1 };
  const limit = next.total > limits.total ? 'total' : next.consecutive > limits.consecutive ? 'consecutive' : null;
  if (limit === null) return { state: next, decision: { kind: 'continue' } };
  const cap = limit === 'total' ? limits.total : limits.consecutive;
  const recovery = limits.phase === 'recovery';
  const counted = limit === 'total' ? `${cap} total blocked calls this turn` : `${cap} consecutive blocked calls`;
  const message = recovery
    ? `Blocked tool-call limit reached during recovery: more than ${counted}. The turn ends here.`
    : `Blocked tool-call limit reached: more than ${counted}. One response without tool calls follows.`;
  return {
    state: next,
    decision: {
      kind: 'tripped',
      limit,
      cap,
      consecutive: next.consecutive,
      total: next.total,
      next: recovery ? 'end_turn_blocked' : 'recovery_pass',
      message,
    },
  };
}
