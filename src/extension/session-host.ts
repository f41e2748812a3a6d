/**
 * The chat panel's session in VS Code: creates or restores the planning Session of the session
 * folder, turns the panel's commands into session calls, and mirrors its events to the webview,
 * the `vtplan.approvalPending` context key, the Tasks view and the approval notification (GATE-6).
 *
 * One session is open at a time, in one scope (the session, its transcript and the host's
 * listener); `close()` is the only way a scope ends, for New Session, Open Session…, Switch
 * Folder, a removed folder, dispose and deactivate. Stop ends the turn, not the session. A failure
 * of anything the user asked for shows in the chat with its next step (and as a notification
 * while the chat is hidden).
 */
import * as vscode from 'vscode';
import { existsSync, lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NotRegularFileError } from '../core/ports';
import type { SessionEvent } from '../core/session/events';
import type { Session, SubmitResult } from '../core/session/session';
import {
  INITIAL_STATUS,
  PANEL_ACTION_LABELS,
  type EntryOf,
  type GateChoice,
  type HostNotification,
  type PanelAction,
  type PanelStatus,
  type TranscriptEntry,
  type WebviewCommand,
} from '../protocol';
import { specialKindOf } from '../node/fs';
import type { ChatSource, ChatViewProvider } from './chat-view';
import { PendingConfirmations } from './confirmations';
import { hostFailureNotice, type FailureNotice } from './failure-notices';
import type { ApiKeys } from './secrets';
import type { SessionFolders } from './session-folders';
import type { SettingsService } from './settings';
import type { TasksViewModel } from './tasks-view';
import type { TranscriptBuilder } from './transcript';
import { errorMessage, errorStack } from '../core/errors';

/**
 * The session machinery (providers and their SDKs, tools, the runloop) loads on first use, not
 * at activation: opening VS Code or the panel stays cheap (the bundle's lazy module init).
 */
let runtime: Promise<typeof import('./session-runtime.js')> | null = null;
function loadRuntime(): Promise<typeof import('./session-runtime.js')> {
  runtime ??= import('./session-runtime.js');
  return runtime;
}

/** The last session of each folder (by folder URI), reopened when the panel first asks (ADD-4). */
const LAST_SESSIONS_KEY = 'vtplan.lastSessions';

export interface SessionHostDeps {
  context: vscode.ExtensionContext;
  chat: ChatViewProvider;
  tasks: TasksViewModel;
  folders: SessionFolders;
  keys: ApiKeys;
  settings: SettingsService;
  log: vscode.LogOutputChannel;
}

/** The open session and what lives exactly as long as it. */
interface SessionScope {
  readonly session: Session;
  readonly builder: TranscriptBuilder;
  readonly folder: vscode.WorkspaceFolder;
  readonly root: string;
  /** Drops the host's listener: the first thing a closing scope does. */
  readonly unsubscribe: () => void;
  /** Error notices already raised as notifications (while the chat was hidden). */
  readonly notified: Set<string>;
}

export class SessionHost implements ChatSource, vscode.Disposable {
  private scope: SessionScope | null = null;
  private opening: Promise<SessionScope> | null = null;
  private closing: Promise<void> | null = null;
  private disposed = false;
  private notifiedFor: string | null = null;
  /** Notices of failures while no session is open (no folder, a refused `.vtcode`): the panel shows them until one opens. */
  private looseNotices: EntryOf<'notice'>[] = [];
  private noticeSeq = 0;
  private readonly approvalChanged = new vscode.EventEmitter<void>();
  /** Fires when a plan starts or stops waiting for approval (CodeLens, context keys). */
  readonly onDidChangeApproval = this.approvalChanged.event;

  private readonly watches: vscode.Disposable[];
  /** Build-mode command confirmations waiting for the user (in the chat or a modal dialog). */
  private readonly confirmations = new PendingConfirmations();

