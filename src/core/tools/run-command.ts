/**
 * `run_command`: one shell command in the workspace root. Plan mode runs it only when the
 * read-only policy approves it (RO-2, RO-3; checked here again even though the dispatch gate
 * already did), build asks the user first, auto runs it unattended (MODE-1). In every mode a
 * command that names a path outside the workspace is refused before anything runs or is asked.
 * The policy explains; the Shell port's OS sandbox enforces (read-only workspace in plan mode,
 * nothing outside the workspace, no secrets in the environment). Without a sandbox, plan mode
 * runs only commands the policy classes as inspection: a test runner executes project code.
 */
import { z } from 'zod';
import { checkCommandInWorkspace, pathBlocked, type WorkspaceCommandVerdict } from '../policy';
import type { ShellResult } from '../ports';
import { cutHeadTail, cutNote } from './preview';
import { unsandboxedPlanRefusal } from './unsandboxed';
import { defineTool, ToolFailure, type ToolContext, type ToolResult } from './tool';

const COMMAND_MAX_TIMEOUT_SECONDS = 600;
/** Bytes the shell keeps per stream before the preview limit applies. */
const COMMAND_CAPTURE_BYTES = 1024 * 1024;

const schema = z.strictObject({
  command: z
    .string()
    .min(1)
    .describe('The command line, run by /bin/sh in the workspace root. Prefix with `cd DIR &&` for another folder.'),
  timeout_seconds: z
    .int()
    .min(1)
    .max(COMMAND_MAX_TIMEOUT_SECONDS)
    .optional()
    .describe('Stop the command after this many seconds; default from the settings (usually 60).'),
});

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function statusLine(r: ShellResult, timeoutMs: number): string {
  if (r.aborted) return `[cancelled after ${seconds(r.durationMs)}; the command was killed]`;
  if (r.timedOut) return `[timed out after ${seconds(timeoutMs)}; the command was killed]`;
  if (r.exitCode === null) return `[ended by signal ${r.signal ?? 'unknown'} after ${seconds(r.durationMs)}]`;
  return `[exit code ${r.exitCode} after ${seconds(r.durationMs)}]`;
}

function outputOf(r: ShellResult): string {
  const out = r.stdout.text;
  const err = r.stderr.text;
  if (out === '' && err === '') return '(no output)\n';
  const parts: string[] = [];
  if (out !== '') parts.push(out.endsWith('\n') ? out : `${out}\n`);
  if (err !== '') parts.push(`[stderr]\n${err.endsWith('\n') ? err : `${err}\n`}`);
  return parts.join('');
}

/**
 * Asks before a build-mode command. A stopped turn ends the wait at once, whether or not the host
 * withdraws its question: a session that is closed must not hang on an unanswered prompt (EXEC-5).
 */
