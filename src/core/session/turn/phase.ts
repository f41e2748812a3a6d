/**
 * The turn's mutable state and its explicit phase. Research has tools open; a repair request
 * keeps research's tools; synthesis is a tool-free pass (SYN-1); recovery is the tool-free pass
 * after the fuse tripped, with its own fuse (FUSE-1), and stays recovery until the turn ends.
 * A closed pass is in the event fold (`SessionState.closedPass`, with the allowance it spent), so a
 * continuation of the turn or a resumed session starts in it and cannot reopen research (SYN-1).
 */
import {
  newCounters,
  newFuse,
  newNavigation,
  newPreviewBudget,
  type BudgetCounters,
  type FuseState,
  type NavigationState,
  type PreviewBudget,
} from '../../guards';
import { TrackerRepeatGuard } from '../../tracker';
import { closedPassAfter, type SessionState } from '../state';
import type { TurnDeps } from './deps';

type TurnPhase = 'research' | 'repair' | 'synthesis' | 'recovery';

export type DirectiveKind = 'repair' | 'synthesis' | 'condense' | 'recovery' | 'handoff';

export interface TurnState {
  phase: TurnPhase;
  fuse: FuseState;
  nav: NavigationState;
  budget: BudgetCounters;
  preview: PreviewBudget;
  repairs: number;
  condensed: boolean;
  /** The planning loop limit was hit: research is over and the SYN-1 allowance bounds what is left. */
  loopsSpent: boolean;
  /** INT-3: a denied interview scheduled the one synthesis retry; without a valid plan the turn ends. */
  denialRetry: boolean;
  /** EXEC-4: revisions already continued without a gate this turn. */
  autoReplans: number;
  /** TRK-4: the streak of identical successful task_tracker calls. */
  trackerRepeats: TrackerRepeatGuard;
}

/** Tools are closed: the next requests are synthesis/recovery passes. */
export function toolsClosed(turn: TurnState): boolean {
  return turn.phase === 'synthesis' || turn.phase === 'recovery';
}

/** A continuation of the same turn keeps what the turn already spent (EXEC-3 pauses, INT-1 answers). */
export function newTurnState(start: SessionState, limits: { toolCalls: number; loops: number }): TurnState {
  const guardPhase = start.agent === 'plan' ? 'plan' : 'exec';
  return {
    phase: start.closedPass ?? 'research',
    fuse: newFuse(),
    nav: newNavigation(guardPhase),
    budget: newCounters(
      { tool_calls: limits.toolCalls, tool_loop: limits.loops, session_calls: 0 },
      { tool_calls: start.turnCalls, tool_loop: start.turnLoops },
    ),
    preview: newPreviewBudget(guardPhase),
    repairs: 0,
    condensed: false,
    loopsSpent: false,
    denialRetry: false,
    autoReplans: 0,
    trackerRepeats: new TrackerRepeatGuard(),
  };
}

/** The phase after a directive: closing tools starts synthesis (recovery stays recovery). */
function phaseAfter(phase: TurnPhase, kind: DirectiveKind, closeTools: boolean): TurnPhase {
  const closed = closedPassAfter(phase === 'synthesis' || phase === 'recovery' ? phase : null, kind, closeTools);
  if (closed !== null) return closed;
  return kind === 'repair' && phase === 'research' ? 'repair' : phase;
}

/** Says a directive to the model (as an event) and moves the turn into the phase it starts. */
export async function directive(
  deps: TurnDeps,
  turn: TurnState,
  kind: DirectiveKind,
  text: string,
  closeTools = kind !== 'repair',
): Promise<void> {
  turn.phase = phaseAfter(turn.phase, kind, closeTools);
  await deps.emit({
    type: 'directive',
    kind,
    text,
    allowanceUsed: deps.state().allowanceUsed,
    toolsClosed: toolsClosed(turn),
  });
}
