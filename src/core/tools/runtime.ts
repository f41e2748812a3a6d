/**
 * The registry as the runloop's ToolRuntime (session/tool-runtime.ts): one call in, one outcome
 * out, with the class and emptiness the navigation guards count (NAV-2) derived here so the
 * runloop needs no per-tool knowledge.
 */
import type { ToolDefinition } from '../llm/provider';
import type { AgentMode } from '../vocabulary';
import type {
  ToolClass,
  ToolOutcome as RuntimeOutcome,
  ToolContext as RuntimeContext,
  ToolRuntime,
} from '../session/tool-runtime';
import { findTool, toolDefinitions, toolsForMode } from './registry';
import { maskSecretValues } from '../llm/redact';
import type { ToolContext, ToolPorts, ToolResult } from './tool';

export interface ToolRuntimeOptions {
  /** Absolute POSIX workspace root. */
  root: string;
  ports: ToolPorts;
  /**
   * Known secret values (the provider key in use): masked in every tool result before the model,
   * the events or a terminal see it. The sandbox keeps keys out of commands' environments; this
   * catches one that sits in a workspace file or arrives another way.
   */
  secrets?: readonly string[];
  /** Asked before each build-mode command; without it build mode refuses commands. */
  confirm?: (command: string, signal: AbortSignal) => Promise<boolean>;
  /** Where task_tracker keeps its checklist right now (the active plan changes over a session). */
  tracker?: () => { planFile?: string; planActive?: boolean };
}

const INSPECTION = new Set(['read_file', 'list_dir', 'find_files', 'grep']);

function classOf(name: string, result: ToolResult): ToolClass {
  if (INSPECTION.has(name)) return 'inspection';
  if (name === 'write_file' || name === 'edit_file') return result.ok ? 'mutation' : 'other';
  if (name === 'run_command') {
    const cls = result.data?.class;
    return cls === 'inspection' || cls === 'verification' || cls === 'mutation' ? cls : 'other';
  }
  return 'other';
}

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  return {
    definitions(agent: AgentMode): ToolDefinition[] {
      return toolDefinitions(agent);
    },
    isolation: () => options.ports.shell.isolation(),
    async execute(name: string, args: unknown, rc: RuntimeContext): Promise<RuntimeOutcome> {
      const tool = findTool(name);
      if (tool === undefined || !toolsForMode(rc.agent).includes(tool)) {
        const available = toolsForMode(rc.agent)
          .map((t) => t.name)
          .join(', ');
        return {
          kind: 'result',
          ok: false,
          content: `Unknown tool \`${name}\` for the ${rc.agent} agent; available: ${available}.`,
          class: 'other',
          empty: true,
          truncated: false,
        };
      }
      const ctx: ToolContext = {
        root: options.root,
        mode: rc.agent,
        ports: options.ports,
        signal: rc.signal,
        previewBytes: rc.previewLimit,
        // The turn's settings (turn-settings.ts): a changed timeout or network choice applies from the next turn.
        commandTimeoutMs: rc.commands.timeoutMs,
        commandNetwork: rc.commands.network,
      };
      if (options.confirm !== undefined) ctx.confirm = options.confirm;
      if (options.tracker !== undefined) ctx.tracker = options.tracker();
      else if (rc.planFile !== undefined) ctx.tracker = { planFile: rc.planFile, planActive: true };
      const result = await tool.run(args, ctx);
      if (result.outcome !== undefined) return result.outcome;
      const outcome: RuntimeOutcome = {
        kind: 'result',
        ok: result.ok,
        content: maskSecretValues(result.content, options.secrets),
        class: classOf(name, result),
        empty: result.empty ?? false,
        truncated: result.truncated !== undefined,
      };
      if (result.target !== undefined) outcome.target = maskSecretValues(result.target, options.secrets);
      return outcome;
    },
  };
}
