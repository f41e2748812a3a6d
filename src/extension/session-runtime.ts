/**
 * Everything heavy behind the chat session, loaded on first use by session-host.ts: provider
 * SDKs, the tool runtime, the runloop. Builds a Session's dependencies from the settings.
 */
import * as vscode from 'vscode';
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createProvider, type ModelProvider, type StreamChunk } from '../core/llm';
import { turnSettingsOf } from '../core/config/settings';
import { describeCause, makeFailure } from '../core/llm/failure';
import { systemClock } from '../core/ports';
import { readSessionLog } from '../core/session/log';
import { Session, type SessionDeps } from '../core/session/session';
import { sweepStaleTempFiles } from '../core/store/sweep';
import { createToolRuntime } from '../core/tools';
import { nodeFileSystem } from '../node/fs';
import { loadLogKey } from '../node/log-key';
import { loadPrompts } from '../node/prompts';
import { createNodeSearch, locateRipgrep } from '../node/search';
import { nodeShell } from '../node/shell';
import type { ApiKeys } from './secrets';
import type { Settings } from './settings';
import { createVscodeLmProvider, pickChatModel } from './vscode-lm';
import { workspaceEditWriter } from './workspace-writer';

// The chat transcript renders markdown (markdown-it, ~100 KB): loaded with the session, not at activation.
export { TranscriptBuilder } from './transcript';

/** What picks the model: a change to any of it resolves the provider again. */
interface ProviderChoice {
  kind: Settings['provider'];
  model: string;
  baseUrl: string;
  key: string | undefined;
}

async function resolveProvider({ kind, model, baseUrl, key }: ProviderChoice): Promise<ModelProvider> {
  if (kind === 'vscode-lm') {
    const pick = await pickChatModel(model);
    if (pick.status === 'picked') return createVscodeLmProvider(pick.model);
    if (pick.status === 'no_models')
      throw new Error(
        'No chat model is available in VS Code. Install or sign in to a chat model extension, or run "VT Code: Select Model" to use an OpenAI-compatible or Anthropic endpoint.',
      );
    throw new Error(
      `The chat model '${pick.preference}' (setting vtplan.model) is not available. Run "VT Code: Select Model".`,
    );
  }
  if (!key && kind === 'anthropic')
    throw new Error('No Anthropic API key is stored. Run "VT Code: Select Model" to add one.');
  if (!model) throw new Error(`Set a model name for ${kind}: run "VT Code: Select Model".`);
  return createProvider({ kind, model, ...(baseUrl ? { baseUrl } : {}) }, key ?? 'no-key');
}

/**
 * The model is resolved on the first request, not when the session starts: opening the panel
 * or typing a slash command must not need a model (or trigger VS Code's model consent dialog).
 * Every request reads the settings and the stored key again, so a change made with "Select Model"
 * (or in settings.json) applies from the next model request of the same session. A model that
 * cannot be had (none offered, no key, no name) is a `setup` failure: the chat says what is
 * missing and offers "Select Model".
 */
function liveProvider(settings: () => Readonly<Settings>, keys: ApiKeys): ModelProvider {
  let resolved: { choice: string; provider: Promise<ModelProvider> } | null = null;
  return {
    get id() {
      return settings().provider;
    },
    get model() {
      return settings().model;
    },
    async *stream(request): AsyncIterable<StreamChunk> {
      const { provider: kind, model, baseUrl } = settings();
      let provider: ModelProvider;
      try {
        const key = kind === 'vscode-lm' ? undefined : await keys.get(kind);
        const choice = JSON.stringify([kind, model, baseUrl, key]);
        if (resolved?.choice !== choice)
          resolved = { choice, provider: resolveProvider({ kind, model, baseUrl, key }) };
        provider = await resolved.provider;
      } catch (err) {
        resolved = null;
        yield {
          type: 'error',
          failure: makeFailure({
            kind: 'setup',
            provider: kind,
            secrets: [],
            retryable: false,
            message: describeCause(err),
          }),
        };
        return;
      }
      yield* provider.stream(request);
    },
  };
}

