import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { registerCommands } from './commands';
import { registerLmTools } from './lm-tools';
import { ChatViewProvider } from './chat-view';
import { registerPlanDiagnostics } from './plan-diagnostics';
import { registerPlanDocuments } from './plan-documents';
import { PlanRevisionDocuments } from './plan-revisions';
import { ApiKeys } from './secrets';
import { SessionFolders } from './session-folders';
import { SessionHost } from './session-host';
import { SettingsService } from './settings';
import { registerTasksView, type TasksViewModel } from './tasks-view';

/** What activate() returns: read by the extension-host tests, not a public API. */
export interface ExtensionApi {
  chat: ChatViewProvider;
  host: SessionHost;
  settings: SettingsService;
  tasks: TasksViewModel;
  folders: SessionFolders;
  /** How long activate() itself took, in ms (what VS Code reports as the activate call). */
  activationMs: number;
  /** The extension's deactivate(), as VS Code calls it when the window closes. */
  deactivate: () => Promise<void>;
}

/**
 * VS Code waits about five seconds for deactivate(); the session gets most of that to stop its
 * turn and write its log, and the window closes on time even when a turn will not end.
 */
const SHUTDOWN_BUDGET_MS = 4_000;

let shutdown: (() => Promise<void>) | null = null;

/**
 * Activation is lazy (views and commands only). Everything registered here is owned by the
 * extension's lifetime: each piece puts its disposables into `context.subscriptions`.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('VT Code Planning', { log: true });
  context.subscriptions.push(log);

  const keys = new ApiKeys(context.secrets);
  const settings = new SettingsService(log);
  context.subscriptions.push(settings);
  const folders = new SessionFolders(context.workspaceState);
  context.subscriptions.push(folders);
  const chat = new ChatViewProvider(context.extensionUri, log);
  const tasks = registerTasksView(context, {
    root: () => folders.current?.uri.fsPath,
    onDidChange: folders.onDidChange,
  });
  const host = new SessionHost({ context, chat, tasks, folders, keys, settings, log });
  shutdown = () => host.shutdown(SHUTDOWN_BUDGET_MS);
  chat.bind(host);
  context.subscriptions.push(
    chat,
    host,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
  );

  const revisions = new PlanRevisionDocuments(host);
  context.subscriptions.push(revisions);
  registerCommands(context, { chat, host, keys, settings, revisions });
  registerPlanDiagnostics(context, log);
  registerPlanDocuments(context, host);
  registerLmTools(context, { folders, tasks, log });
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms`);
  return { chat, host, settings, tasks, folders, activationMs, deactivate };
}

/** The window is closing (or the extension is disabled): the turn stops and the session log is written before VS Code moves on. */
export async function deactivate(): Promise<void> {
  await shutdown?.();
}
