/**
 * What the runloop needs from the tools: their definitions for a mode, and one call executed.
 * The tool registry (src/core/tools) provides it; tests may provide their own over real files.
 */
import type { ToolDefinition } from '../llm';
import type { Isolation } from '../ports';
import type { AgentMode } from '../vocabulary';
import type { InterviewQuestionInput } from './interview';
import type { CommandSettings } from './turn-settings';

export type ToolClass = 'inspection' | 'verification' | 'mutation' | 'other';

export type ToolOutcome =
  | {
      kind: 'result';
      ok: boolean;
      /** What the model sees. */
      content: string;
      /** Path or command the call looked at, for the transcript and the guards. */
      target?: string;
      class: ToolClass;
      /** Nothing useful came back (no matches, empty listing): low-signal for NAV-2. */
      empty: boolean;
      truncated: boolean;
    }
  /** `request_user_input`: the runloop asks the user and answers the call later (INT-1). */
  | { kind: 'interview'; questions: InterviewQuestionInput[] }
  /** `start_planning` from an execution agent (MODE-4): nothing changes until the user confirms. */
  | { kind: 'planning_suggested'; reason: string };

export interface ToolContext {
  agent: AgentMode;
  signal: AbortSignal;
  /** Bytes of output the result may show the model (NAV-5). */
  previewLimit: number;
  /** Timeout and network of commands, as the turn's settings say. */
  commands: CommandSettings;
  /** Absolute path of the session's active plan: task_tracker keeps that plan's sidecar (TRK-7). */
  planFile?: string;
}

export interface ToolRuntime {
  definitions(agent: AgentMode): ToolDefinition[];
  /** How the commands these tools run are contained (the Shell port's sandbox probe). */
  isolation(): Promise<Isolation>;
  execute(name: string, args: unknown, ctx: ToolContext): Promise<ToolOutcome>;
}
