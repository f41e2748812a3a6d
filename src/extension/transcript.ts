/**
 * Turns the session's events into what the chat view shows (EVT-1: the view is rebuilt from the
 * event stream, live and after a reload). Pure: no `vscode` import, so it is unit-tested directly.
 * Each `apply` returns the notifications to send; `snapshot` gives the whole state for `ready`.
 * Markdown is rendered here, once per change, so the webview only injects finished HTML.
 */
import { buildSynopsis, diffPlanSteps, extractPlan } from '../core/plan';
import type { EventOf, SessionEvent } from '../core/session/events';
import { PlanRevisionLog, type RevisionStep } from '../core/session/plan-revisions';
import {
  AGENT_MODE_LABEL,
  assertNever,
  BUDGET_KIND_LABEL,
  HANDOFF_PHASE_LABEL,
  type ActiveHandoffPhase,
  type AgentMode,
} from '../core/vocabulary';
import {
  INITIAL_STATUS,
  TRANSCRIPT_WINDOW,
  type EntryOf,
  type HostNotification,
  type PanelAction,
  type PanelStatus,
  type PlanRevisionInfo,
  type PlanSynopsis,
  type TranscriptEntry,
} from '../protocol';
import { providerFailureNotice } from './failure-notices';
import { renderMarkdown, StreamingMarkdown } from './markdown';

type InvalidEditReason = { message: string; line?: number };

const MODE_STATUS: Readonly<Record<AgentMode, string>> = {
  plan: 'Planning...',
  build: 'Working...',
  auto: 'Working...',
};

function synopsisOf(markdown: string): PlanSynopsis {
  const s = buildSynopsis(markdown);
  return { title: s.title, summary: s.summary, steps: s.steps, overflow: s.overflowRow };
}

function toolTarget(name: string, args: string): string {
  try {
    const a = JSON.parse(args) as Record<string, unknown>;
    for (const key of ['path', 'command', 'pattern', 'glob', 'action']) {
      const v = a[key];
      if (typeof v === 'string' && v !== '') return v;
    }
    if (name === 'request_user_input') return 'asks a question';
  } catch {}
  return '';
}

export class TranscriptBuilder {
  private entries: TranscriptEntry[] = [];
  private readonly index = new Map<string, number>();
  private status: PanelStatus;
  private streamingId: string | null = null;
  private reasoningId: string | null = null;
  /** The latest complete plan and its HTML, for the persisted card and the gate's synopsis. */
  private lastPlan: { markdown: string; html: string } | null = null;
  /** Markdown still streaming, by entry id (an assistant message or a plan draft). */
  private readonly streams = new Map<string, StreamingMarkdown>();
  /** While a log is replayed nobody sees the intermediate states: streamed text is rendered once, at the end. */
  private replaying = false;
  private planEntryId: string | null = null;
  private running = false;
  private awaiting: 'approval' | 'input' | null = null;
  private blocked: string | null = null;
  /** The approved handoff under way (`handoff.phase`, GATE-4): input stays locked until `done`. */
  private handoffPhase: ActiveHandoffPhase | null = null;
  private readonly revisions = new PlanRevisionLog();
  /** The card showing each plan file's latest revision: an edit of the file updates it in place. */
  private readonly cardOf = new Map<string, string>();
  /** The plan file of the pending gate (for invalid-edit notices in logs that do not name it). */
  private pendingPlanFile: string | null = null;
  /** Invalid-edit lines shown for lack of a gate to carry them, by plan file: a valid save resolves them. */
  private readonly editLines = new Map<string, string>();
  /** The last provider failure shown this turn: the turn's end carries the same reason and is not said twice. */
  private shownFailure: string | null = null;
  /**
   * Entries a replay left without HTML: a long log's restore renders only the rows it sends, the
   * rest when the panel pages them in ("Show earlier messages") or an event changes them.
   */
  private readonly unrendered = new Set<string>();
  /** How many leading entries the panel does not hold (the restore sent the latest rows only). */
  private hidden = 0;

  constructor(private readonly contextUsage: () => number = () => 0) {
    this.status = INITIAL_STATUS;
  }

