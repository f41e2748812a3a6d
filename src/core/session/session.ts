/**
 * A planning session: the one object the chat view, the CLI and the tests drive. It owns the
 * event stream (EVT-1): every change is an event, stamped, applied to the state, handed to
 * listeners, then written to the session log. `Session.resume` rebuilds the same state from the log.
 *
 * User input arrives through `submit` (goals, slash commands, intent phrases), `answer` /
 * `dismissInterview` (INT-1, INT-2, SYN-3, MODE-4) and `approve` (GATE-1 choices, GATE-6 routes).
 */
import { randomBytes } from 'node:crypto';
import type { AppendFileSystem, Clock, FileSystem } from '../ports';
import type { ArchiveOutcome } from '../guards';
import { stripTrackerRegion, validatePlan } from '../plan';
import type { ModelProvider, RetryOptions } from '../llm';
import { AGENT_MODES, type AgentMode, type GateChoice, type TurnStatus } from '../vocabulary';
import { EventSequencer, toolBlockedEvent, toolCallEvent, type EventInput, type SessionEvent } from './events';
import { contextUsage, handOff, type HandoffResult } from './handoff';
import { classifyIntent } from './intents';
import { RECOVERY_CHOICES, type InterviewAnswerInput } from './interview';
import {
  integrityNotice,
  readSessionLog,
  resumePoint,
  SessionLog,
  untrustedLines,
  type SessionLogContents,
} from './log';
import type { PromptTemplates } from './prompts';
import {
  DEFAULT_SESSION_TOOL_CALLS,
  grantedLoopLimit,
  INTERVIEW_DENIAL_DISMISSALS,
  LIMIT_DENY,
  LIMIT_GRANT,
  runTurn,
  sessionCallLimit,
  turnBudget,
  type TurnEnd,
  type TurnResume,
} from './runloop';
import { applyEvent, initialState, replay, type SessionState, type Suspension } from './state';
import type { ToolRuntime } from './tool-runtime';
import type { TurnSettings } from './turn-settings';
import { errorMessage } from '../errors';

export interface SessionDeps {
  fs: FileSystem & AppendFileSystem;
  root: string;
  provider: ModelProvider;
  tools: ToolRuntime;
  prompts: PromptTemplates;
  clock: Clock;
  /**
   * The configuration a turn runs with, asked for when each turn starts (a continuation of the
   * same turn keeps its turn's): hosts read their settings here, so a change applies from the next turn.
   */
  turnSettings(): TurnSettings;
  retry?: RetryOptions;
  /**
   * The workspace's session-log key (at least 32 random bytes): tags every logged line so a resume
   * trusts only what the runtime wrote (STORE-2). The host keeps it outside the workspace.
   */
  logKey: Uint8Array;
  /** API keys to mask in the log. */
  secrets?: readonly string[];
  /** How a resume is offered in a blocked handoff (FUSE-2), e.g. `vtplan resume <id>`. */
  resumeCommand?: (sessionId: string) => string;
}

export type SubmitResult =
  | { kind: 'ran'; status: TurnStatus }
  /** Nothing ran; the notice says why (also emitted as a `notice` event). */
  | { kind: 'notice'; text: string }
  | { kind: 'mode'; agent: AgentMode };

export type Listener = (event: SessionEvent) => void;

/** What the chat header and the CLI say about command containment (RO-1). */
async function sandboxOf(deps: SessionDeps): Promise<{ sandboxed: boolean; summary: string }> {
  const { sandboxed, summary } = await deps.tools.isolation();
  return { sandboxed, summary };
}

class SessionBusyError extends Error {
  constructor() {
    super('A turn is running; stop it first or wait for it to finish.');
    this.name = 'SessionBusyError';
  }
}

export class Session {
  private current: SessionState;
  private readonly listeners = new Set<Listener>();
  private readonly history: SessionEvent[] = [];
  private abort: AbortController | null = null;
  private running: Promise<unknown> | null = null;
  /** `stop()` came after the turn's own end: the follow-up it left (skip-confirmations) does not start. */
  private followUpStopped = false;
  /** The settings of the latest turn, kept for its continuations (EXEC-3 grants, answers). */
  private turnConfig: { turn: number; settings: TurnSettings } | null = null;
  /** How many of `events` came from the log when the session was resumed. */
  readonly replayedCount: number;

