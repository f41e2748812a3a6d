/**
 * The chat panel's session in VS Code: creates or restores the workspace's planning Session,
 * turns the panel's commands into session calls, and mirrors its events to the webview, the
 * `vtplan.approvalPending` context key, the Tasks view and the approval notification (GATE-6).
 */
import * as vscode from 'vscode';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createProvider, type ModelProvider, type StreamChunk } from '../core/llm';
import { systemClock } from '../core/ports';
import type { SessionEvent } from '../core/session/events';
import { readSessionLog } from '../core/session/log';
import { Session, SessionBusyError, type SessionDeps, type SubmitResult } from '../core/session/session';
import { createToolRuntime } from '../core/tools';
import { nodeFileSystem } from '../node/fs';
import { loadPrompts } from '../node/prompts';
import { createNodeSearch, locateRipgrep } from '../node/search';
import { nodeShell } from '../node/shell';
import type { ApprovalChoice, PanelStatus, TranscriptEntry, WebviewCommand } from '../protocol';
import type { ChatSource, ChatViewProvider } from './chat-view';
import type { ApiKeys } from './secrets';
import { readSettings } from './settings';
import type { TasksViewModel } from './tasks-view';
import { TranscriptBuilder } from './transcript';
import { createVscodeLmProvider, pickChatModel } from './vscode-lm';
import { workspaceEditWriter } from './workspace-writer';

const LAST_SESSION_KEY = 'vtplan.lastSession';

export interface SessionHostDeps {
  context: vscode.ExtensionContext;
  chat: ChatViewProvider;
  tasks: TasksViewModel;
  keys: ApiKeys;
  log: vscode.LogOutputChannel;
}

/**
 * The model is resolved on the first request, not when the session starts: opening the panel
 * or typing a slash command must not need a model (or trigger VS Code's model consent dialog).
 */
function lazyProvider(resolve: () => Promise<ModelProvider>, id: string, model: string): ModelProvider {
  let resolved: Promise<ModelProvider> | null = null;
  return {
    id,
    model,
    async *stream(request): AsyncIterable<StreamChunk> {
      resolved ??= resolve();
      let provider: ModelProvider;
      try {
        provider = await resolved;
      } catch (err) {
        resolved = null;
        yield { type: 'error', failure: { kind: 'protocol', provider: id, retryable: false, message: err instanceof Error ? err.message : String(err) } };
        return;
      }
      yield* provider.stream(request);
    },
  };
}

export class SessionHost implements ChatSource, vscode.Disposable {
  private session: Session | null = null;
  private opening: Promise<Session> | null = null;
  private builder = new TranscriptBuilder();
  private notifiedFor: string | null = null;
  private readonly approvalChanged = new vscode.EventEmitter<void>();
  /** Fires when a plan starts or stops waiting for approval (CodeLens, context keys). */
  readonly onDidChangeApproval = this.approvalChanged.event;

  constructor(private readonly deps: SessionHostDeps) {}

