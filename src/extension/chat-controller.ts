import * as vscode from 'vscode';
import type { AgentMode, PanelStatus, TranscriptEntry, WebviewCommand } from '../protocol';
import type { ChatViewProvider } from './chat-view';

/**
 * The panel's conversation state until a model session drives it: the agent mode and the
 * transcript of what the user did. Slash commands switch modes (MODE-2); other text is kept in
 * the transcript with a notice that no model is connected.
 */
export class ChatController {
  private mode: AgentMode;
  private previousExecutionMode: Exclude<AgentMode, 'plan'> = 'build';
  private readonly transcript: TranscriptEntry[] = [];
  private nextId = 1;

  constructor(
    private readonly chat: ChatViewProvider,
    initialMode: AgentMode,
  ) {
    this.mode = initialMode;
    void this.publishMode();
  }

  snapshot(): { status: PanelStatus; transcript: TranscriptEntry[] } {
    return { status: this.status(), transcript: [...this.transcript] };
  }

  get currentMode(): AgentMode {
    return this.mode;
  }

  async handle(command: WebviewCommand): Promise<void> {
    if (command.type !== 'submit') return;
    const text = command.text.trim();
    this.add({ kind: 'user', id: this.id(), text });
    const slash = /^\/(plan|mode)\b\s*(.*)$/s.exec(text);
    if (slash) {
      await this.slashCommand(slash[1] ?? '', (slash[2] ?? '').trim());
      return;
    }
    this.add({
      kind: 'notice',
      id: this.id(),
      level: 'warning',
      text: 'No model is connected to this panel yet, so nothing was sent. Your message is kept above.',
    });
  }

  async enterPlanning(): Promise<void> {
    if (this.mode !== 'plan') await this.setMode('plan');
  }

  async stopPlanning(): Promise<void> {
    if (this.mode === 'plan') await this.setMode(this.previousExecutionMode);
  }

  private async slashCommand(name: string, rest: string): Promise<void> {
    if (name === 'plan' && rest === 'off') return this.stopPlanning();
    if (name === 'plan') return this.enterPlanning();
    if (rest === 'build' || rest === 'auto' || rest === 'plan') return this.setMode(rest);
    this.add({ kind: 'notice', id: this.id(), level: 'warning', text: `Unknown mode '${rest}'. Use /mode build or /mode auto.` });
  }

  private async setMode(mode: AgentMode): Promise<void> {
    if (mode === this.mode) return;
    if (this.mode !== 'plan') this.previousExecutionMode = this.mode;
    this.mode = mode;
    const label = { plan: 'Plan', build: 'Build', auto: 'Auto' }[mode];
    this.add({ kind: 'notice', id: this.id(), level: 'info', text: `Switched to ${label} mode.` });
    this.chat.post({ type: 'status', status: this.status() });
    await this.publishMode();
  }

  private async publishMode(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'vtplan.mode', this.mode);
  }

  private status(): PanelStatus {
    return { mode: this.mode, model: null, status: null, busy: false, inputLockedReason: null };
  }

  private add(entry: TranscriptEntry): void {
    this.transcript.push(entry);
    this.chat.post({ type: 'entry', entry });
  }

  private id(): string {
    return `e${this.nextId++}`;
  }
}