async function confirmUnlessStopped(
  confirm: (command: string, signal: AbortSignal) => Promise<boolean>,
  command: string,
  signal: AbortSignal,
): Promise<boolean | 'stopped'> {
  if (signal.aborted) return 'stopped';
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    onAbort = () => resolve('stopped');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([confirm(command, signal), stopped]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Refuses what the read-only policy (plan mode) or the workspace path rule (every mode) refused. */
function refuseByVerdict(verdict: WorkspaceCommandVerdict, command: string): void {
  if (verdict.refusedBy === 'policy') {
    throw new ToolFailure(
      'refused',
      `Mutation blocked: ${verdict.reason ?? 'the command is not read-only'}. Plan mode runs only read-only inspection and verification commands; the command was not run.`,
      command,
    );
  }
  if (verdict.refusedBy === 'paths') throw new ToolFailure('refused', pathBlocked(verdict.reason), command);
}

/** Build mode runs a command only once the user confirmed it. */
async function requireConfirmation(ctx: ToolContext, command: string): Promise<void> {
  if (ctx.confirm === undefined) {
    throw new ToolFailure(
      'refused',
      'Build mode runs a command only after the user confirms it, and no confirmation is possible here; the command was not run.',
      command,
    );
  }
  const run = await confirmUnlessStopped(ctx.confirm, command, ctx.signal);
  if (run === 'stopped')
    throw new ToolFailure(
      'cancelled',
      `The turn was stopped while \`${command}\` waited for confirmation; the command was not run.`,
      command,
    );
  if (!run) {
    throw new ToolFailure(
      'declined',
      `The user declined to run \`${command}\`. Do not run it again unchanged; ask the user or take another approach.`,
      command,
    );
  }
}

/** Without an OS sandbox, plan mode runs only inspection commands that cannot reach outside the workspace. */
async function refuseUnsandboxedInPlan(
  ctx: ToolContext,
  command: string,
  verdict: WorkspaceCommandVerdict,
): Promise<void> {
  const isolation = await ctx.ports.shell.isolation();
  if (isolation.sandboxed || ctx.mode !== 'plan') return;
  const why =
    verdict.class !== 'inspection'
      ? `this one runs project code (${verdict.class})`
      : await unsandboxedPlanRefusal(ctx.ports.fs, ctx.root, command);
  if (why !== null) {
    throw new ToolFailure(
      'refused',
      `Not run: ${isolation.summary}. Without an OS sandbox plan mode runs only inspection commands that cannot reach outside the workspace, and ${why}. Use read_file, list_dir, find_files and grep instead. ${isolation.remedy}`,
      command,
    );
  }
}

/** The output (start and end kept when cut), a status line, and an error for anything but exit 0. */
function commandResult(
  r: ShellResult,
  run: { command: string; timeoutMs: number; previewBytes: number; verdict: WorkspaceCommandVerdict },
): ToolResult {
  const { command, timeoutMs, previewBytes, verdict } = run;
  const status = statusLine(r, timeoutMs);
  const body = outputOf(r);
  const cut = cutHeadTail(body, previewBytes - status.length - 1);
  const content =
    cut === null
      ? `${body}${status}`
      : `${cut.text}${cutNote(cut, 'Re-run with `| tail -n 80`, `| head -n 80`, `| grep PATTERN` or `sed -n "A,Bp"` to see a specific part.')}\n${status}`;
  const ok = r.exitCode === 0 && !r.timedOut && !r.aborted;
  const outcome = r.aborted
    ? 'cancelled'
    : r.timedOut
      ? 'timed out'
      : r.exitCode === null
        ? `signal ${r.signal ?? '?'}`
        : `exit ${r.exitCode}`;
  const result: ToolResult = {
    ok,
    content,
    summary: `ran \`${command.length > 80 ? `${command.slice(0, 77)}…` : command}\` (${outcome}, ${seconds(r.durationMs)})`,
    target: command,
    data: {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      durationMs: r.durationMs,
      class: verdict.class,
    },
  };
  if (!ok) {
    const code = r.aborted ? 'cancelled' : r.timedOut ? 'timed_out' : 'command_failed';
    result.error = { code, message: status.slice(1, -1) };
  }
  if (cut !== null) result.truncated = { shownBytes: cut.shownBytes, totalBytes: cut.totalBytes };
  return result;
}

export const runCommandTool = defineTool({
  name: 'run_command',
  description: [
    'Run a shell command (/bin/sh) in the workspace root and get its exit code, stdout and stderr. Use it for builds, tests, git and tools that have no dedicated tool.',
    'In plan mode only read-only commands run (inspection such as rg, ls, cat, sed -n, git log/diff/status, and test runs); redirections, in-place edits and other writes are refused.',
    'In every mode a command may name only paths inside the workspace (no absolute paths outside it, `..` above it, `~` or `$VARIABLE` paths).',
    'In build mode the user confirms each command. Long output is cut, keeping the start and the end; pipe through tail, head or grep to see a specific part. Commands are killed at the timeout.',
  ].join(' '),
  schema,
  mutates: true,
  async handler(args, ctx): Promise<ToolResult> {
    const command = args.command;
    const verdict = checkCommandInWorkspace(command, ctx.mode, ctx.root);
    refuseByVerdict(verdict, command);
    if (ctx.mode === 'build') await requireConfirmation(ctx, command);
    await refuseUnsandboxedInPlan(ctx, command, verdict);
    const timeoutMs = args.timeout_seconds !== undefined ? args.timeout_seconds * 1000 : ctx.commandTimeoutMs;
    const network = ctx.commandNetwork === 'on' || (ctx.commandNetwork === 'default' && ctx.mode !== 'plan');
    const r = await ctx.ports.shell.run({
      command,
      cwd: ctx.root,
      root: ctx.root,
      mode: ctx.mode,
      network,
      timeoutMs,
      signal: ctx.signal,
      maxOutputBytes: COMMAND_CAPTURE_BYTES,
    });
    return commandResult(r, { command, timeoutMs, previewBytes: ctx.previewBytes, verdict });
  },
});
