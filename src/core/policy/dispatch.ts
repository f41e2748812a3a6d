/**
 * The dispatch gate (RO-1, RO-4): decides, before any handler runs, whether a tool call may
 * execute in the current mode.
 *
 *   gateToolCall(mode, { name, arguments }, { workspaceRoot }) -> DispatchDecision
 *
 * Plan mode admits only read/search/list tools, `run_command` whose command the read-only shell
 * policy approves, `request_user_input` and `task_tracker`. Every other call, the plan file
 * included (only the runtime persists plans), is blocked with a reason starting
 * "Mutation blocked:", which is what the model is told. Build and auto share one rule set (MODE-1):
 * writes must stay inside the workspace. In every mode a command may name only paths inside the
 * workspace (paths.ts; "Path blocked:"). That confinement is lexical here (POSIX normalisation);
 * symlinks are resolved by the tool handlers, which hold the file system.
 */
import { posix } from 'node:path';
import { z } from 'zod';
import type { AgentMode } from '../vocabulary';
import { checkCommandInWorkspace, type WorkspaceCommandVerdict } from './shell';

const READ_TOOLS = ['read_file', 'list_dir', 'find_files', 'grep'] as const;
const WRITE_TOOLS = ['write_file', 'edit_file'] as const;
export const KNOWN_TOOLS = [
  ...READ_TOOLS,
  ...WRITE_TOOLS,
  'run_command',
  'request_user_input',
  'task_tracker',
  'start_planning',
] as const;
type ToolName = (typeof KNOWN_TOOLS)[number];

export interface ToolCall {
  name: string;
  /** Raw arguments as the model sent them: untrusted. */
  arguments: unknown;
}

export interface GateContext {
  /** Absolute POSIX path of the workspace root. */
  workspaceRoot: string;
}

type BlockKind = 'mutation' | 'outside_workspace' | 'invalid_arguments' | 'unknown_tool';

export type DispatchDecision =
  | { allowed: true; tool: ToolName; command?: WorkspaceCommandVerdict }
  | { allowed: false; kind: BlockKind; reason: string; command?: WorkspaceCommandVerdict };

const PLAN_DIR = '.vtcode/plans';

const commandArgs = z.object({ command: z.string().min(1) });
const pathArgs = z.object({ path: z.string().min(1) });

function isKnown(name: string): name is ToolName {
  return (KNOWN_TOOLS as readonly string[]).includes(name);
}

function blocked(kind: BlockKind, reason: string, command?: WorkspaceCommandVerdict): DispatchDecision {
  return command === undefined ? { allowed: false, kind, reason } : { allowed: false, kind, reason, command };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
}

export function gateToolCall(mode: AgentMode, call: ToolCall, ctx: GateContext): DispatchDecision {
  const name = call.name;
  if (!isKnown(name)) {
    const reason = `unknown tool \`${name}\``;
    return mode === 'plan'
      ? blocked('mutation', `Mutation blocked: ${reason} is not available in plan mode (plan mode is read-only).`)
      : blocked('unknown_tool', `${reason}.`);
  }
  if (name === 'run_command') return gateCommand(mode, call.arguments, ctx);
  if ((WRITE_TOOLS as readonly string[]).includes(name)) return gateWrite(mode, name, call.arguments, ctx);
  if (name === 'start_planning' && mode === 'plan') {
    return blocked(
      'mutation',
      'Mutation blocked: `start_planning` is for build/auto agents; planning is already active.',
    );
  }
  return { allowed: true, tool: name };
}

function gateCommand(mode: AgentMode, raw: unknown, ctx: GateContext): DispatchDecision {
  const parsed = commandArgs.safeParse(raw);
  if (!parsed.success)
    return blocked('invalid_arguments', `run_command arguments are invalid: ${describeIssues(parsed.error)}.`);
  const verdict = checkCommandInWorkspace(parsed.data.command, mode, ctx.workspaceRoot);
  if (verdict.allowed) return { allowed: true, tool: 'run_command', command: verdict };
  if (verdict.refusedBy === 'paths') return blocked('outside_workspace', pathBlocked(verdict.reason), verdict);
  return blocked(
    'mutation',
    `Mutation blocked: ${verdict.reason ?? 'the command is not read-only'}. Plan mode runs only read-only inspection and verification commands.`,
    verdict,
  );
}

/** What the model is told when a command names a path outside the workspace, in any mode. */
export function pathBlocked(reason: string | null): string {
  return `Path blocked: ${reason ?? 'the command names a path outside the workspace'}. The command was not run.`;
}

function gateWrite(mode: AgentMode, name: ToolName, raw: unknown, ctx: GateContext): DispatchDecision {
  const parsed = pathArgs.safeParse(raw);
  if (mode === 'plan') {
    const target = parsed.success ? confine(parsed.data.path, ctx.workspaceRoot) : null;
    if (target !== null && (target === PLAN_DIR || target.startsWith(`${PLAN_DIR}/`))) {
      return blocked(
        'mutation',
        `Mutation blocked: \`${name}\` on the plan file. The runtime persists the plan; emit the plan as one <proposed_plan> block instead.`,
      );
    }
    return blocked(
      'mutation',
      `Mutation blocked: \`${name}\` is not available in plan mode (plan mode is read-only; approve the plan to implement it).`,
    );
  }
  if (!parsed.success)
    return blocked('invalid_arguments', `${name} arguments are invalid: ${describeIssues(parsed.error)}.`);
  if (confine(parsed.data.path, ctx.workspaceRoot) === null) {
    return blocked(
      'outside_workspace',
      `\`${name}\` may only write inside the workspace; \`${parsed.data.path}\` is outside it.`,
    );
  }
  return { allowed: true, tool: name };
}

/**
 * The workspace-relative POSIX path `path` names, or `null` when it leaves the workspace, is the
 * workspace root itself, or is not a usable path (NUL byte, Windows drive or backslashes).
 */
export function confine(path: string, workspaceRoot: string): string | null {
  if (path.includes('\0') || path.includes('\\') || /^[A-Za-z]:/.test(path)) return null;
  // posix.normalize collapses repeated slashes, so one trailing slash is all there is to drop.
  const root = posix.normalize(workspaceRoot).replace(/\/$/, '') || '/';
  const absolute = posix.isAbsolute(path) ? posix.normalize(path) : posix.join(root, path);
  const relative = posix.relative(root, absolute);
  if (relative === '' || relative === '..' || relative.startsWith('../') || posix.isAbsolute(relative)) return null;
  return relative;
}
