import * as vscode from 'vscode';
import { HostNotification, WebviewCommand, describeInvalid, type PanelStatus, type TranscriptEntry } from '../protocol';
import { CHAT_VIEW_ID } from './contributions';
import { renderWebviewHtml } from './webview-html';
import { errorMessage } from '../core/errors';

export type ChatFocusTarget = 'composer' | 'gate';

function focusMessage(target: ChatFocusTarget): HostNotification {
  return target === 'gate' ? { type: 'focusGate' } : { type: 'focusComposer' };
}

/** Where the view gets what it shows and sends what the user does. */
export interface ChatSource {
  snapshot(): { status: PanelStatus; transcript: TranscriptEntry[]; earlier: number };
  handle(command: WebviewCommand): void | Promise<void>;
}

/**
 * Hosts the chat webview view. It owns no planning state: whatever it shows comes from a
 * snapshot provider, so a view that is closed and reopened (or a reloaded window) shows the same.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly viewDisposables: vscode.Disposable[] = [];
  private source: ChatSource | undefined;
  /** Where keyboard focus goes once a (re)loading webview asks for state; null: nowhere. */
  private focusWhenReady: ChatFocusTarget | null = null;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  bind(source: ChatSource): void {
    this.source = source;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.extensionUri, 'media'),
      ],
    };
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri);
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        this.disposeView();
      }),
    );
  }

  /**
   * Reveals the view and puts the keyboard focus in it: in the composer, or on the pending gate when
   * the user came for the approval (the webview never moves focus to a gate on its own while the
   * user works elsewhere).
   */
  async reveal(target: ChatFocusTarget = 'composer'): Promise<void> {
    this.focusWhenReady = target;
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    if (this.view) {
      this.view.show(false);
      this.post(focusMessage(target));
    }
  }

  post(message: HostNotification): void {
    const checked = HostNotification.safeParse(message);
    if (!checked.success) {
      this.log.error(`Refusing to send an invalid message to the chat view: ${describeInvalid(checked.error)}`);
      return;
    }
    void this.view?.webview.postMessage(checked.data);
  }

  private receive(raw: unknown): void {
    const parsed = WebviewCommand.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Dropped an invalid message from the chat view: ${describeInvalid(parsed.error)}`);
      return;
    }
    const command = parsed.data;
    const source = this.source;
    if (!source) {
      this.log.error(`Chat command '${command.type}' arrived before the panel was bound to a session.`);
      return;
    }
    if (command.type === 'log') {
      this.log[command.level](`Chat view: ${command.message}`);
      return;
    }
    if (command.type === 'ready') {
      this.post({ type: 'state', ...source.snapshot() });
      if (this.focusWhenReady) this.post(focusMessage(this.focusWhenReady));
      this.focusWhenReady = null;
    }
    Promise.resolve(source.handle(command)).catch((err: unknown) => {
      this.log.error(`Chat command '${command.type}' failed: ${errorMessage(err)}`);
    });
  }

  private disposeView(): void {
    for (const d of this.viewDisposables.splice(0)) d.dispose();
  }

  dispose(): void {
    this.disposeView();
  }
}
