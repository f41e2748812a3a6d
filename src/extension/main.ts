import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { registerCommands } from './commands';
import { ChatViewProvider } from './chat-view';
import { ChatController } from './chat-controller';
import { AgentMode } from '../protocol';
import { registerTasksView, type TasksViewModel } from './tasks-view';
import { registerPlanDiagnostics } from './plan-diagnostics';

/** What activate() returns: read by the extension-host tests, not a public API. */
export interface ExtensionApi {
  chat: ChatViewProvider;
  controller: ChatController;
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

  const configured = AgentMode.safeParse(vscode.workspace.getConfiguration('vtplan').get('defaultAgent'));
  const chat = new ChatViewProvider(context.extensionUri, log);
  const controller = new ChatController(chat, configured.success ? configured.data : 'plan');
  chat.bind(controller);
  context.subscriptions.push(
    chat,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
  );

  registerCommands(context, { chat, controller });
  const tasks = registerTasksView(context);
  registerPlanDiagnostics(context);
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms`);
  return { chat, controller, tasks, activationMs };
}

export function deactivate(): void {}