  constructor(private readonly deps: SessionHostDeps) {
    this.watches = [
      deps.tasks.onDidChange(() => this.showTrackerLine()),
      deps.folders.onDidChange(() => void this.folderChanged()),
      // The next model request uses a changed provider or model (session-runtime.ts); the header says so now.
      deps.settings.onDidChange(({ current, previous }) => {
        if (this.scope && (current.model !== previous.model || current.provider !== previous.provider))
          this.postAll(this.scope.builder.setModel(current.model || null));
      }),
    ];
  }

  /**
   * Build mode asks before each command, inline in the chat with the wizard's look (Run / Don't
   * run); when the chat view is hidden, in a modal dialog instead so the question is never missed.
   * Stopping the turn or closing the session answers "don't run" at once, also while a modal
   * dialog is still up: it cannot be taken down from here, and its late answer no longer counts.
   */
  private confirmCommand(command: string, signal: AbortSignal): Promise<boolean> {
    const interviewId = this.confirmations.nextId();
    if (!this.deps.chat.visible) {
      const answer = this.confirmations.wait(interviewId, signal);
      vscode.window.showWarningMessage(`The build agent wants to run:\n\n${command}`, { modal: true }, 'Run').then(
        (pick) => this.confirmations.answer(interviewId, pick === 'Run'),
        (err: unknown) => {
          this.deps.log.error(`The command confirmation dialog failed: ${errorMessage(err)}`);
          this.confirmations.answer(interviewId, false);
        },
      );
      return answer;
    }
    const scope = this.scope;
    const entry: EntryOf<'interview'> = {
      kind: 'interview',
      id: `i-${interviewId}`,
      interviewId,
      source: 'runtime',
      questions: [
        {
          id: 'run',
          header: 'Run command?',
          question: `The build agent wants to run: ${command}`,
          options: [{ label: 'Run', recommended: true }, { label: "Don't run" }],
          allowFreeform: false,
        },
      ],
      state: 'pending',
      answers: [],
    };
    this.postAll(scope?.builder.upsert(entry));
    this.deps.chat.post({ type: 'announce', text: 'The build agent asks to run a command.' });
    return this.confirmations.wait(interviewId, signal, (run) => {
      const settled: EntryOf<'interview'> = {
        ...entry,
        state: run ? 'answered' : 'cancelled',
        answers: run ? [{ questionId: 'run', label: 'Run' }] : [],
      };
      const notices = scope?.builder.upsert(settled);
      // A closed session's card changes in its own transcript only.
      if (scope === this.scope) this.postAll(notices);
    });
  }

  /** Mirrors the Tasks view's checklist into the chat as one compact line while a plan is active. */
  private showTrackerLine(): void {
    const scope = this.scope;
    if (!scope?.session.state.activePlan) return;
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
    this.postAll(scope.builder.setTracker(header, find(snap.items)));
  }

  /** Everything the panel receives from the session goes out here, the header's folder added. */
  private postAll(messages: readonly HostNotification[] = []): void {
    for (const m of messages) {
      if (m.type === 'status' || m.type === 'state') this.deps.chat.post({ ...m, status: this.withFolder(m.status) });
      else this.deps.chat.post(m);
    }
  }

  /** Several folders open: the header names the one the session works in (or will). */
  private withFolder(status: PanelStatus): PanelStatus {
    const { folder: _stale, ...rest } = status;
    const name = this.deps.folders.multiRoot ? (this.scope?.folder.name ?? this.deps.folders.current?.name) : undefined;
    return name === undefined ? rest : { ...rest, folder: name };
  }

  /** For a `state` that is posted (see TranscriptBuilder.snapshot). */
  snapshot(): { status: PanelStatus; transcript: TranscriptEntry[]; earlier: number } {
    const scope = this.scope;
    if (!scope) return { status: this.panelStatus(), transcript: [...this.looseNotices], earlier: 0 };
    const snap = scope.builder.snapshot();
    return { status: this.withFolder(snap.status), transcript: snap.transcript, earlier: snap.earlier };
  }

  /** What the chat header and footer show now (read-only: unlike snapshot(), it changes nothing). */
  get status(): PanelStatus {
    return this.panelStatus();
  }

  private panelStatus(): PanelStatus {
    return this.withFolder(
      this.scope?.builder.currentStatus ?? { ...INITIAL_STATUS, mode: this.deps.settings.current.defaultAgent },
    );
  }

