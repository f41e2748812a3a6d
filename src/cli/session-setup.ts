/**
 * Builds a Session's dependencies from `vtplan run` / `vtplan resume` flags: the provider (key from
 * the environment variable named by --api-key-env, never a flag value), the Node ports, the tool
 * runtime and the prompts.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMMAND_NETWORK, DEFAULT_SETTINGS, turnSettingsOf } from '../core/config/settings';
import { createProvider, ProviderConfigSchema } from '../core/llm';
import { systemClock } from '../core/ports';
import type { SessionDeps } from '../core/session/session';
import { sweepStaleTempFiles } from '../core/store/sweep';
import { z } from 'zod';
import { createToolRuntime } from '../core/tools';
import { nodeFileSystem } from '../node/fs';
import { LogKeyError, loadLogKey } from '../node/log-key';
import { loadPrompts } from '../node/prompts';
import { createNodeSearch, ripgrepOnPath } from '../node/search';
import { nodeShell } from '../node/shell';
import { nodeWriter } from '../node/writer';
import { InputError, UsageError, type CliIO } from './io';

export const PROVIDER_OPTIONS = {
  workspace: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  network: { type: 'string', default: DEFAULT_SETTINGS['sandbox.network'] },
  'skip-confirmations': { type: 'boolean', default: false },
  jsonl: { type: 'boolean', default: false },
} as const;

export interface ProviderFlags {
  workspace?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  'base-url'?: string | undefined;
  'api-key-env'?: string | undefined;
  network?: string | undefined;
  /** The seed's skip-confirmations policy, as `vtplan.requirePlanConfirmation: false` (turn-settings.ts). */
  'skip-confirmations'?: boolean | undefined;
}

export function workspaceOf(flags: ProviderFlags, io: CliIO): string {
  if (!flags.workspace) throw new UsageError('--workspace DIR is required');
  const dir = resolve(io.cwd, flags.workspace);
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    throw new UsageError(`--workspace ${flags.workspace}: no such folder`);
  }
  if (!stat.isDirectory()) throw new UsageError(`--workspace ${flags.workspace}: not a folder`);
  return realpathSync(dir);
}

/**
 * The key for session-log integrity tags, in a private file outside the workspace, shared with
 * the VS Code extension (node/log-key.ts). A key store others could read is a usage problem
 * (exit 2 with the fix), not an internal error.
 */
function cliLogKey(root: string, io: CliIO): Uint8Array {
  try {
    return loadLogKey(root, io.env);
  } catch (err) {
    if (err instanceof LogKeyError) throw new InputError(err.message);
    throw err;
  }
}

/**
 * `confirm` is for in-process callers that can ask (the security suite's build-mode runs); the
 * CLI itself passes none.
 */
export function sessionDeps(
  flags: ProviderFlags,
  io: CliIO,
  root: string,
  options: { confirm?: (command: string) => Promise<boolean> } = {},
): { deps: SessionDeps; secret: string | undefined } {
  if (!flags.provider) throw new UsageError('--provider openai|anthropic is required');
  if (!flags.model) throw new UsageError('--model NAME is required');
  const config = ProviderConfigSchema.safeParse({
    kind: flags.provider,
    model: flags.model,
    ...(flags['base-url'] ? { baseUrl: flags['base-url'] } : {}),
  });
  if (!config.success) {
    const issue = config.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new UsageError(
      field === 'kind'
        ? `--provider must be openai or anthropic, not '${flags.provider}'`
        : `--${field === 'baseUrl' ? 'base-url' : field}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const keyVar = flags['api-key-env'];
  const secret = keyVar ? io.env[keyVar] : undefined;
  if (keyVar && !secret) throw new UsageError(`--api-key-env ${keyVar}: that environment variable is not set`);
  const provider = createProvider(config.data, secret);
  const network = z.enum(COMMAND_NETWORK).safeParse(flags.network ?? DEFAULT_SETTINGS['sandbox.network']);
  if (!network.success)
    throw new UsageError(`--network must be ${COMMAND_NETWORK.join(', ')}, not '${flags.network ?? ''}'`);
  const rg = ripgrepOnPath(io.env.PATH);
  const tools = createToolRuntime({
    root,
    ports: {
      fs: nodeFileSystem,
      shell: nodeShell,
      search: createNodeSearch(rg === undefined ? {} : { rgPath: rg }),
      writer: nodeWriter,
    },
    // No confirm callback from the CLI: headless build mode cannot ask, so its commands are refused (use --mode auto).
    ...(options.confirm ? { confirm: options.confirm } : {}),
    ...(secret ? { secrets: [secret] } : {}),
  });
  // The extension's defaults (core/config/settings.ts), with what the flags change.
  const settings = turnSettingsOf({
    ...DEFAULT_SETTINGS,
    'sandbox.network': network.data,
    requirePlanConfirmation: flags['skip-confirmations'] !== true,
  });
  const deps: SessionDeps = {
    fs: nodeFileSystem,
    root,
    provider,
    tools,
    prompts: loadPrompts(),
    clock: systemClock,
    logKey: cliLogKey(root, io),
    turnSettings: () => settings,
    ...(secret ? { secrets: [secret] } : {}),
    resumeCommand: (id) =>
      `vtplan resume ${id} --workspace ${root} --provider ${flags.provider} --model ${flags.model}`,
  };
  return { deps, secret };
}

/**
 * Before a session starts: removes temp files that killed atomic writes left in `.vtcode/`
 * (STORE-2). What was removed and what could not be are said on stderr; neither stops the run.
 */
export async function sweepWorkspace(root: string, io: CliIO): Promise<void> {
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: systemClock.now() });
  for (const file of report.removed) io.stderr(`vtplan: removed ${file}, a temp file left by an interrupted write\n`);
  for (const problem of report.problems) io.stderr(`vtplan: warning: ${problem.message}\n`);
}
