/** What a turn is given, and how it ends: shared by the runloop and its step modules. */
import type { ArchiveOutcome } from '../../guards';
import type { ModelProvider, RetryOptions } from '../../llm';
import type { FileSystem } from '../../ports';
import type { TurnStatus } from '../../vocabulary';
import type { EventInput } from '../events';
import type { PromptTemplates } from '../prompts';
import type { SessionState, Suspension } from '../state';
import type { ToolRuntime } from '../tool-runtime';
import type { CommandSettings, PlanConfirmation, TurnLimits } from '../turn-settings';

/** How a paused turn continues after its limit prompt was granted (EXEC-3). */
export interface TurnResume {
  suspension: Suspension;
}

export interface TurnDeps {
  fs: FileSystem;
  root: string;
  provider: ModelProvider;
  tools: ToolRuntime;
  prompts: PromptTemplates;
  /** The turn's settings (turn-settings.ts), read once when the turn started. */
  limits: TurnLimits;
  commands: CommandSettings;
  planConfirmation: PlanConfirmation;
  retry?: RetryOptions;
  emit(event: EventInput): Promise<void>;
  state(): SessionState;
  /** Persists and verifies the session archive (the log) before a blocked handoff (FUSE-2). */
  checkpoint(): Promise<ArchiveOutcome>;
  /** Continue a turn paused on a granted limit prompt: the paused batch runs first (EXEC-3). */
  resume?: TurnResume;
}

/**
 * What the session starts on its own once the turn has completed, under skip-confirmations: the
 * one implementation turn of a plan accepted without the gate (GATE-3), or the Planning workflow
 * the agent suggested (MODE-4).
 */
type TurnFollowUp = { kind: 'implementation'; prompt: string } | { kind: 'planning' };

export interface TurnEnd {
  status: TurnStatus;
  reason?: string;
  next?: TurnFollowUp;
}