  get current(): Session | null {
    return this.scope?.session ?? null;
  }

  /** Build-mode commands waiting for the user's answer, in the chat or in a modal dialog. */
  get confirmationsWaiting(): number {
    return this.confirmations.size;
  }

  /** The folder the open session works in (absolute path); undefined without a session. */
  get sessionRoot(): string | undefined {
    return this.scope?.root;
  }

  /** Restores the session folder's last session (ADD-4) when the panel first asks for state. */
  async restore(): Promise<void> {
    const folder = this.deps.folders.current;
    if (!folder || this.scope || this.opening) return;
    const id = this.lastSessions()[folder.uri.toString()];
    if (!id || !existsSync(join(folder.uri.fsPath, '.vtcode', 'sessions', `${id}.jsonl`))) return;
    try {
      await this.open(id);
    } catch (err) {
      this.deps.log.warn(`Could not restore session ${id}: ${errorMessage(err)}`);
    }
  }

  private lastSessions(): Record<string, string> {
    const stored = this.deps.context.workspaceState.get<unknown>(LAST_SESSIONS_KEY);
    if (typeof stored !== 'object' || stored === null) return {};
    return Object.fromEntries(Object.entries(stored).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  /** A panel command; whatever fails shows in the chat with its next step, never only in the log. */
  async handle(command: WebviewCommand): Promise<void> {
    try {
      await this.dispatch(command);
    } catch (err) {
      this.reportFailure(err, command.type === 'submit' ? command.text : undefined);
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
      case 'showEarlier':
        // Without a session the panel holds every row there is: the page is empty.
        this.deps.chat.post(this.scope?.builder.earlierPage() ?? { type: 'earlier', entries: [], earlier: 0 });
        return;
      case 'stop':
        this.stopTurn();
        return;
      case 'answerInterview':
        if (this.confirmations.has(command.interviewId))
          this.confirmations.answer(command.interviewId, command.answers[0]?.label === 'Run');
        else await (await this.ensure()).answer(command.interviewId, command.answers);
        return;
      case 'cancelInterview':
        if (this.confirmations.has(command.interviewId)) this.confirmations.answer(command.interviewId, false);
        else await (await this.ensure()).dismissInterview(command.interviewId);
        return;
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
      case 'runAction':
        await this.runAction(command.action);
        return;
    }
  }

  /**
   * Says in the chat that something the user asked for failed, with the next step and its action
   * (and as a notification while the chat is hidden). `unsent`: a message no session took; it
   * goes back into the composer.
   */
  reportFailure(err: unknown, unsent?: string): void {
    const notice = hostFailureNotice(err, unsent !== undefined);
    const detail = errorStack(err);
    if (notice.level === 'error') this.deps.log.error(detail);
    else this.deps.log.warn(detail);
    this.showNotice(notice);
    if (unsent !== undefined) this.deps.chat.post({ type: 'restoreDraft', text: unsent });
  }

  private showNotice(notice: FailureNotice): void {
    const entry: EntryOf<'notice'> = {
      kind: 'notice',
      id: `host-${++this.noticeSeq}`,
      level: notice.level,
      text: notice.text,
      ...(notice.actions.length > 0 ? { actions: notice.actions } : {}),
    };
    if (this.scope) {
      this.postAll(this.scope.builder.upsert(entry));
    } else {
      this.looseNotices.push(entry);
      this.deps.chat.post({ type: 'entry', entry });
    }
    if (!this.deps.chat.visible) void this.notify(notice);
  }

  /** The chat is hidden: the failure shows as a notification with the same actions, and a way to the chat. */
  private async notify(notice: FailureNotice): Promise<void> {
    const show =
      notice.level === 'error'
        ? vscode.window.showErrorMessage
        : notice.level === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    const openChat = 'Open Chat';
    const pick = await show(notice.text, ...notice.actions.map((a) => PANEL_ACTION_LABELS[a]), openChat);
    if (pick === openChat) await this.deps.chat.reveal();
    const action = notice.actions.find((a) => PANEL_ACTION_LABELS[a] === pick);
    if (action) await this.runAction(action);
  }

  /** A notice's next step, or the header's folder switch: each one fixed command. */
  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'openFolder':
        await vscode.commands.executeCommand('vscode.openFolder');
        return;
      case 'switchFolder':
        await vscode.commands.executeCommand('vtplan.switchFolder');
        return;
      case 'selectModel':
        await vscode.commands.executeCommand('vtplan.selectModel');
        return;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${this.deps.context.extension.id}`);
        return;
      case 'showOutput':
        this.deps.log.show(true);
        return;
    }
  }

  async submit(text: string): Promise<SubmitResult> {
    const session = await this.ensure();
    return session.submit(text);
  }

  /** Stop: every waiting command confirmation is answered "don't run" and the turn ends; the session stays. */
  stopTurn(): void {
    this.confirmations.declineAll();
    this.scope?.session.stop();
  }

  /**
   * Every approval route ends here: gate buttons (`from: 'chat'`), and the command, the
   * notification and the CodeLens (`'elsewhere'`).
   */
  async approve(choice: GateChoice, from: 'chat' | 'elsewhere' = 'chat'): Promise<void> {
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
    const gate = this.scope?.builder.pendingGate();
    if (!gate) return;
    this.deps.chat.post({ type: 'entry', entry: { ...gate } });
    if (from === 'elsewhere') void this.deps.chat.reveal('gate');
  }

  /** Earlier sessions of the session folder, newest first, for the "Open Session…" picker (ADD-4). */
  async listSessions(): Promise<{ id: string; started: string; goal: string; current: boolean }[]> {
    const root = this.scope?.root ?? this.deps.folders.current?.uri.fsPath;
    if (!root) return [];
    const rt = await loadRuntime();
    return (await rt.listSessions(root)).map((s) => ({ ...s, current: s.id === this.scope?.session.id }));
  }

  /** Reopens an earlier session in the panel; the open one is closed first. */
  async switchTo(id: string): Promise<void> {
    if (this.scope?.session.id === id) return;
    await this.close();
    await this.open(id);
  }

  /** Starts an empty session (the previous one stays on disk and in "Open Session…"). */
  async newSession(): Promise<void> {
    await this.close();
    await this.open();
  }

  /**
   * "VT Code: Switch Folder…": a new session in the folder the user picks. False when the picker
   * was dismissed (nothing changes); picking the session's own folder keeps its session.
   */
  async switchFolder(): Promise<boolean> {
    const folder = await this.deps.folders.pick();
    if (!folder) return false;
    if (this.scope?.root === folder.uri.fsPath) return true;
    await this.close();
    await this.deps.folders.choose(folder);
    await this.open();
    return true;
  }

  /**
   * The session folder changed under the session (its folder left the workspace, or another was
   * chosen): that session closes, and the header and the Tasks view follow the new folder.
   */
  private async folderChanged(): Promise<void> {
    const next = this.deps.folders.current;
    const scope = this.scope;
    if (scope && scope.root !== next?.uri.fsPath) {
      const removed = !(vscode.workspace.workspaceFolders ?? []).some(
        (f) => f.uri.toString() === scope.folder.uri.toString(),
      );
      await this.close();
      if (removed) {
        const then = next
          ? `The next message starts a session in ${next.name}.`
          : 'The next message asks which folder to work in.';
        this.showNotice({
          level: 'warning',
          text: `The folder ${scope.folder.name} was removed from the workspace, so its session was stopped and closed (it stays in ${scope.folder.name}/.vtcode/sessions). ${then}`,
          actions: this.deps.folders.multiRoot ? ['switchFolder'] : [],
        });
      }
      this.deps.chat.post({ type: 'state', ...this.snapshot() });
      return;
    }
    // The status only: a snapshot would mark the panel as holding just the latest rows again.
    this.deps.chat.post({ type: 'status', status: this.panelStatus() });
  }

  /**
   * The one way a session ends: New Session, Open Session…, Switch Folder, a removed folder,
   * dispose and deactivate. The host stops listening first, so nothing of the old session reaches
   * the panel any more; waiting confirmations are declined, the turn is stopped and awaited, and
   * the log is flushed. A session still opening is closed once it has opened.
   */
  close(): Promise<void> {
    this.closing ??= this.closeNow().finally(() => {
      this.closing = null;
    });
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    if (this.opening) await this.opening.catch(() => undefined);
    const scope = this.scope;
    if (!scope) return;
    this.scope = null;
    scope.unsubscribe();
    this.confirmations.declineAll();
    try {
      await scope.session.close();
    } catch (err) {
      // The session is over either way; a next one must still be able to start.
      const message = errorMessage(err);
      this.deps.log.error(`Session ${scope.session.id} did not close cleanly: ${message}`);
      if (!this.disposed)
        void vscode.window.showWarningMessage(`The previous session's log could not be completed: ${message}`);
    }
    if (this.disposed) return;
    await this.deps.tasks.setActivePlan(undefined);
    await this.syncContext();
  }