  private get root(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  snapshot(): { status: PanelStatus; transcript: TranscriptEntry[] } {
    const snap = this.builder.snapshot();
    if (!this.session) {
      const mode = readSettings().defaultAgent;
      return { ...snap, status: { ...snap.status, mode } };
    }
    return snap;
  }

  get current(): Session | null {
    return this.session;
  }

  /** Restores the workspace's last session (ADD-4) when the panel first asks for state. */
  async restore(): Promise<void> {
    const id = this.deps.context.workspaceState.get<string>(LAST_SESSION_KEY);
    if (!id || this.session || this.opening || !this.root) return;
    if (!existsSync(join(this.root, '.vtcode', 'sessions', `${id}.jsonl`))) return;
    try {
      await this.open(id);
      this.deps.chat.post({ type: 'state', ...this.builder.snapshot() });
    } catch (err) {
      this.deps.log.warn(`Could not restore session ${id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async handle(command: WebviewCommand): Promise<void> {
    try {
      await this.dispatch(command);
    } catch (err) {
      if (err instanceof SessionBusyError) {
        this.localNotice('warning', err.message);
        return;
      }
      throw err;
    }
  }

  private async dispatch(command: WebviewCommand): Promise<void> {
    switch (command.type) {
      case 'ready':
        await this.restore();
        return;
      case 'log':
        return;
      case 'submit':
        await this.submit(command.text);
        return;
      case 'stop':
        this.session?.stop();
        return;
      case 'answerInterview':
        await (await this.ensure()).answer(command.interviewId, command.answers);
        return;
      case 'cancelInterview':
        await (await this.ensure()).dismissInterview(command.interviewId);
        return;
      case 'approve':
        await this.approve(command.choice);
        return;
      case 'openPlan':
        await this.openPlan();
        return;
      case 'editPlan':
        await this.editPlan();
        return;
      case 'openLink':
        await this.openLink(command.href);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(command.text);
        return;
    }
  }

  async submit(text: string): Promise<SubmitResult> {
    const session = await this.ensure();
    return session.submit(text);
  }

  /** Every approval route ends here: gate buttons, the command, the notification, the CodeLens. */
  async approve(choice: ApprovalChoice): Promise<void> {
    const session = await this.ensure();
    if (choice !== 'revise' && !vscode.workspace.isTrusted) {
      const pick = await vscode.window.showWarningMessage(
        'Implementing a plan needs a trusted folder: the build and auto agents write files and run commands. Planning keeps working read-only.',
        'Manage Workspace Trust',
      );
      if (pick) await vscode.commands.executeCommand('workbench.trust.manage');
      return;
    }
    await session.approve(choice);
  }

  /** Earlier sessions of the workspace, newest first, for the "Open Session…" picker (ADD-4). */
  async listSessions(): Promise<{ id: string; started: string; goal: string; current: boolean }[]> {
    const root = this.root;
    if (!root) return [];
    const dir = join(root, '.vtcode', 'sessions');
    const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.jsonl')) : [];
    const out: { id: string; started: string; goal: string; current: boolean }[] = [];
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      const contents = await readSessionLog(nodeFileSystem, root, id).catch(() => null);
      const first = contents?.events[0];
      if (!contents || !first) continue;
      const goal = contents.events.find((e) => e.type === 'turn.started' && e.kind === 'user' && e.input);
      out.push({
        id,
        started: first.ts,
        goal: goal && goal.type === 'turn.started' ? (goal.input ?? '') : '(no goal yet)',
        current: id === this.session?.id,
      });
    }
    return out.sort((a, b) => (a.started < b.started ? 1 : -1));
  }

  /** Reopens an earlier session in the panel; the running turn, if any, is stopped first. */
  async switchTo(id: string): Promise<void> {
    if (this.session?.id === id) return;
    this.session?.stop();
    await this.session?.idle();
    this.session = null;
    await this.open(id);
  }

  /** Starts an empty session (the previous one stays on disk and in "Open Session…"). */
  async newSession(): Promise<void> {
    this.session?.stop();
    await this.session?.idle();
    this.session = null;
    await this.open();
  }

  planFile(): string | null {
    const s = this.session?.state;
    return s?.pendingApproval?.planFile ?? s?.activePlan?.planFile ?? null;
  }

  async openPlan(): Promise<vscode.TextEditor | undefined> {
    const file = this.planFile();
    if (!file || !this.root) {
      void vscode.window.showInformationMessage('There is no plan yet. Describe a goal in the VT Code chat first.');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(this.root, file)));
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Ctrl+G (GATE-2): open the plan; each save re-validates (see onPlanSaved). */
  async editPlan(): Promise<void> {
    await this.openPlan();
  }

  /** Called for every saved `.vtcode/plans/*.md`: the gate shows again, or a warning says why not. */
  async onPlanSaved(doc: vscode.TextDocument): Promise<void> {
    const session = this.session;
    if (!session || !this.root || !session.state.pendingApproval) return;
    const relative = vscode.workspace.asRelativePath(doc.uri, false);
    if (relative !== session.state.pendingApproval.planFile) return;
    const result = await session.planFileSaved(relative);
    if (!result.ok) {
      void vscode.window.showWarningMessage(`The edited plan is not valid, so the previous plan stays active: ${result.reasons[0] ?? ''}${result.reasons.length > 1 ? ` (+${result.reasons.length - 1} more; see Problems)` : ''}`);
    }
  }

  private async openLink(href: string): Promise<void> {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href, true);
    } catch {
      return;
    }
    if (uri.scheme !== 'http' && uri.scheme !== 'https' && uri.scheme !== 'mailto') {
      this.deps.log.warn(`Refused to open a link with scheme '${uri.scheme}' from the chat view.`);
      return;
    }
    await vscode.env.openExternal(uri);
  }

  private localNotice(level: 'info' | 'warning' | 'error', text: string): void {
    this.deps.chat.post({ type: 'entry', entry: { kind: 'notice', id: `local-${Date.now()}`, level, text } });
  }

  private async ensure(): Promise<Session> {
    if (this.session) return this.session;
    return this.open();
  }

  private open(resumeId?: string): Promise<Session> {
    this.opening ??= this.create(resumeId).finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private async create(resumeId?: string): Promise<Session> {
    const root = this.root;
    if (!root) throw new Error('Open a folder first: VT Code Planning works on a workspace folder.');
    const settings = readSettings();
    const deps = await this.sessionDeps(root);
    const session = resumeId ? await Session.resume(deps, resumeId) : await Session.start(deps, { agent: settings.defaultAgent });
    this.builder = new TranscriptBuilder(() => session.contextUsage());
    this.builder.replay(session.events);
    this.session = session;
    await this.deps.context.workspaceState.update(LAST_SESSION_KEY, session.id);
    session.on((event) => this.onEvent(event));
    this.deps.chat.post({ type: 'state', ...this.builder.snapshot() });
    await this.syncContext();
    return session;
  }

  private async sessionDeps(root: string): Promise<SessionDeps> {
    const settings = readSettings();
    const keys = this.deps.keys;
    const kind = settings.provider;
    const provider = lazyProvider(
      async () => {
        if (kind === 'vscode-lm') {
          const pick = await pickChatModel(settings.model);
          if (pick.status === 'picked') return createVscodeLmProvider(pick.model);
          if (pick.status === 'no_models') throw new Error('No chat model is available in VS Code. Install or sign in to a chat model extension, or run "VT Code: Select Model" to use an OpenAI-compatible or Anthropic endpoint.');
          throw new Error(`The chat model '${pick.preference}' (setting vtplan.model) is not available. Run "VT Code: Select Model".`);
        }
        const key = await keys.get(kind);
        if (!key && kind === 'anthropic') throw new Error('No Anthropic API key is stored. Run "VT Code: Select Model" to add one.');
        if (!settings.model) throw new Error(`Set a model name for ${kind}: run "VT Code: Select Model".`);
        return createProvider({ kind, model: settings.model, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}) }, key ?? 'no-key');
      },
      kind,
      settings.model,
    );
    const rg = await locateRipgrep(vscode.env.appRoot);
    const secret = kind === 'vscode-lm' ? undefined : await keys.get(kind);
    return {
      fs: nodeFileSystem,
      root,
      provider,
      tools: createToolRuntime({
        root,
        ports: { fs: nodeFileSystem, shell: nodeShell, search: createNodeSearch(rg ? { rgPath: rg } : {}), writer: workspaceEditWriter },
        commandTimeoutMs: settings.commandTimeoutSeconds * 1000,
        confirm: async (command) => {
          const run = await vscode.window.showWarningMessage(`The build agent wants to run:\n\n${command}`, { modal: true }, 'Run');
          return run === 'Run';
        },
      }),
      prompts: loadPrompts(join(this.deps.context.extensionUri.fsPath, 'prompts')),
      clock: systemClock,
      limits: {
        maxConsecutiveBlocked: settings.maxConsecutiveBlockedToolCallsPerTurn,
        toolCallsPerTurn: settings.maxToolCallsPerTurn,
        loopsPerTurn: settings.maxToolLoopsPerTurn,
        maxOutputTokens: 8_192,
      },
      ...(secret ? { secrets: [secret] } : {}),
    };
  }

  private onEvent(event: SessionEvent): void {
    for (const message of this.builder.apply(event)) this.deps.chat.post(message);
    if (event.type === 'plan.persisted' && this.root) this.deps.tasks.setActivePlan(join(this.root, event.planFile));
    if (event.type === 'plan.approval.requested') void this.offerApproval(event.planFile, event.seq);
    if (event.type === 'plan.approval.requested' || event.type === 'plan.approval.resolved' || event.type === 'turn.completed' || event.type === 'mode.changed') {
      void this.syncContext();
    }
  }

  private async syncContext(): Promise<void> {
    const s = this.session?.state;
    await vscode.commands.executeCommand('setContext', 'vtplan.approvalPending', Boolean(s?.pendingApproval));
    await vscode.commands.executeCommand('setContext', 'vtplan.mode', s?.agent ?? readSettings().defaultAgent);
    await vscode.commands.executeCommand('setContext', 'vtplan.hasPlan', Boolean(s?.pendingApproval ?? s?.activePlan));
    this.approvalChanged.fire();
  }

  /** GATE-6: when the chat view is hidden, a notification offers the same handoff. */
  private async offerApproval(planFile: string, seq: number): Promise<void> {
    if (this.deps.chat.visible || this.notifiedFor === `${planFile}#${seq}`) return;
    this.notifiedFor = `${planFile}#${seq}`;
    const title = this.session?.state.activePlan?.title ?? planFile;
    const pick = await vscode.window.showInformationMessage(`Plan ready: ${title} — Ready to code?`, 'Implement', 'Open Plan', 'Review in chat');
    if (pick === 'Implement') await this.approve('execute');
    else if (pick === 'Open Plan') await this.openPlan();
    else if (pick === 'Review in chat') await this.deps.chat.reveal();
  }

  dispose(): void {
    this.session?.stop();
    this.approvalChanged.dispose();
  }
}
