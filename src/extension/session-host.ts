/**
 * The chat panel's session in VS Code: creates or restores the workspace's planning Session,
 * turns the panel's commands into session calls, and mirrors its events to the webview, the
 * `vtplan.approvalPending` context key, the Tasks view and the approval notification (GATE-6).
 */
import * as vscode from 'vscode';
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { NotRegularFileError } from '../core/ports';
import type { SessionEvent } from '../core/session/events';
import type { Session, SubmitResult } from '../core/session/session';
import { INITIAL_STATUS, type ApprovalChoice, type EntryOf, type HostNotification, type PanelStatus, type TranscriptEntry, type WebviewCommand } from '../protocol';
import { specialKindOf } from '../node/fs';
import type { ChatSource, ChatViewProvider } from './chat-view';
import type { ApiKeys } from './secrets';
import type { SettingsService } from './settings';
import type { TasksViewModel } from './tasks-view';
import type { TranscriptBuilder } from './transcript';

/**
 * The session machinery (providers and their SDKs, tools, the runloop) loads on first use, not
 * at activation: opening VS Code or the panel stays cheap (the bundle's lazy module init).
 */
let runtime: Promise<typeof import('./session-runtime.js')> | null = null;
function loadRuntime(): Promise<typeof import('./session-runtime.js')> {
  runtime ??= import('./session-runtime.js');
  return runtime;
}

const LAST_SESSION_KEY = 'vtplan.lastSession';

export interface SessionHostDeps {
  context: vscode.ExtensionContext;
  chat: ChatViewProvider;
  tasks: TasksViewModel;
  keys: ApiKeys;
  settings: SettingsService;
  log: vscode.LogOutputChannel;
}

export class SessionHost implements ChatSource, vscode.Disposable {
  private session: Session | null = null;
  private opening: Promise<Session> | null = null;
  /** Made with the session by the runtime, which carries the markdown renderer it needs. */
  private builder: TranscriptBuilder | null = null;
  private notifiedFor: string | null = null;
  private readonly approvalChanged = new vscode.EventEmitter<void>();
  /** Fires when a plan starts or stops waiting for approval (CodeLens, context keys). */
  readonly onDidChangeApproval = this.approvalChanged.event;

  private readonly trackerWatch: vscode.Disposable;
  /** Build-mode command confirmations waiting in the chat, by interview id. */
  private readonly confirmations = new Map<string, { entry: EntryOf<'interview'>; answer: (run: boolean) => void }>();
  private confirmSeq = 0;

  constructor(private readonly deps: SessionHostDeps) {
    this.trackerWatch = deps.tasks.onDidChange(() => this.showTrackerLine());
  }

