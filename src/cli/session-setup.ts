/**
 * Builds a Session's dependencies from `vtplan run` / `vtplan resume` flags: the provider (key from
 * the environment variable named by --api-key-env, never a flag value), the Node ports, the tool
 * runtime and the prompts.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createProvider, ProviderConfigSchema } from '../core/llm';
import { systemClock } from '../core/ports';
import type { SessionDeps } from '../core/session/session';
import { createToolRuntime } from '../core/tools';
import { nodeFileSystem } from '../node/fs';
import { loadPrompts } from '../node/prompts';
import { createNodeSearch } from '../node/search';
import { nodeShell } from '../node/shell';
import { nodeWriter } from '../node/writer';
import { UsageError, type CliIO } from './io';

export const PROVIDER_OPTIONS = {
  workspace: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  jsonl: { type: 'boolean', default: false },
} as const;

export interface ProviderFlags {
  workspace?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  'base-url'?: string | undefined;
  'api-key-env'?: string | undefined;
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

export function sessionDeps(flags: ProviderFlags, io: CliIO, root: string): { deps: SessionDeps; secret: string | undefined } {
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
    throw new UsageError(field === 'kind' ? `--provider must be openai or anthropic, not '${flags.provider}'` : `--${field === 'baseUrl' ? 'base-url' : field}: ${issue?.message ?? 'invalid'}`);
  }
  const keyVar = flags['api-key-env'];
  const secret = keyVar ? io.env[keyVar] : undefined;
  if (keyVar && !secret) throw new UsageError(`--api-key-env ${keyVar}: that environment variable is not set`);
  const provider = createProvider(config.data, secret);
  const tools = createToolRuntime({
    root,
    ports: { fs: nodeFileSystem, shell: nodeShell, search: createNodeSearch(), writer: nodeWriter },
    // No confirm callback: headless build mode cannot ask, so its commands are refused (use --mode auto).
    commandTimeoutMs: 60_000,
  });
  const deps: SessionDeps = {
    fs: nodeFileSystem,
    root,
    provider,
    tools,
    prompts: loadPrompts(),
    clock: systemClock,
    limits: { maxConsecutiveBlocked: 8, toolCallsPerTurn: 120, loopsPerTurn: 60, maxOutputTokens: 8_192 },
    ...(secret ? { secrets: [secret] } : {}),
    resumeCommand: (id) => `vtplan resume ${id} --workspace ${root} --provider ${flags.provider} --model ${flags.model}`,
  };
  return { deps, secret };
}
