import * as vscode from 'vscode';
import type { ChatController } from './chat-controller';
import type { ChatViewProvider } from './chat-view';

export interface CommandDeps {
  chat: ChatViewProvider;
  controller: ChatController;
}

/** Every command of the extension, registered in one place and owned by the extension's lifetime. */
export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('vtplan.startPlanning', async () => {
    await deps.controller.enterPlanning();
    await deps.chat.reveal();
  });
  register('vtplan.stopPlanning', () => deps.controller.stopPlanning());
}