export interface OpenSessionOptions {
  root: string;
  keys: ApiKeys;
  extensionRoot: string;
  /** The live settings (settings.ts): read per turn and per model request, not once per session. */
  settings: () => Readonly<Settings>;
  resumeId?: string;
  /** Asks the user before a build-mode command runs (in the chat, see session-host.ts). */
  confirm: (command: string, signal: AbortSignal) => Promise<boolean>;
  /** Where the start-up sweep says what it removed or could not. */
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
}

export async function openSession(options: OpenSessionOptions): Promise<Session> {
  // STORE-2: temp files of killed atomic writes go before the session touches `.vtcode/`.
  const sweep = await sweepStaleTempFiles(nodeFileSystem, options.root, { now: systemClock.now() });
  for (const file of sweep.removed) options.log.info(`Removed ${file}, a temp file left by an interrupted write.`);
  for (const problem of sweep.problems) options.log.warn(problem.message);
  const deps = await sessionDeps(options);
  return options.resumeId
    ? Session.resume(deps, options.resumeId)
    : Session.start(deps, { agent: options.settings().defaultAgent });
}

/**
 * The workspace's session logs with when they started and their first goal, from the lines that
 * verify; a log with none is still listed (opening it resumes in plan mode and says why).
 */
export async function listSessions(root: string): Promise<{ id: string; started: string; goal: string }[]> {
  const dir = join(root, '.vtcode', 'sessions');
  const logKey = loadLogKey(root, process.env);
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.jsonl')) : [];
  const out: { id: string; started: string; goal: string }[] = [];
  for (const name of names) {
    const id = name.slice(0, -'.jsonl'.length);
    const contents = await readSessionLog(nodeFileSystem, root, id, logKey).catch(() => null);
    if (!contents) continue;
    const first = contents.events[0];
    if (!first) {
      if (contents.problems.length > 0)
        out.push({
          id,
          started: statSync(join(dir, name)).mtime.toISOString(),
          goal: '(log not verified: opens in plan mode)',
        });
      continue;
    }
    const goal = contents.events.find((e) => e.type === 'turn.started' && e.kind === 'user' && e.input);
    out.push({
      id,
      started: first.ts,
      goal: goal && goal.type === 'turn.started' ? (goal.input ?? '') : '(no goal yet)',
    });
  }
  return out.sort((a, b) => (a.started < b.started ? 1 : -1));
}

async function sessionDeps({ root, keys, extensionRoot, settings, confirm }: OpenSessionOptions): Promise<SessionDeps> {
  const rg = await locateRipgrep(vscode.env.appRoot);
  // Masked in tool output and the log: the key of the provider the session starts with.
  const kind = settings().provider;
  const secret = kind === 'vscode-lm' ? undefined : await keys.get(kind);
  return {
    fs: nodeFileSystem,
    root,
    provider: liveProvider(settings, keys),
    tools: createToolRuntime({
      root,
      ports: {
        fs: nodeFileSystem,
        shell: nodeShell,
        search: createNodeSearch(rg ? { rgPath: rg } : {}),
        writer: workspaceEditWriter,
      },
      ...(secret ? { secrets: [secret] } : {}),
      confirm,
    }),
    prompts: loadPrompts(join(extensionRoot, 'prompts')),
    clock: systemClock,
    // The same private key file as vtplan (node/log-key.ts): each resumes the other's sessions.
    logKey: loadLogKey(root, process.env),
    turnSettings: () => {
      const turn = turnSettingsOf(settings());
      // The writing agents need a trusted folder (see SessionHost.approve): untrusted, every plan waits at the gate.
      return vscode.workspace.isTrusted ? turn : { ...turn, planConfirmation: 'required' };
    },
    ...(secret ? { secrets: [secret] } : {}),
  };
}
