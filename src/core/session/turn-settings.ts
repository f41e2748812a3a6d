/**
 * What a turn takes from the user's configuration. The session reads it (`SessionDeps.turnSettings`)
 * when a turn starts and keeps it for that turn and its continuations, so a settings change applies
 * from the next turn and never halfway through one. Defaults and ranges: src/core/config/settings.ts.
 */
import type { CommandNetwork } from '../config/settings';

export interface TurnLimits {
  /** `maxConsecutiveBlockedToolCallsPerTurn` (FUSE-1). */
  maxConsecutiveBlocked: number;
  /** 0 = unlimited; planning turns get at least 120 (NAV-1). */
  toolCallsPerTurn: number;
  /** 0 = unlimited; planning turns get at least 60 (NAV-1). */
  loopsPerTurn: number;
  maxOutputTokens: number;
  /** Tool calls in the whole session before the user is asked to grant more (EXEC-3); 0 = unlimited. Default DEFAULT_SESSION_TOOL_CALLS. */
  sessionToolCalls?: number;
}

/** Commands agents run: the default timeout and whether they reach the network. */
export interface CommandSettings {
  timeoutMs: number;
  network: CommandNetwork;
}

/**
 * The seed's skip-confirmations policy (`vtplan.requirePlanConfirmation: false`, `vtplan run
 * --skip-confirmations`): `skip` accepts the start_planning suggestion directly (MODE-4), hands a
 * plan from an implicit planning request to the build agent in the current context (MODE-7), and
 * accepts a revision proposed outside an approved turn (EXEC-4). An explicit `/plan` request always
 * waits for approval (GATE-5).
 */
export type PlanConfirmation = 'required' | 'skip';

export interface TurnSettings {
  limits: TurnLimits;
  commands: CommandSettings;
  planConfirmation: PlanConfirmation;
}