  /**
   * deactivate(): VS Code gives an extension about five seconds to shut down, so the close gets a
   * budget; a turn that does not end in time (a command that ignores its stop) does not keep the
   * window from closing.
   */
  async shutdown(budgetMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, budgetMs, 'late');
    });
    try {
      const outcome = await Promise.race([this.close().then(() => 'closed' as const), late]);
      if (outcome === 'late')
        this.deps.log.warn(
          `The session did not close within ${budgetMs} ms; its last events may be missing from its log.`,
        );
    } catch (err) {
      this.deps.log.error(`Closing the session failed: ${errorMessage(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  planFile(): string | null {
    const s = this.scope?.session.state;
    return s?.pendingApproval?.planFile ?? s?.activePlan?.planFile ?? null;
  }

  /** Whether `uri` is the plan waiting for approval, in the session's folder (CodeLens). */
  isPlanUnderReview(uri: vscode.Uri): boolean {
    const pending = this.scope?.session.state.pendingApproval;
    return Boolean(this.scope && pending && uri.fsPath === join(this.scope.root, pending.planFile));
  }

  async openPlan(): Promise<vscode.TextEditor | undefined> {
    const file = this.planFile();
    const root = this.scope?.root;
    if (!file || !root) {
      void vscode.window.showInformationMessage('There is no plan yet. Describe a goal in the VT Code chat first.');
      return undefined;
    }
    const absolute = join(root, file);
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
    vscode.window.setStatusBarMessage(
      '$(edit) Editing the plan: save it to validate it again; the "Ready to code?" gate then shows the new version.',
      10_000,
    );
  }

  /** Called for every saved `.vtcode/plans/*.md`: the gate shows again, or a warning says why not. */
  async onPlanSaved(doc: vscode.TextDocument): Promise<void> {
    const scope = this.scope;
    const pending = scope?.session.state.pendingApproval;
    if (!scope || !pending) return;
    // Another folder's plan with the same name is not the plan under review.
    if (relative(scope.root, doc.uri.fsPath).split(/[\\/]/).join('/') !== pending.planFile) return;
    const result = await scope.session.planFileSaved(pending.planFile);
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
    const pick = await vscode.window.showWarningMessage(
      `${first}${more} — the previous plan stays active.`,
      'Show Problems',
      'Review in chat',
    );
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

  private async ensure(): Promise<Session> {
    if (this.scope) return this.scope.session;
    return (await this.open()).session;
  }

  private open(resumeId?: string): Promise<SessionScope> {
    this.opening ??= this.create(resumeId).finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private async create(resumeId?: string): Promise<SessionScope> {
    if (this.closing) await this.closing;
    const folder = await this.deps.folders.resolve();
    const root = folder.uri.fsPath;
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
    const notified = new Set<string>();
    const scope: SessionScope = {
      session,
      builder,
      folder,
      root,
      notified,
      unsubscribe: session.on((event) => this.onEvent(scope, event)),
    };
    this.scope = scope;
    this.looseNotices = [];
    // A restored session (ADD-4): the Tasks view follows its plan, and the checklist line shows the
    // tracker files as they are now, not the count the replayed log last carried.
    const plan = session.state.activePlan;
    await this.deps.tasks.setActivePlan(plan ? join(root, plan.planFile) : undefined);
    this.showTrackerLine();
    await this.deps.context.workspaceState.update(LAST_SESSIONS_KEY, {
      ...this.lastSessions(),
      [folder.uri.toString()]: session.id,
    });
    this.postAll([{ type: 'state', ...builder.snapshot() }]);
    await this.syncContext();
    return scope;
  }

  private onEvent(scope: SessionScope, event: SessionEvent): void {
    const messages = scope.builder.apply(event);
    this.postAll(messages);
    this.notifyHiddenFailures(scope, messages);
    if (event.type === 'plan.persisted') {
      void this.deps.tasks.setActivePlan(join(scope.root, event.planFile)).catch((err: unknown) => {
        this.deps.log.error(`The Tasks view could not follow ${event.planFile}: ${errorMessage(err)}`);
      });
    }
    // A plan asked for approval inside a turn is offered when the turn ends waiting for it: one the
    // runtime accepted in the same turn (skip-confirmations, Auto) never shows a notification.
    if (event.type === 'plan.approval.requested' && !scope.session.busy)
      void this.offerApproval(event.planFile, event.seq);
    if (
      event.type === 'turn.completed' &&
      event.status === 'awaiting_approval' &&
      scope.session.state.pendingApproval
    ) {
      void this.offerApproval(scope.session.state.pendingApproval.planFile, event.seq);
    }
    if (
      event.type === 'plan.approval.requested' ||
      event.type === 'plan.approval.resolved' ||
      event.type === 'turn.completed' ||
      event.type === 'mode.changed'
    ) {
      void this.syncContext();
    }
  }

  /** A failure the session reports while the chat is hidden (a turn started from a command or notification) also shows as a notification. */
  private notifyHiddenFailures(scope: SessionScope, messages: readonly HostNotification[]): void {
    if (this.deps.chat.visible) return;
    for (const m of messages) {
      if (
        m.type !== 'entry' ||
        m.entry.kind !== 'notice' ||
        m.entry.level !== 'error' ||
        scope.notified.has(m.entry.id)
      )
        continue;
      scope.notified.add(m.entry.id);
      void this.notify({ level: 'error', text: m.entry.text, actions: m.entry.actions ?? [] });
    }
  }

  private async syncContext(): Promise<void> {
    const s = this.scope?.session.state;
    await vscode.commands.executeCommand('setContext', 'vtplan.approvalPending', Boolean(s?.pendingApproval));
    await vscode.commands.executeCommand(
      'setContext',
      'vtplan.mode',
      s?.agent ?? this.deps.settings.current.defaultAgent,
    );
    await vscode.commands.executeCommand('setContext', 'vtplan.hasPlan', Boolean(s?.pendingApproval ?? s?.activePlan));
    this.approvalChanged.fire();
  }

  /** GATE-6: when the chat view is hidden, a notification offers the same handoff. */
  private async offerApproval(planFile: string, seq: number): Promise<void> {
    if (this.deps.chat.visible || this.notifiedFor === `${planFile}#${seq}`) return;
    this.notifiedFor = `${planFile}#${seq}`;
    const title = this.scope?.session.state.activePlan?.title ?? planFile;
    const pick = await vscode.window.showInformationMessage(
      `Plan ready: ${title} — Ready to code?`,
      'Implement',
      'Open Plan',
      'Review in chat',
    );
    if (pick === 'Implement') await this.approve('execute', 'elsewhere');
    else if (pick === 'Open Plan') await this.openPlan();
    else if (pick === 'Review in chat') await this.deps.chat.reveal('gate');
  }

  /** Extension shutdown: deactivate() has normally closed the session already (and awaited it). */
  dispose(): void {
    this.disposed = true;
    this.close().catch((err: unknown) => this.deps.log.error(`Closing the session failed: ${errorMessage(err)}`));
    for (const d of this.watches) d.dispose();
    this.approvalChanged.dispose();
  }
}
