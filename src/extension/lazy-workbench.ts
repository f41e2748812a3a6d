/**
 * What activation registers: the contributed commands and the two views, as shells that load the
 * workbench (workbench.ts, dist/workbench.js) the first time one of them is used. VS Code waits
 * on activate(); it does not wait on the first command, chat resolve or Tasks read, so settings
 * parsing, the session host, the Tasks model and the zod schemas are evaluated then, once.
 */
import * as vscode from 'vscode';
import { CHAT_VIEW_ID, COMMAND_IDS, TASKS_VIEW_ID } from './contributions';
import type { TaskNode } from './tasks-view';
import type { Workbench } from './workbench';
import { errorMessage } from '../core/errors';

/** The workbench, loaded and started on the first call; the same one on every later call. */
export type LoadWorkbench = () => Workbench;

export interface LazyWorkbench {
  load: LoadWorkbench;
  /** The workbench if something has loaded it already (deactivate() stops only a started one). */
  started: () => Workbench | undefined;
}

/**
 * The one place that loads the workbench. A failure to load or start it is shown (a notification
 * naming it, the stack in the log) and thrown to the caller, on every use: the command or view
 * that needed it fails visibly, never as a silent no-op, and a half-started workbench is not
 * started a second time.
 */
export function lazyWorkbench(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): LazyWorkbench {
  let workbench: Workbench | undefined;
  let failure: Error | undefined;
  const tasksTreeChanged = new vscode.EventEmitter<TaskNode | undefined>();

  const load = (): Workbench => {
    if (workbench) return workbench;
    if (!failure) {
      try {
        // Synchronous on purpose: the shells below and the test API answer in the same call,
        // as before the split. esbuild leaves this require to dist/workbench.js (scripts/build.mjs).
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { startWorkbench } = require('./workbench.js') as typeof import('./workbench');
        workbench = startWorkbench({ context, log, tasksTree });
        context.subscriptions.push(workbench.tasks.onDidChangeTreeData((node) => tasksTreeChanged.fire(node)));
        return workbench;
      } catch (err) {
        failure = err instanceof Error ? err : new Error(errorMessage(err));
        log.error(`Could not load the workbench (dist/workbench.js): ${failure.stack ?? failure.message}`);
      }
    }
    void vscode.window.showErrorMessage(
      `VT Code Planning could not start: ${failure.message.split('\n', 1)[0]}. Reload the window; the output channel "VT Code Planning" has the details.`,
    );
    throw failure;
  };

  // The tree view exists from activation on (VS Code asks for its provider as soon as the view
  // shows); the Tasks model attaches to it when the workbench starts.
  const tasksTree = vscode.window.createTreeView<TaskNode>(TASKS_VIEW_ID, {
    treeDataProvider: {
      onDidChangeTreeData: tasksTreeChanged.event,
      getChildren: (node) => load().tasks.getChildren(node),
      getTreeItem: (node) => load().tasks.getTreeItem(node),
      getParent: (node) => load().tasks.getParent(node),
    },
    showCollapseAll: true,
  });
  context.subscriptions.push(tasksTreeChanged, tasksTree);
  return { load, started: () => workbench };
}

/** Every contributed command: its implementation is the workbench's (commands.ts). */
export function registerCommandShells(context: vscode.ExtensionContext, load: LoadWorkbench): void {
  for (const id of COMMAND_IDS) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => load().commands[id](...args)),
    );
  }
}

/** The chat view: the workbench's ChatViewProvider fills it when VS Code first shows it. */
export function registerChatViewShell(context: vscode.ExtensionContext, load: LoadWorkbench): void {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      CHAT_VIEW_ID,
      { resolveWebviewView: (view) => load().chat.resolveWebviewView(view) },
      { webviewOptions: { retainContextWhenHidden: false } },
    ),
  );
}