  get currentStatus(): PanelStatus {
    return this.status;
  }

  /**
   * The model the header names. A session's model comes from its `session.started`; a model
   * chosen while it runs (issue 15 item 3) is used from the next request, so the header follows.
   */
  setModel(model: string | null): HostNotification[] {
    if (this.status.model === model) return [];
    this.status = { ...this.status, model };
    return [{ type: 'status', status: this.status }];
  }

  /**
   * What the panel is sent on `ready`, a reload or a session switch: the latest rows, rendered,
   * and how many come before them. A question or gate still waiting is what the user must act
   * on, so the rows start no later than it, however old it is. Call it only for a `state` that is
   * posted: from here on the panel is taken to hold these rows and no earlier ones.
   */
  snapshot(): { status: PanelStatus; transcript: TranscriptEntry[]; earlier: number } {
    let from = Math.max(0, this.entries.length - TRANSCRIPT_WINDOW);
    const waiting = this.entries.findIndex(
      (e) => (e.kind === 'approval' || e.kind === 'interview') && e.state === 'pending',
    );
    if (waiting !== -1 && waiting < from) from = waiting;
    this.hidden = from;
    return { status: this.status, transcript: this.renderedRange(from, this.entries.length), earlier: from };
  }

  /** The gate waiting for the user's choice, if any (the panel always holds it: see `snapshot`). */
  pendingGate(): EntryOf<'approval'> | undefined {
    return this.entries.find((e): e is EntryOf<'approval'> => e.kind === 'approval' && e.state === 'pending');
  }

  /** The page before the first row the panel holds ("Show earlier messages"), rendered now. */
  earlierPage(): Extract<HostNotification, { type: 'earlier' }> {
    const from = Math.max(0, this.hidden - TRANSCRIPT_WINDOW);
    const entries = this.renderedRange(from, this.hidden);
    this.hidden = from;
    return { type: 'earlier', entries, earlier: from };
  }

  private renderedRange(from: number, to: number): TranscriptEntry[] {
    const out: TranscriptEntry[] = [];
    for (let i = from; i < to; i++) {
      const entry = this.withHtml(this.entries[i]!);
      this.entries[i] = entry;
      out.push(entry);
    }
    return out;
  }

  /** The entry with its markdown rendered, if a replay left it without. */
  private withHtml(entry: TranscriptEntry): TranscriptEntry {
    if (!this.unrendered.delete(entry.id)) return entry;
    switch (entry.kind) {
      case 'user':
        return { ...entry, html: renderMarkdown(entry.text) };
      case 'assistant':
        return { ...entry, html: [renderMarkdown(entry.text)] };
      case 'plan':
        return { ...entry, html: renderMarkdown(entry.markdown) };
      case 'reasoning':
      case 'tool':
      case 'notice':
      case 'interview':
      case 'approval':
      case 'tracker':
        return entry;
    }
  }

  /** Markdown as HTML, except during a replay: the entry is rendered when it is sent (`withHtml`). */
  private markdownHtml(markdown: string): string {
    return this.replaying ? '' : renderMarkdown(markdown);
  }

  /**
   * The checklist's compact line (TRK-5) from the Tasks view's live state: the header, plus the
   * current task unless everything is done.
   */
  setTracker(header: string, current: string | null): HostNotification[] {
    return this.upsert({ kind: 'tracker', id: 'tracker', header, current });
  }

  /** Adds or replaces an entry the host makes itself (a command confirmation, the tracker line). */
  upsert(entry: TranscriptEntry): HostNotification[] {
    const at = this.index.get(entry.id);
    if (this.replaying) {
      if (entry.kind === 'user' || entry.kind === 'assistant' || entry.kind === 'plan') this.unrendered.add(entry.id);
    } else if (at === undefined || at >= this.hidden) {
      entry = this.withHtml(entry);
    }
    if (at === undefined) {
      this.index.set(entry.id, this.entries.length);
      this.entries.push(entry);
    } else {
      this.entries[at] = entry;
    }
    // A row the panel does not hold yet changes here only: it is sent as it is when paged in.
    return at !== undefined && at < this.hidden ? [] : [{ type: 'entry', entry }];
  }

