import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import type { ChatViewProvider } from './chat-view';
import { lazyWorkbench, registerChatViewShell, registerCommandShells } from './lazy-workbench';
import { registerLmTools } from './lm-tools';
import { registerPlanDiagnostics } from './plan-diagnostics';
import { registerSavedPlanOffers } from './saved-plan-offers';
import type { SessionFolders } from './session-folders';
import type { SessionHost } from './session-host';
import type { SettingsService } from './settings';
import type { TasksViewModel } from './tasks-view';

/**
 * What activate() returns: read by the extension-host tests, not a public API. Reading chat,
 * host, settings, tasks or folders loads the workbench, as a command or a view would.
 */
export interface ExtensionApi {
  readonly chat: ChatViewProvider;
  readonly host: SessionHost;
  readonly settings: SettingsService;
  readonly tasks: TasksViewModel;
  readonly folders: SessionFolders;
  /** How long activate() itself took, in ms (what VS Code reports as the activate call). */
  activationMs: number;
  /** `performance.now()` when activate() began: the activation bench splits VS Code's share by it. */
  activationStartedAt: number;
  /** The extension's deactivate(), as VS Code calls it when the window closes. */
  deactivate: () => Promise<void>;
}

let shutdown: (() => Promise<void>) | null = null;

/**
 * Activation is lazy (views and commands only) and registers shells: the workbench behind them
 * loads on first use (lazy-workbench.ts). Everything registered is owned by the extension's
 * lifetime: each piece puts its disposables into `context.subscriptions`.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('VT Code Planning', { log: true });
  context.subscriptions.push(log);

  const workbench = lazyWorkbench(context, log);
  shutdown = async () => workbench.started()?.shutdown();
  registerCommandShells(context, workbench.load);
  registerChatViewShell(context, workbench.load);
  registerPlanDiagnostics(context, log);
  registerLmTools(context, () => {
    const { folders, tasks } = workbench.load();
    return { folders, tasks, log };
  });
  registerSavedPlanOffers(context, { log, tasks: () => workbench.load().tasks });
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms`);
  const { load } = workbench;
  return {
    get chat() {
      return load().chat;
    },
    get host() {
      return load().host;
    },
    get settings() {
      return load().settings;
    },
    get tasks() {
      return load().tasks;
    },
    get folders() {
      return load().folders;
    },
    activationMs,
    activationStartedAt: started,
    deactivate,
  };
}

/** The window is closing (or the extension is disabled): the turn stops and the session log is written before VS Code moves on. */
export async function deactivate(): Promise<void> {
  await shutdown?.();
}
