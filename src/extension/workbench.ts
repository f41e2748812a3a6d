/**
 * The workbench: everything behind the commands and the two views (settings, session folders,
 * the session host, the chat view, the Tasks model, CodeLens and revision documents). It is a
 * bundle of its own (dist/workbench.js), loaded and started once, on first use, by
 * lazy-workbench.ts: activation then evaluates no zod schema and touches no file.
 */
import type * as vscode from 'vscode';
import { ChatViewProvider } from './chat-view';
import { commandHandlers, type CommandHandler } from './commands';
import type { CommandId } from './contributions';
import { registerPlanDocuments } from './plan-documents';
import { PlanRevisionDocuments } from './plan-revisions';
import { ApiKeys } from './secrets';
import { SessionFolders } from './session-folders';
import { SessionHost } from './session-host';
import { SettingsService } from './settings';
import { TasksView, type TaskNode } from './tasks-view';

/**
 * VS Code waits about five seconds for deactivate(); the session gets most of that to stop its
 * turn and write its log, and the window closes on time even when a turn will not end.
 */
const SHUTDOWN_BUDGET_MS = 4_000;

export interface Workbench {
  chat: ChatViewProvider;
  host: SessionHost;
  settings: SettingsService;
  tasks: TasksView;
  folders: SessionFolders;
  commands: Record<CommandId, CommandHandler>;
  /** Stops the turn and writes the session log, within VS Code's deactivation budget. */
  shutdown: () => Promise<void>;
}

export interface WorkbenchSetup {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  /** The Tasks tree view, created at activation; the Tasks model fills it. */
  tasksTree: vscode.TreeView<TaskNode>;
}

/** Everything it creates is owned by the extension's lifetime (`context.subscriptions`). */
export function startWorkbench({ context, log, tasksTree }: WorkbenchSetup): Workbench {
  const keys = new ApiKeys(context.secrets);
  const settings = new SettingsService(log);
  context.subscriptions.push(settings);
  const folders = new SessionFolders(context.workspaceState);
  context.subscriptions.push(folders);
  const chat = new ChatViewProvider(context.extensionUri, log);
  const tasks = new TasksView({ root: () => folders.current?.uri.fsPath, onDidChange: folders.onDidChange });
  tasks.attach(tasksTree);
  context.subscriptions.push(tasks);
  const host = new SessionHost({ context, chat, tasks, folders, keys, settings, log });
  chat.bind(host);
  context.subscriptions.push(chat, host);

  const revisions = new PlanRevisionDocuments(host);
  context.subscriptions.push(revisions);
  registerPlanDocuments(context, host);
  return {
    chat,
    host,
    settings,
    tasks,
    folders,
    commands: commandHandlers({ chat, host, keys, settings, revisions }),
    shutdown: () => host.shutdown(SHUTDOWN_BUDGET_MS),
  };
}