  /** Applies a batch (a replayed log) and returns nothing: the caller sends one `state` after. */
  replay(events: readonly SessionEvent[]): void {
    this.replaying = true;
    try {
      for (const e of events) this.apply(e);
    } finally {
      this.replaying = false;
    }
    this.status = this.computeStatus();
    // A message or plan the log leaves mid-stream: its chunks so far, so that live deltas go on from them.
    for (const [id, stream] of this.streams) {
      const at = this.index.get(id);
      const e = at === undefined ? undefined : this.entries[at];
      if (at === undefined || !e) continue;
      this.unrendered.delete(id);
      if (e.kind === 'assistant') this.entries[at] = { ...e, html: stream.update(e.text).chunks };
      else if (e.kind === 'plan')
        this.entries[at] = { ...e, html: (stream.update(e.markdown), stream.chunks.join('')) };
    }
    if (this.lastPlan && this.lastPlan.html === '')
      this.lastPlan = { ...this.lastPlan, html: renderMarkdown(this.lastPlan.markdown) };
  }

  /** The revision a card of `planFile` shows: its latest, with what changed since the one before. */
  private revisionInfo(planFile: string): PlanRevisionInfo | undefined {
    const list = this.revisions.revisions(planFile);
    const latest = list.at(-1);
    if (!latest) return undefined;
    const previous = list.at(-2);
    return {
      number: latest.number,
      source: latest.source,
      changes: previous ? diffPlanSteps(previous.text, latest.text) : null,
    };
  }

  /**
   * The invalid-edit warning's reasons, or null when the notice is about something else. Logs
   * written before notices named the edit carry the reasons only as the text's `- ` lines.
   */
  private invalidEditOf(
    event: EventOf<'notice'>,
  ): { planFile: string; reasons: [InvalidEditReason, ...InvalidEditReason[]] } | null {
    const reasons: InvalidEditReason[] = event.invalidEdit
      ? event.invalidEdit.reasons.map((r) => ({ message: r.message, ...(r.line ? { line: r.line } : {}) }))
      : event.text
          .split('\n')
          .filter((l) => l.startsWith('- '))
          .map((l) => ({ message: l.slice(2) }));
    const planFile =
      event.invalidEdit?.planFile ??
      (event.text.startsWith('The edited plan is not valid') ? this.pendingPlanFile : null);
    if (planFile === null) return null;
    const [first, ...rest] = reasons;
    return { planFile, reasons: first ? [first, ...rest] : [{ message: event.text }] };
  }

  /**
   * GATE-2: a save of `planFile` was valid, so what said its last save was not no longer holds:
   * the gate drops the reasons, and a line shown for want of a gate says it is resolved.
   */
  private resolveInvalidEdit(planFile: string, revision: number | undefined): TranscriptEntry[] {
    const lineId = this.editLines.get(planFile);
    this.editLines.delete(planFile);
    const at = lineId === undefined ? undefined : this.index.get(lineId);
    const line = at === undefined ? undefined : this.entries[at];
    if (!line || line.kind !== 'notice') return [];
    const text = `Resolved: a later save of ${planFile} is valid${revision ? ` (revision ${revision})` : ''}.`;
    return [{ ...line, level: 'info', text }];
  }