  private constructor(
    private readonly deps: SessionDeps,
    private readonly log: SessionLog,
    private readonly sequencer: EventSequencer,
    state: SessionState,
    past: readonly SessionEvent[],
  ) {
    this.current = state;
    this.history.push(...past);
    this.replayedCount = past.length;
  }

  static newId(clock: Clock): string {
    const stamp = new Date(clock.now()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
    return `${stamp}-${randomBytes(3).toString('hex')}`;
  }

  static async start(deps: SessionDeps, options: { agent: AgentMode; id?: string }): Promise<Session> {
    const id = options.id ?? Session.newId(deps.clock);
    const log = await SessionLog.open(deps.fs, deps.root, id, { key: deps.logKey, secrets: deps.secrets ?? [] });
    const state = initialState({
      id,
      workspace: deps.root,
      provider: deps.provider.id,
      model: deps.provider.model,
      agent: options.agent,
    });
    const session = new Session(deps, log, new EventSequencer(id, deps.clock), state, []);
    await session.emit({
      type: 'session.started',
      agent: options.agent,
      provider: deps.provider.id,
      model: deps.provider.model,
      workspace: deps.root,
      resumed: false,
      sandbox: await sandboxOf(deps),
    });
    return session;
  }

  /**
   * Rebuilds a session from its log alone (ADD-4); a pending approval stays pending (GATE-5).
   * Only lines the runtime wrote are applied. When the log holds any other line, nothing in it is
   * taken as authority: the session resumes in plan mode with no pending approval and says which
   * lines were ignored (STORE-2, MODE-1, GATE-5).
   */
  static async resume(deps: SessionDeps, id: string): Promise<Session> {
    const reopened = await SessionLog.reopen(deps.fs, deps.root, id, { key: deps.logKey, secrets: deps.secrets ?? [] });
    const contents = reopened?.contents;
    if (!reopened || !contents || (contents.events.length === 0 && contents.problems.length === 0))
      throw new Error(`No session '${id}' in ${deps.root}/.vtcode/sessions.`);
    const first = contents.events[0];
    const agent = first?.type === 'session.started' ? first.agent : 'plan';
    const base = initialState({
      id,
      workspace: deps.root,
      provider: deps.provider.id,
      model: deps.provider.model,
      agent,
    });
    const state = replay(base, contents.events);
    const session = new Session(
      deps,
      reopened.log,
      new EventSequencer(id, deps.clock, resumePoint(contents.events)),
      state,
      contents.events,
    );
    // An interrupted turn (a crash mid-turn) is closed before anything new happens.
    if (state.status === 'running')
      await session.emit({
        type: 'turn.completed',
        status: 'cancelled',
        reason: 'The session stopped while this turn was running.',
      });
    const untrusted = untrustedLines(contents);
    if (untrusted.length > 0) await session.withdrawAuthority(contents, untrusted);
    await session.emit({
      type: 'session.started',
      agent: session.current.agent,
      provider: deps.provider.id,
      model: deps.provider.model,
      workspace: deps.root,
      resumed: true,
      sandbox: await sandboxOf(deps),
    });
    return session;
  }

  /**
   * The log was changed outside the runtime, so the verified events may lack what came after
   * them: no approval stays pending and the session plans (read-only) until the user says otherwise.
   */
  private async withdrawAuthority(contents: SessionLogContents, lines: readonly number[]): Promise<void> {
    await this.emit({ type: 'notice', level: 'warning', text: integrityNotice(contents, lines) });
    const pending = this.current.pendingApproval;
    if (pending) {
      await this.emit({
        type: 'plan.approval.resolved',
        choice: 'revise',
        automatic: true,
        planFile: pending.planFile,
      });
      await this.emit({
        type: 'turn.completed',
        status: 'idle',
        reason: 'The plan was not approved; say "implement" to review it again.',
      });
    }
    if (this.current.agent !== 'plan') {
      await this.emit({
        type: 'mode.changed',
        from: this.current.agent,
        to: 'plan',
        switchPath: 'startup_plan_entry',
        reason: 'The session log was changed outside VT Code.',
      });
    }
  }

  get id(): string {
    return this.current.id;
  }

  get state(): Readonly<SessionState> {
    return this.current;
  }

  /** Every event of the session so far, including those replayed from the log. */
  get events(): readonly SessionEvent[] {
    return this.history;
  }

  get busy(): boolean {
    return this.abort !== null;
  }

  get logPath(): string {
    return this.log.path;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Context use before a fresh-context handoff, 0..1 (GATE-1 "Context: N% used."). */
  contextUsage(): number {
    return contextUsage(this.current);
  }

  /** Waits until the running turn (if any) has finished. */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Cancels the running turn (state-based cancellation, EXEC-5), and what it would start on its own. */
  stop(): void {
    this.abort?.abort();
    this.followUpStopped = true;
  }

  /**
   * Ends the session for good (a new or another session takes over, the window closes): the turn
   * is stopped and awaited, listeners hear nothing more, and whatever the log still holds (held
   * deltas, queued appends) is written and fsync'd before this resolves.
   */
  async close(): Promise<void> {
    this.listeners.clear();
    this.stop();
    await this.idle();
    await this.log.close();
  }

  async submit(input: string): Promise<SubmitResult> {
    const text = input.trim();
    if (text === '') return this.notice('warning', 'Nothing to send.');
    const slash = /^\/(plan|mode)(?:\s+([\s\S]*))?$/.exec(text);
    if (slash) return this.slashCommand(slash[1] as 'plan' | 'mode', (slash[2] ?? '').trim());
    if (this.busy) throw new SessionBusyError();
    if (this.current.pendingInterview) {
      return this.notice('warning', 'Answer the open question first (or dismiss it with Esc).');
    }
    if (this.current.agent === 'plan') {
      const intent = classifyIntent(text, {
        afterImplementationPrompt: this.current.askedToImplement || this.current.pendingApproval !== null,
      });
      if (intent === 'exit' && (this.current.pendingApproval || this.current.activePlan)) {
        if (!this.current.pendingApproval && this.current.activePlan) {
          // MODE-6: present the plan for approval; never self-approve.
          await this.emit({ type: 'plan.approval.requested', planFile: this.current.activePlan.planFile });
          return { kind: 'ran', status: 'awaiting_approval' };
        }
        const result = await this.approve('execute');
        return result.ok
          ? { kind: 'ran', status: this.current.status === 'running' ? 'idle' : (this.current.status as TurnStatus) }
          : { kind: 'notice', text: result.reason };
      }
      if (intent === 'cancel' && (this.current.pendingApproval || this.current.activePlan)) {
        await this.cancelPlan();
        return { kind: 'ran', status: 'idle' };
      }
    } else if (this.current.pendingApproval) {
      // EXEC-4: a revision proposed during execution waits at the ordinary gate; `approve` /
      // `implement` (GATE-5, headless) and cancel phrases answer it like they do in planning.
      const intent = classifyIntent(text, { afterImplementationPrompt: true });
      if (intent === 'exit') {
        const result = await this.approve('execute');
        return result.ok
          ? { kind: 'ran', status: this.current.status === 'running' ? 'idle' : (this.current.status as TurnStatus) }
          : { kind: 'notice', text: result.reason };
      }
      if (intent === 'cancel') {
        await this.cancelPlan();
        return { kind: 'ran', status: 'idle' };
      }
    }
    return this.runTurnOf('user', text);
  }

  /**
   * A question is shown as soon as it is heard, while the turn that asked is still ending (a limit
   * prompt's suspension is recorded after the question): an answer or a dismissal in that moment
   * waits for that end, instead of being routed before the question is complete or lost as busy.
   */
  private async askingTurnEnded(): Promise<void> {
    await this.idle();
    if (this.busy) throw new SessionBusyError();
  }

  /** Answers the pending interview with the options' declared labels (INT-1). */
  async answer(interviewId: string, answers: InterviewAnswerInput[]): Promise<SubmitResult> {
    await this.askingTurnEnded();
    const pending = this.current.pendingInterview;
    if (!pending || pending.interviewId !== interviewId)
      return this.notice('warning', 'That question is no longer open.');
    for (const a of answers) {
      const q = pending.questions.find((x) => x.id === a.questionId);
      if (!q) return this.notice('error', `Unknown question '${a.questionId}'.`);
      if (a.label !== undefined && !q.options.some((o) => o.label === a.label)) {
        return this.notice('error', `'${a.label}' is not one of the offered options.`);
      }
    }
    const suspension = this.current.suspended;
    if (suspension?.interviewId === interviewId && answers[0]?.label === undefined) {
      // EXEC-3: only an explicit choice answers a limit prompt; silence is neither a grant nor a denial.
      return this.notice('warning', `Choose "${LIMIT_GRANT}" or "${LIMIT_DENY}".`);
    }
    await this.emit({ type: 'interview.resolved', interviewId, answers, cancelled: false });
    if (pending.source === 'model') return this.continueTurn();
    if (suspension?.interviewId === interviewId) return this.limitAnswer(suspension, answers[0]?.label === LIMIT_GRANT);
    return this.runtimeAnswer(interviewId, answers[0]?.label);
  }

  /** Esc / Ctrl-C: no answer (INT-2). Planning stays idle and resumable (SYN-3). */
  async dismissInterview(interviewId: string): Promise<SubmitResult> {
    await this.askingTurnEnded();
    const pending = this.current.pendingInterview;
    if (!pending || pending.interviewId !== interviewId)
      return this.notice('warning', 'That question is no longer open.');
    const suspension = this.current.suspended;
    await this.emit({ type: 'interview.resolved', interviewId, cancelled: true });
    if (pending.source === 'model') {
      if (!this.current.interviewsDenied && this.current.interviewDismissals >= INTERVIEW_DENIAL_DISMISSALS) {
        // INT-3: recorded for the session, so later questions are denied without asking.
        await this.emit({ type: 'interview.denied', dismissals: this.current.interviewDismissals });
        await this.emit({
          type: 'notice',
          level: 'info',
          text: 'Questions are off for this session: the agent will decide with stated defaults instead of asking.',
        });
      }
      return this.continueTurn();
    }
    // Dismissing a limit prompt is an explicit "no" (EXEC-3).
    if (suspension?.interviewId === interviewId) return this.limitAnswer(suspension, false);
    await this.emit({
      type: 'turn.completed',
      status: 'idle',
      reason: 'Question dismissed; planning is idle and can be resumed.',
    });
    return { kind: 'ran', status: 'idle' };
  }

  /** A "Ready to code?" choice or any other approval route (GATE-6: one handoff for all). */
  async approve(
    choice: GateChoice,
    automatic = false,
  ): Promise<HandoffResult | { ok: true; agent: 'plan'; implementationPrompt: '' }> {
    if (this.busy) throw new SessionBusyError();
    if (choice === 'revise') {
      if (this.current.pendingApproval) {
        await this.emit({
          type: 'plan.approval.resolved',
          choice: 'revise',
          automatic,
          planFile: this.current.pendingApproval.planFile,
        });
      }
      await this.emit({
        type: 'turn.completed',
        status: 'idle',
        reason: 'Staying in Plan mode. Tell the planner what to change.',
      });
      return { ok: true, agent: 'plan', implementationPrompt: '' };
    }
    if (this.current.suspended) {
      // EXEC-3: the paused batch must be answered first, or its calls would stay without results.
      const reason = 'Answer the limit question first; the plan was not approved.';
      await this.emit({ type: 'notice', level: 'warning', text: reason, switchPath: 'plan_approval' });
      return { ok: false, step: 'suspended', reason };
    }
    const result = await handOff(
      { fs: this.deps.fs, root: this.deps.root, emit: (e) => this.emit(e), state: () => this.current },
      choice,
      automatic,
    );
    if (!result.ok) return result;
    await this.runTurnOf('implementation', result.implementationPrompt);
    return result;
  }

  /**
   * GATE-2: the user edited and saved the plan file (Ctrl+G). A valid file becomes the plan under
   * review and the gate shows again with its synopsis; an invalid one leaves the previous plan
   * active and says why.
   */
  async planFileSaved(planFile: string): Promise<{ ok: boolean; reasons: string[] }> {
    const active = this.current.pendingApproval?.planFile ?? this.current.activePlan?.planFile;
    if (!active || active !== planFile) return { ok: false, reasons: ['This file is not the plan under review.'] };
    const markdown = await this.deps.fs.readText(`${this.deps.root}/${planFile}`);
    if (markdown === null) return { ok: false, reasons: ['The plan file was deleted.'] };
    const report = validatePlan(markdown);
    if (!report.ready) {
      const reasons = report.errors.map((e) => `${e.line ? `line ${e.line}: ` : ''}${e.message}`);
      const list = reasons.map((r) => `- ${r.replace(/[.;]+$/, '')}`).join('\n');
      const invalidEdit = {
        planFile,
        reasons: report.errors.map((e) => ({ code: e.code, message: e.message, ...(e.line ? { line: e.line } : {}) })),
      };
      await this.emit({
        type: 'notice',
        level: 'warning',
        text: `The edited plan is not valid, so the previous plan stays active:\n${list}`,
        invalidEdit,
      });
      return { ok: false, reasons };
    }
    await this.emit({ type: 'plan.completed', text: stripTrackerRegion(markdown).trim(), source: 'editor' });
    await this.emit({ type: 'plan.approval.requested', planFile });
    return { ok: true, reasons: [] };
  }

  private async cancelPlan(): Promise<void> {
    const planFile = this.current.pendingApproval?.planFile ?? this.current.activePlan?.planFile;
    await this.emit({
      type: 'plan.approval.resolved',
      choice: 'cancel',
      automatic: false,
      ...(planFile ? { planFile } : {}),
    });
    await this.emit({
      type: 'turn.completed',
      status: 'idle',
      reason: 'Planning cancelled; the plan will not be implemented.',
    });
  }

  private async slashCommand(name: 'plan' | 'mode', rest: string): Promise<SubmitResult> {
    if (this.busy) {
      // MODE-2: dropped with a visible notice while a turn runs.
      return this.notice(
        'warning',
        `A turn is running; /${name} was not applied. Stop the turn first or wait for it to finish.`,
        'plan_entry',
      );
    }
    if (this.current.suspended) {
      // EXEC-3: the limit prompt owns input; a mode switch is not an answer (nor a denial).
      return this.notice('warning', `Answer the limit question first; /${name} was not applied.`);
    }
    if (name === 'mode') {
      const mode = AGENT_MODES.find((m) => m === rest);
      if (mode === undefined)
        return this.notice('warning', `Unknown mode '${rest}'. Use /mode build, /mode auto or /plan.`);
      if (this.current.agent === 'plan' && mode !== 'plan' && (this.current.pendingApproval || this.current.activePlan))
        await this.cancelPlan();
      await this.switchMode(mode, mode === 'plan' ? 'plan_entry' : 'plan_exit');
      if (mode === 'plan') await this.emit({ type: 'planning.requested', command: '/mode plan' });
      return { kind: 'mode', agent: mode };
    }
    if (rest === 'off') {
      if (this.current.agent !== 'plan') return this.notice('info', 'Planning is not active.');
      if (this.current.pendingApproval || this.current.activePlan) await this.cancelPlan();
      await this.switchMode(this.current.previousExecution, 'plan_exit');
      return { kind: 'mode', agent: this.current.agent };
    }
    if (this.current.agent !== 'plan') await this.switchMode('plan', 'plan_entry');
    // GATE-5: asked for by name, so its plans wait for approval even when confirmations are skipped.
    if (!this.current.planningExplicit) await this.emit({ type: 'planning.requested', command: '/plan' });
    if (rest === '') return { kind: 'mode', agent: 'plan' };
    // `/plan <text>` while planning: a new request; the old file stays, its approval is cleared.
    if (this.current.pendingApproval) {
      await this.emit({
        type: 'plan.approval.resolved',
        choice: 'revise',
        automatic: true,
        planFile: this.current.pendingApproval.planFile,
      });
    }
    if (this.current.pendingInterview)
      await this.emit({
        type: 'interview.resolved',
        interviewId: this.current.pendingInterview.interviewId,
        cancelled: true,
        superseded: true,
      });
    return this.runTurnOf('user', rest);
  }

  private async switchMode(to: AgentMode, switchPath: 'plan_entry' | 'plan_exit'): Promise<void> {
    if (to === this.current.agent) return;
    await this.emit({ type: 'mode.changed', from: this.current.agent, to, switchPath });
  }

  /**
   * EXEC-3: the answer to a limit prompt. A grant raises the limit (session grants persist across
   * turns; a loop grant latches automatic grants for the session) and continues the SAME turn with
   * the paused batch. A denial stays a denial: the paused calls get denied results, the budget is
   * recorded as exhausted (NAV-6), and the turn ends blocked.
   */
  private async limitAnswer(suspension: Suspension, grant: boolean): Promise<SubmitResult> {
    const { limits } = this.settingsOfTurn();
    const state = this.current;
    if (suspension.reason === 'session_calls') {
      const previous = sessionCallLimit(limits, state);
      if (grant) {
        await this.emit({
          type: 'session_tool_limit_increased',
          previous,
          limit: previous + (limits.sessionToolCalls || DEFAULT_SESSION_TOOL_CALLS),
        });
        return this.continueTurn({ suspension });
      }
      const used = state.sessionCalls - (suspension.firstCallEmitted ? 1 : 0);
      for (const [index, call] of suspension.calls.entries()) {
        if (index > 0 || !suspension.firstCallEmitted) await this.emit(toolCallEvent(call));
        await this.emit(
          toolBlockedEvent(
            call,
            'budget',
            `Denied: the session tool-call limit (${previous}) is reached and the user did not grant more calls.`,
          ),
        );
      }
      await this.emit({ type: 'budget_exhausted', kind: 'session_calls', used, max: previous });
      await this.emit({
        type: 'turn.completed',
        status: 'blocked',
        reason: `The session tool-call limit (${previous}) is reached; more calls were not granted.`,
      });
      return { kind: 'ran', status: 'blocked' };
    }
    const budget = turnBudget(limits, state);
    const next = grantedLoopLimit(budget.loops, budget.baseLoops);
    if (grant && next !== null) {
      await this.emit({ type: 'tool_loop_limit_increased', previous: budget.loops, limit: next, automatic: false });
      return this.continueTurn({ suspension });
    }
    await this.emit({ type: 'budget_exhausted', kind: 'tool_loop', used: state.turnLoops, max: budget.loops });
    await this.emit({
      type: 'turn.completed',
      status: 'blocked',
      reason: `The turn used all ${budget.loops} model round-trips; more were not granted. Send "continue" to keep going in a new turn.`,
    });
    return { kind: 'ran', status: 'blocked' };
  }

  private async runtimeAnswer(interviewId: string, label: string | undefined): Promise<SubmitResult> {
    if (interviewId.startsWith('planning-')) {
      // MODE-4: the user decides whether to enter planning.
      if (label?.startsWith('Enter Planning workflow'))
        return this.enterSuggestedPlanning('The user chose to enter the Planning workflow.');
      return this.runTurnOf(
        'continuation',
        'The user chose to continue without the Planning workflow. Carry on with the task.',
      );
    }
    if (label === RECOVERY_CHOICES[0]) {
      return this.runTurnOf(
        'synthesis',
        'Write the plan now from the evidence already gathered, as one <proposed_plan> block. Do not call tools.',
      );
    }
    const next =
      label === RECOVERY_CHOICES[1]
        ? 'Type the clarification in the composer; planning continues with it.'
        : 'Choose another model ("VT Code: Select Model"), then retry.';
    await this.emit({ type: 'turn.completed', status: 'idle', reason: next });
    return { kind: 'ran', status: 'idle' };
  }

  /** MODE-4: the start_planning suggestion accepted, by the user or by skip-confirmations. Implicit planning. */
  private async enterSuggestedPlanning(why: string): Promise<SubmitResult> {
    await this.switchMode('plan', 'plan_entry');
    return this.runTurnOf('continuation', `${why} Research read-only and propose a plan.`);
  }

  /** The settings the current turn started with; a turn begun in an earlier process reads them now. */
  private settingsOfTurn(): TurnSettings {
    const turn = this.current.turn;
    if (this.turnConfig?.turn !== turn) this.turnConfig = { turn, settings: this.deps.turnSettings() };
    return this.turnConfig.settings;
  }

  private async continueTurn(resume?: TurnResume): Promise<SubmitResult> {
    return this.execute(async (signal) => {
      await this.emit({ type: 'turn.started', agent: this.current.agent, kind: 'continuation' });
      return this.loop(signal, resume);
    });
  }

  private async runTurnOf(
    kind: 'user' | 'implementation' | 'synthesis' | 'continuation',
    input: string,
  ): Promise<SubmitResult> {
    return this.execute(async (signal) => {
      this.turnConfig = { turn: this.sequencer.beginTurn(), settings: this.deps.turnSettings() };
      await this.emit({ type: 'turn.started', agent: this.current.agent, kind, input });
      if (kind === 'synthesis') {
        await this.emit({ type: 'directive', kind: 'synthesis', text: input, allowanceUsed: 0, toolsClosed: true });
      }
      return this.loop(signal);
    });
  }

  private async loop(signal: AbortSignal, resume?: TurnResume): Promise<TurnEnd> {
    const deps = this.deps;
    const settings = this.settingsOfTurn();
    return runTurn(
      {
        fs: deps.fs,
        root: deps.root,
        provider: deps.provider,
        tools: deps.tools,
        prompts: deps.prompts,
        limits: settings.limits,
        commands: settings.commands,
        planConfirmation: settings.planConfirmation,
        ...(deps.retry ? { retry: deps.retry } : {}),
        emit: (e) => this.emit(e),
        state: () => this.current,
        checkpoint: () => this.checkpoint(),
        ...(resume ? { resume } : {}),
      },
      signal,
    );
  }

  private async execute(body: (signal: AbortSignal) => Promise<TurnEnd>): Promise<SubmitResult> {
    if (this.busy) throw new SessionBusyError();
    const abort = new AbortController();
    this.abort = abort;
    this.followUpStopped = false;
    const work = (async () => {
      let end: TurnEnd;
      try {
        end = await body(abort.signal);
      } catch (err) {
        end = { status: 'failed', reason: errorMessage(err) };
      }
      if (abort.signal.aborted && end.status !== 'cancelled') end = { status: 'cancelled' };
      this.abort = null;
      await this.emit({ type: 'turn.completed', status: end.status, ...(end.reason ? { reason: end.reason } : {}) });
      return end;
    })();
    this.running = work;
    const end = await work;
    this.running = null;
    return this.followUp(end);
  }

  /**
   * What a turn left for the session to start without asking (skip-confirmations, runloop.ts): the
   * implementation of the plan it handed off, or the planning the agent suggested. A stopped turn
   * leaves nothing (its `next` is dropped above), a stop after its end cancels it too, and neither
   * starts while another turn runs.
   */
  private async followUp(end: TurnEnd): Promise<SubmitResult> {
    if (!end.next || this.busy) return { kind: 'ran', status: end.status };
    if (this.followUpStopped) {
      const what = end.next.kind === 'implementation' ? 'The implementation' : 'Planning';
      return this.notice('info', `${what} did not start: the session was stopped.`);
    }
    if (end.next.kind === 'implementation') return this.runTurnOf('implementation', end.next.prompt);
    return this.enterSuggestedPlanning(
      'The agent suggested planning, and plan confirmation is off in this session, so the Planning workflow was entered.',
    );
  }

  private async checkpoint(): Promise<ArchiveOutcome> {
    try {
      await this.log.sync();
      const contents = await readSessionLog(this.deps.fs, this.deps.root, this.id, this.deps.logKey);
      const last = contents?.events.at(-1);
      if (!last || last.seq !== this.history.at(-1)?.seq)
        return { status: 'failed', error: 'the log does not end with the latest event' };
      const command = this.deps.resumeCommand?.(this.id);
      return command ? { status: 'verified', resumeCommand: command } : { status: 'unsupported' };
    } catch (err) {
      return { status: 'failed', error: errorMessage(err) };
    }
  }

  private async notice(
    level: 'info' | 'warning' | 'error',
    text: string,
    switchPath?: 'plan_entry',
  ): Promise<SubmitResult> {
    await this.emit({ type: 'notice', level, text, ...(switchPath ? { switchPath } : {}) });
    return { kind: 'notice', text };
  }

  /**
   * Stamp → apply → listeners → log: the listeners are synchronous and hear the event before the
   * awaited log write, so clients never wait on the disk. A log write failure is surfaced, never
   * swallowed.
   */
  /**
   * The log append is queued before any listener runs: a listener that throws (a view gone
   * mid-update) must not leave the event out of the log, which resume replays, nor keep it from
   * the other listeners. Its error still reaches the caller, once the event is written.
   */
  private async emit(input: EventInput): Promise<void> {
    const event = this.sequencer.stamp(input);
    this.current = applyEvent(this.current, event);
    this.history.push(event);
    const written = this.log.append(event);
    const failures: unknown[] = [];
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        failures.push(err);
      }
    }
    await written;
    if (failures.length > 0) throw failures[0];
  }
}
