import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { registerCommands } from './commands';
import { ChatViewProvider } from './chat-view';
import { registerPlanDiagnostics } from './plan-diagnostics';
import { registerPlanDocuments } from './plan-documents';
import { PlanRevisionDocuments } from './plan-revisions';
import { ApiKeys } from './secrets';
import { SessionHost } from './session-host';
import { registerTasksView, type TasksViewModel } from './tasks-view';

/** What activate() returns: read by the extension-host tests, not a public API. */
export interface ExtensionApi {
  chat: ChatViewProvider;
  host: SessionHost;
  tasks: TasksViewModel;
  /** How long activate() itself took, in ms (what VS Code reports as the activate call). */
  activationMs: number;
}

/**
 * Activation is lazy (views and commands only). Everything registered here is owned by the
 * extension's lifetime: each piece puts its disposables into `context.subscriptions`.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('VT Code Planning', { log: true });
  context.subscriptions.push(log);

  const keys = new ApiKeys(context.secrets);
  const chat = new ChatViewProvider(context.extensionUri, log);
  const tasks = registerTasksView(context);
  const host = new SessionHost({ context, chat, tasks, keys, log });
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
  registerCommands(context, { chat, host, keys, revisions });
  registerPlanDiagnostics(context, log);
  registerPlanDocuments(context, host);
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms`);
  return { chat, host, tasks, activationMs };
}

export function deactivate(): void {}