  apply(event: SessionEvent): HostNotification[] {
    const step: RevisionStep = this.revisions.apply(event);
    const out: HostNotification[] = [];
    const put = (entry: TranscriptEntry) => out.push(...this.upsert(entry));
    const get = <K extends TranscriptEntry['kind']>(id: string, kind: K): EntryOf<K> | undefined => {
      const at = this.index.get(id);
      const e = at === undefined ? undefined : this.entries[at];
      return e && e.kind === kind ? (e as EntryOf<K>) : undefined;
    };
    const notice = (level: 'info' | 'warning' | 'error', text: string, actions: readonly PanelAction[] = []) =>
      put({
        kind: 'notice',
        id: `n${event.seq}`,
        level,
        text,
        ...(actions.length > 0 ? { actions: [...actions] } : {}),
      });
    /**
     * Streamed text: the first delta opens an entry, later ones travel as cheap `append`s. An
     * assistant message's append carries only the HTML that changed: newly settled blocks and the tail.
     */
    const streamAssistant = (text: string): void => {
      const current = this.streamingId ? get(this.streamingId, 'assistant') : undefined;
      if (!current) {
        const id = `a${event.seq}`;
        const stream = new StreamingMarkdown();
        this.streams.set(id, stream);
        this.streamingId = id;
        put({ kind: 'assistant', id, text, streaming: true, html: this.replaying ? [] : stream.update(text).chunks });
        return;
      }
      const full = current.text + text;
      const stream = this.streams.get(current.id);
      if (this.replaying || !stream) {
        this.entries[this.index.get(current.id)!] = { ...current, text: full };
        return;
      }
      const update = stream.update(full);
      this.entries[this.index.get(current.id)!] = {
        ...current,
        text: full,
        html: [...current.html.slice(0, update.keep), ...update.chunks],
      };
      out.push({ type: 'append', id: current.id, text, html: update });
    };
    const streamReasoning = (text: string): void => {
      const current = this.reasoningId ? get(this.reasoningId, 'reasoning') : undefined;
      if (!current) {
        this.reasoningId = `r${event.seq}`;
        put({ kind: 'reasoning', id: this.reasoningId, text, streaming: true });
        return;
      }
      this.entries[this.index.get(current.id)!] = { ...current, text: current.text + text };
      out.push({ type: 'append', id: current.id, text });
    };
    /** A plan card's HTML once its draft stops streaming: rendered whole, unless it already was. */
    const wholePlanHtml = (entry: EntryOf<'plan'>): string =>
      this.streams.delete(entry.id) ? this.markdownHtml(entry.markdown) : entry.html;
    const endStreams = () => {
      if (this.streamingId) {
        const e = get(this.streamingId, 'assistant');
        // Rendered whole: a list a cut had split while streaming shows as one again.
        if (e) put({ ...e, streaming: false, html: [this.markdownHtml(e.text)] });
        this.streams.delete(this.streamingId);
      }
      if (this.reasoningId) {
        const e = get(this.reasoningId, 'reasoning');
        if (e) put({ ...e, streaming: false });
      }
      this.streamingId = null;
      this.reasoningId = null;
    };

    switch (event.type) {
      case 'session.started':
        // A handoff never outlives the process that ran it: one a log leaves unfinished is over.
        this.handoffPhase = null;
        this.status = { ...this.status, mode: event.agent, model: event.model || null, sandbox: event.sandbox ?? null };
        if (event.resumed) notice('info', 'Session restored.');
        break;
      case 'mode.changed':
        this.status = { ...this.status, mode: event.to };
        notice('info', `Switched to ${AGENT_MODE_LABEL[event.to]} mode.`);
        break;
      case 'turn.started':
        this.planEntryId = null;
        this.shownFailure = null;
        this.running = true;
        this.blocked = null;
        this.awaiting = null;
        if (event.kind === 'user' && event.input !== undefined)
          put({ kind: 'user', id: `u${event.seq}`, text: event.input, html: this.markdownHtml(event.input) });
        if (event.kind === 'implementation') notice('info', 'Implementing the approved plan.');
        break;
      case 'message.delta':
        streamAssistant(event.text);
        break;
      case 'reasoning.delta':
        streamReasoning(event.text);
        break;
      case 'message.completed': {
        // After a reload no deltas exist: the completed text (plan markup removed) stands in.
        if (!this.streamingId) {
          const visible = extractPlan(event.text).text.trim();
          if (visible !== '')
            put({
              kind: 'assistant',
              id: `a${event.seq}`,
              text: visible,
              streaming: false,
              html: [this.markdownHtml(visible)],
            });
        }
        endStreams();
        break;
      }
      case 'plan.delta': {
        // The plan card fills in while the plan streams (EVT-1); plan.completed replaces it. As for
        // an assistant message, the card goes once and each later delta as an append with only
        // the HTML that changed (it used to resend the whole card, HTML and all, every delta).
        const id = this.planEntryId ?? `p${event.seq}`;
        this.planEntryId = id;
        const current = get(id, 'plan');
        const markdown = (current?.markdown ?? '') + event.text;
        let stream = this.streams.get(id);
        if (!stream) this.streams.set(id, (stream = new StreamingMarkdown()));
        if (this.replaying) {
          put({
            kind: 'plan',
            id,
            planFile: null,
            status: 'streaming',
            synopsis: null,
            markdown,
            html: '',
            reasons: [],
          });
          break;
        }
        const update = stream.update(markdown);
        // A card replayed from the log has no chunks yet: it goes whole once more, with them.
        if (!current?.htmlChunks) {
          put({
            kind: 'plan',
            id,
            planFile: null,
            status: 'streaming',
            synopsis: null,
            markdown,
            html: stream.chunks.join(''),
            htmlChunks: stream.chunks,
            reasons: [],
          });
          break;
        }
        const htmlChunks = [...current.htmlChunks.slice(0, update.keep), ...update.chunks];
        this.entries[this.index.get(id)!] = { ...current, markdown, html: htmlChunks.join(''), htmlChunks };
        out.push({ type: 'append', id, text: event.text, html: update });
        break;
      }
      case 'interview.denied':
        notice('info', 'Questions are off for this session: the planner continues with stated assumptions.');
        break;
      case 'session_tool_limit_increased':
        notice('info', `Session tool-call limit raised to ${event.limit}.`);
        break;
      case 'tool_loop_limit_increased':
        notice('info', `Tool-loop limit raised to ${event.limit}${event.automatic ? ' (automatically)' : ''}.`);
        break;
      case 'plan.completed':
        this.lastPlan = { markdown: event.text, html: this.markdownHtml(event.text) };
        // A re-read edit is not a new card: the card of its file changes once the runtime accepts it.
        if (step.kind === 'candidate' && step.source === 'editor') break;
        this.planEntryId ??= `p${event.seq}`;
        this.streams.delete(this.planEntryId);
        put({
          kind: 'plan',
          id: this.planEntryId,
          planFile: null,
          status: 'streaming',
          synopsis: synopsisOf(event.text),
          markdown: event.text,
          html: this.lastPlan.html,
          reasons: [],
        });
        break;
      case 'plan.rejected': {
        const id = this.planEntryId ?? `p${event.seq}`;
        this.streams.delete(id);
        put({
          kind: 'plan',
          id,
          planFile: null,
          status: 'rejected',
          synopsis: synopsisOf(event.draft),
          markdown: event.draft,
          html: this.markdownHtml(event.draft),
          reasons: event.reasons.map((r) => ({
            code: r.code,
            message: r.message,
            ...(r.line ? { line: r.line } : {}),
          })),
        });
        this.planEntryId = null;
        break;
      }
      case 'plan.persisted': {
        const id = this.planEntryId ?? `p${event.seq}`;
        this.streams.delete(id);
        const { markdown, html } = this.lastPlan ?? { markdown: '', html: '' };
        const revision = this.revisionInfo(event.planFile);
        put({
          kind: 'plan',
          id,
          planFile: event.planFile,
          status: 'persisted',
          synopsis: synopsisOf(markdown),
          markdown,
          html,
          reasons: [],
          ...(revision ? { revision } : {}),
        });
        this.cardOf.set(event.planFile, id);
        for (const e of this.resolveInvalidEdit(event.planFile, revision?.number)) put(e);
        this.planEntryId = null;
        break;
      }
      case 'plan.approval.requested': {
        this.planEntryId = null;
        this.pendingPlanFile = event.planFile;
        const synopsis = synopsisOf(this.lastPlan?.markdown ?? '');
        const gate = this.entries.find(
          (e): e is EntryOf<'approval'> =>
            e.kind === 'approval' && e.state === 'pending' && e.planFile === event.planFile,
        );
        // Only a re-read edit (Ctrl+G, GATE-2) is accepted here; the model's plans by plan.persisted.
        if (step.kind === 'revision' || step.kind === 'unchanged') {
          const { markdown, html } = this.lastPlan ?? { markdown: '', html: '' };
          const cardId = this.cardOf.get(event.planFile) ?? `p${event.seq}`;
          const card = get(cardId, 'plan');
          const revision = this.revisionInfo(event.planFile);
          put({
            ...(card ?? { kind: 'plan', id: cardId, reasons: [] }),
            planFile: event.planFile,
            status: 'persisted',
            synopsis,
            markdown,
            html,
            ...(revision ? { revision } : {}),
          });
          this.cardOf.set(event.planFile, cardId);
          for (const e of this.resolveInvalidEdit(event.planFile, revision?.number)) put(e);
          // The same plan under review: its gate shows the new synopsis where it is, no "Superseded" line.
          if (gate) {
            put({ ...gate, synopsis, contextUsage: this.contextUsage(), invalidEdit: null });
            // The gate did not appear anew, so nothing else tells a screen reader that it changed.
            if (!this.replaying)
              out.push({
                type: 'announce',
                text: `Plan updated${revision ? ` to revision ${revision.number}` : ''}: ${synopsis.title ?? 'the plan'} is ready for approval again.`,
              });
            this.awaiting = 'approval';
            break;
          }
        }
        for (const e of this.entries)
          if (e.kind === 'approval' && e.state === 'pending') put({ ...e, state: 'superseded' });
        put({
          kind: 'approval',
          id: `g${event.seq}`,
          planFile: event.planFile,
          synopsis,
          contextUsage: this.contextUsage(),
          state: 'pending',
          choice: null,
        });
        this.awaiting = 'approval';
        break;
      }
      case 'plan.approval.resolved': {
        this.pendingPlanFile = null;
        for (const e of this.entries)
          if (e.kind === 'approval' && e.state === 'pending') put({ ...e, state: 'resolved', choice: event.choice });
        if (event.choice !== 'revise' && event.choice !== 'cancel') {
          for (const e of this.entries)
            if (e.kind === 'plan' && e.status === 'persisted' && e.planFile === event.planFile)
              put({ ...e, status: 'approved' });
        }
        if (event.choice === 'cancel') notice('info', 'Planning cancelled; the plan will not be implemented.');
        this.awaiting = null;
        break;
      }
      case 'interview.requested':
        put({
          kind: 'interview',
          id: `i-${event.interviewId}`,
          interviewId: event.interviewId,
          source: event.source,
          questions: event.questions,
          state: 'pending',
          answers: [],
        });
        this.awaiting = 'input';
        break;
      case 'interview.resolved': {
        const e = get(`i-${event.interviewId}`, 'interview');
        if (e) put({ ...e, state: event.cancelled ? 'cancelled' : 'answered', answers: event.answers ?? [] });
        // A model interview is the request_user_input call itself (same id): its card stops spinning.
        const call = get(`t-${event.interviewId}`, 'tool');
        if (call && call.status === 'running') put({ ...call, status: 'ok' });
        this.awaiting = null;
        break;
      }
      case 'tool.call':
        put({
          kind: 'tool',
          id: `t-${event.callId}`,
          name: event.name,
          target: toolTarget(event.name, event.arguments),
          status: 'running',
          blockedReason: null,
          output: null,
          truncated: false,
        });
        break;
      case 'tool.result': {
        const e = get(`t-${event.callId}`, 'tool');
        if (e)
          put({ ...e, status: event.ok ? 'ok' : 'error', output: event.content, truncated: event.truncated ?? false });
        break;
      }
      case 'tool.blocked': {
        const e = get(`t-${event.callId}`, 'tool');
        if (e) put({ ...e, status: 'blocked', blockedReason: event.reason });
        break;
      }
      case 'tracker.updated':
        put({ kind: 'tracker', id: 'tracker', header: `Checklist ${event.completed}/${event.total}`, current: null });
        break;
      case 'budget_exhausted':
        notice('warning', `The ${BUDGET_KIND_LABEL[event.kind]} budget is used up (${event.used}/${event.max}).`);
        break;
      case 'provider.retry':
        notice('info', `The model service failed (${event.failure.message}); retrying.`);
        break;
      case 'provider.failed': {
        // What failed, the next step and the button that takes it (issue 15 item 2).
        const shown = providerFailureNotice(event.failure);
        notice(shown.level, shown.text, shown.actions);
        this.shownFailure = event.failure.message;
        break;
      }
      // The mode change that goes with it shows; the request itself only steers the gate (GATE-5).
      case 'planning.awaiting_input':
      case 'planning.requested':
        break;
      case 'handoff.phase':
        switch (event.phase) {
          case 'preparing':
          case 'restoring':
          case 'starting':
            notice('info', HANDOFF_PHASE_LABEL[event.phase]);
            this.handoffPhase = event.phase;
            break;
          case 'done':
            this.handoffPhase = null;
            break;
          default:
            assertNever(event.phase, 'handoff phase');
        }
        break;
      case 'context.reset':
        notice('info', `Fresh thread. Context was ${Math.round(event.previousContextUsage * 100)}% used.`);
        break;
      case 'notice': {
        // GATE-2: the reason a save did not validate shows inside the gate it leaves standing, which
        // is where the user looks, and goes when a later save is valid; a line would stay behind.
        const invalid = this.invalidEditOf(event);
        if (invalid) {
          const gates = this.entries.filter(
            (e): e is EntryOf<'approval'> =>
              e.kind === 'approval' && e.state === 'pending' && e.planFile === invalid.planFile,
          );
          for (const g of gates) put({ ...g, invalidEdit: { reasons: invalid.reasons } });
          if (gates.length > 0) break;
          // No gate to carry it: one line per plan file, which the next save replaces or resolves.
          const id = this.editLines.get(invalid.planFile) ?? `n${event.seq}`;
          this.editLines.set(invalid.planFile, id);
          put({ kind: 'notice', id, level: event.level, text: event.text });
          break;
        }
        notice(event.level, event.text);
        break;
      }
      case 'turn.completed':
        endStreams();
        {
          // A plan draft the turn cut off mid-stream stays as far as it got.
          const draft = this.planEntryId ? get(this.planEntryId, 'plan') : undefined;
          if (draft && this.streams.has(draft.id)) {
            const { htmlChunks: _streamed, ...stopped } = draft;
            put({ ...stopped, html: wholePlanHtml(draft) });
          }
        }
        this.running = false;
        switch (event.status) {
          case 'blocked':
            this.blocked = event.reason ?? 'The turn was blocked.';
            notice('warning', this.blocked);
            break;
          case 'failed':
            // A provider failure already said what failed and what to do next (issue 15 item 2).
            if (event.reason === undefined || event.reason !== this.shownFailure)
              notice('error', `The turn failed${event.reason ? `: ${event.reason}` : '.'}`);
            this.shownFailure = null;
            break;
          case 'cancelled':
            notice('info', 'Stopped.');
            break;
          case 'idle':
            if (event.reason) notice('info', event.reason);
            break;
          // The gate or the question that follows says what is awaited.
          case 'awaiting_approval':
          case 'awaiting_input':
            break;
          default:
            assertNever(event.status, 'turn status');
        }
        break;
      // No transcript entry; listed so that a new event type is a decision here.
      case 'directive':
      case 'turn.suspended':
        break;
    }
    // A replay posts nothing: its status is worked out once, at the end.
    if (this.replaying) return out;
    const status = this.computeStatus();
    if (JSON.stringify(status) !== JSON.stringify(this.status)) {
      this.status = status;
      out.push({ type: 'status', status });
      if (status.status) out.push({ type: 'announce', text: status.status });
    }
    return out;
  }

  private computeStatus(): PanelStatus {
    let status: string | null = null;
    if (this.running) status = MODE_STATUS[this.status.mode];
    else if (this.awaiting === 'input') status = 'Waiting for your answer';
    else if (this.awaiting === 'approval') status = 'Waiting for approval';
    else if (this.blocked) status = `Blocked: ${this.blocked.split('\n', 1)[0]}`;
    let inputLockedReason: string | null = null;
    if (this.handoffPhase) inputLockedReason = HANDOFF_PHASE_LABEL[this.handoffPhase];
    else if (this.awaiting === 'input') inputLockedReason = 'Answer the question above, or press Esc to dismiss it.';
    return { ...this.status, status, busy: this.running, inputLockedReason };
  }
}