  /**
   * Build mode asks before each command, inline in the chat with the wizard's look (Run / Don't
   * run); when the chat view is hidden, in a modal dialog instead so the question is never missed.
   * Stopping the turn (or closing the session) answers "don't run".
   */
  private async confirmCommand(command: string, signal: AbortSignal): Promise<boolean> {
    if (!this.deps.chat.visible) {
      const run = await vscode.window.showWarningMessage(`The build agent wants to run:\n\n${command}`, { modal: true }, 'Run');
      return run === 'Run';
    }
    const interviewId = `confirm-${++this.confirmSeq}`;
    const entry: EntryOf<'interview'> = {
      kind: 'interview',
      id: `i-${interviewId}`,
      interviewId,
      source: 'runtime',
      questions: [{ id: 'run', header: 'Run command?', question: `The build agent wants to run: ${command}`, options: [{ label: 'Run', recommended: true }, { label: "Don't run" }], allowFreeform: false }],
      state: 'pending',
      answers: [],
    };
    this.postAll(this.builder?.upsert(entry));
    this.deps.chat.post({ type: 'announce', text: 'The build agent asks to run a command.' });
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => this.confirmations.get(interviewId)?.answer(false);
      signal.addEventListener('abort', onAbort, { once: true });
      this.confirmations.set(interviewId, {
        entry,
        answer: (run) => {
          signal.removeEventListener('abort', onAbort);
          this.confirmations.delete(interviewId);
          const settled: EntryOf<'interview'> = { ...entry, state: run ? 'answered' : 'cancelled', answers: run ? [{ questionId: 'run', label: 'Run' }] : [] };
          this.postAll(this.builder?.upsert(settled));
          resolve(run);
        },
      });
    });
  }

  /** Mirrors the Tasks view's checklist into the chat as one compact line while a plan is active. */
  private showTrackerLine(): void {
    if (!this.session?.state.activePlan) return;
    const snap = this.deps.tasks.snapshot();
    if (!snap.description) return;
    const find = (rows: typeof snap.items): string | null => {
      for (const row of rows) {
        if (row.current) return row.label;
        const inner = find(row.children);
        if (inner) return inner;
      }
      return null;
    };
    const header = `${snap.title ?? 'Checklist'} ${snap.description}`;
    this.postAll(this.builder?.setTracker(header, find(snap.items)));
  }

  private postAll(messages: readonly HostNotification[] = []): void {
    for (const m of messages) this.deps.chat.post(m);
  }

  private get root(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  snapshot(): { status: PanelStatus; transcript: TranscriptEntry[] } {
    const snap = this.builder?.snapshot() ?? { status: INITIAL_STATUS, transcript: [] };
    if (!this.session) {
      const mode = this.deps.settings.current.defaultAgent;
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
      this.deps.chat.post({ type: 'state', ...this.snapshot() });
    } catch (err) {
      this.deps.log.warn(`Could not restore session ${id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async handle(command: WebviewCommand): Promise<void> {
    try {
      await this.dispatch(command);
    } catch (err) {
      if (err instanceof Error && err.name === 'SessionBusyError') {
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
        for (const pending of [...this.confirmations.values()]) pending.answer(false);
        this.session?.stop();
        return;
      case 'answerInterview': {
        const pending = this.confirmations.get(command.interviewId);
        if (pending) pending.answer(command.answers[0]?.label === 'Run');
        else await (await this.ensure()).answer(command.interviewId, command.answers);
        return;
      }
      case 'cancelInterview': {
        const pending = this.confirmations.get(command.interviewId);
        if (pending) pending.answer(false);
        else await (await this.ensure()).dismissInterview(command.interviewId);
        return;
      }
      case 'approve':
        await this.approve(command.choice);
        return;
      case 'openPlan':
        await this.openPlan();
        return;
      case 'comparePlan':
        await vscode.commands.executeCommand('vtplan.comparePlan', command.planFile);
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

  /**
   * Every approval route ends here: gate buttons (`from: 'chat'`), and the command, the
   * notification and the CodeLens (`'elsewhere'`).
   */
  async approve(choice: ApprovalChoice, from: 'chat' | 'elsewhere' = 'chat'): Promise<void> {
    const session = await this.ensure();
    if (choice !== 'revise' && !vscode.workspace.isTrusted) {
      this.reofferGate(from);
      const pick = await vscode.window.showWarningMessage(
        'Implementing a plan needs a trusted folder: the build and auto agents write files and run commands. Planning keeps working read-only.',
        'Manage Workspace Trust',
      );
      if (pick) await vscode.commands.executeCommand('workbench.trust.manage');
      return;
    }
    const result = await session.approve(choice);
    if (!result.ok) this.reofferGate(from);
  }

  /**
   * The approval did not go through: the gate becomes answerable again (GATE-3: ready for retry).
   * Answered in the chat, the focus never left the chosen button (it is only aria-disabled while
   * the answer travels), so nothing is focused here: the user may already be in the command
   * palette. Asked from outside the chat, the chat is revealed on the gate.
   */
  private reofferGate(from: 'chat' | 'elsewhere'): void {
    const gate = this.builder?.snapshot().transcript.find((e) => e.kind === 'approval' && e.state === 'pending');
    if (!gate) return;
    this.deps.chat.post({ type: 'entry', entry: { ...gate } });
    if (from === 'elsewhere') void this.deps.chat.reveal('gate');
  }

  /** Earlier sessions of the workspace, newest first, for the "Open Session…" picker (ADD-4). */
  async listSessions(): Promise<{ id: string; started: string; goal: string; current: boolean }[]> {
    const root = this.root;
    if (!root) return [];
    const rt = await loadRuntime();
    return (await rt.listSessions(root)).map((s) => ({ ...s, current: s.id === this.session?.id }));
  }

  /** Reopens an earlier session in the panel; the running turn, if any, is stopped first. */
  async switchTo(id: string): Promise<void> {
    if (this.session?.id === id) return;
    await this.closeSession();
    await this.open(id);
  }

  /** Starts an empty session (the previous one stays on disk and in "Open Session…"). */
  async newSession(): Promise<void> {
    await this.closeSession();
    await this.open();
  }

  /**
   * Ends the current session: a question waiting in the chat is answered "don't run", the turn is
   * stopped and awaited (its log appends included), so nothing of it outlives the switch.
   */
  private async closeSession(): Promise<void> {
    for (const pending of [...this.confirmations.values()]) pending.answer(false);
    this.session?.stop();
    await this.session?.idle();
    this.session = null;
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
    const absolute = join(this.root, file);
    // openTextDocument on a FIFO would wait for a writer forever; the runtime refuses it too.
    const entry = lstatSync(absolute, { throwIfNoEntry: false });
    if (entry && !entry.isFile()) {
      void vscode.window.showErrorMessage(new NotRegularFileError(absolute, specialKindOf(entry)).message);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(absolute));
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Ctrl+G (GATE-2): open the plan; each save re-validates (see onPlanSaved). */
  async editPlan(): Promise<void> {
    if (!(await this.openPlan())) return;
    vscode.window.setStatusBarMessage('$(edit) Editing the plan: save it to validate it again; the "Ready to code?" gate then shows the new version.', 10_000);
  }

  /** Called for every saved `.vtcode/plans/*.md`: the gate shows again, or a warning says why not. */
  async onPlanSaved(doc: vscode.TextDocument): Promise<void> {
    const session = this.session;
    if (!session || !this.root || !session.state.pendingApproval) return;
    const relative = vscode.workspace.asRelativePath(doc.uri, false);
    if (relative !== session.state.pendingApproval.planFile) return;
    const result = await session.planFileSaved(relative);
    // Not awaited: the toast stays until the user answers it, which may be never.
    if (!result.ok) void this.warnInvalidEdit(result.reasons);
  }

  /**
   * GATE-2: a save that does not validate is said where the user is looking, the editor, as a
   * toast (the gate in the chat carries the same reasons). Its actions lead to the full list
   * and to the gate that still stands.
   */
  private async warnInvalidEdit(reasons: readonly string[]): Promise<void> {
    // The reason first: notifications cut long text.
    const more = reasons.length > 1 ? ` (+${reasons.length - 1} more in Problems)` : '';
    const first = (reasons[0] ?? 'The edited plan is not valid').replace(/[.;]+$/, '');
    const pick = await vscode.window.showWarningMessage(`${first}${more} — the previous plan stays active.`, 'Show Problems', 'Review in chat');
    if (pick === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (pick === 'Review in chat') await this.deps.chat.reveal('gate');
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
    const rt = await loadRuntime();
    const session = await rt.openSession({
      root,
      keys: this.deps.keys,
      extensionRoot: this.deps.context.extensionUri.fsPath,
      settings: () => this.deps.settings.current,
      confirm: (command, signal) => this.confirmCommand(command, signal),
      log: this.deps.log,
      ...(resumeId ? { resumeId } : {}),
    });
    const builder = new rt.TranscriptBuilder(() => session.contextUsage());
    builder.replay(session.events);
    this.builder = builder;
    this.session = session;
    // A restored session (ADD-4): the Tasks view follows its plan, and the checklist line shows the
    // tracker files as they are now, not the count the replayed log last carried.
    const plan = session.state.activePlan;
    if (plan) await this.deps.tasks.setActivePlan(join(root, plan.planFile));
    this.showTrackerLine();
    await this.deps.context.workspaceState.update(LAST_SESSION_KEY, session.id);
    session.on((event) => this.onEvent(event));
    this.deps.chat.post({ type: 'state', ...builder.snapshot() });
    await this.syncContext();
    return session;
  }

  private onEvent(event: SessionEvent): void {
    this.postAll(this.builder?.apply(event));
    if (event.type === 'plan.persisted' && this.root) this.deps.tasks.setActivePlan(join(this.root, event.planFile));
    // A plan asked for approval inside a turn is offered when the turn ends waiting for it: one the
    // runtime accepted in the same turn (skip-confirmations, Auto) never shows a notification.
    if (event.type === 'plan.approval.requested' && !this.session?.busy) void this.offerApproval(event.planFile, event.seq);
    if (event.type === 'turn.completed' && event.status === 'awaiting_approval' && this.session?.state.pendingApproval) {
      void this.offerApproval(this.session.state.pendingApproval.planFile, event.seq);
    }
    if (event.type === 'plan.approval.requested' || event.type === 'plan.approval.resolved' || event.type === 'turn.completed' || event.type === 'mode.changed') {
      void this.syncContext();
    }
  }

  private async syncContext(): Promise<void> {
    const s = this.session?.state;
    await vscode.commands.executeCommand('setContext', 'vtplan.approvalPending', Boolean(s?.pendingApproval));
    await vscode.commands.executeCommand('setContext', 'vtplan.mode', s?.agent ?? this.deps.settings.current.defaultAgent);
    await vscode.commands.executeCommand('setContext', 'vtplan.hasPlan', Boolean(s?.pendingApproval ?? s?.activePlan));
    this.approvalChanged.fire();
  }

  /** GATE-6: when the chat view is hidden, a notification offers the same handoff. */
  private async offerApproval(planFile: string, seq: number): Promise<void> {
    if (this.deps.chat.visible || this.notifiedFor === `${planFile}#${seq}`) return;
    this.notifiedFor = `${planFile}#${seq}`;
    const title = this.session?.state.activePlan?.title ?? planFile;
    const pick = await vscode.window.showInformationMessage(`Plan ready: ${title} — Ready to code?`, 'Implement', 'Open Plan', 'Review in chat');
    if (pick === 'Implement') await this.approve('execute', 'elsewhere');
    else if (pick === 'Open Plan') await this.openPlan();
    else if (pick === 'Review in chat') await this.deps.chat.reveal('gate');
  }

  dispose(): void {
    for (const pending of [...this.confirmations.values()]) pending.answer(false);
    this.session?.stop();
    this.approvalChanged.dispose();
    this.trackerWatch.dispose();
  }
}
