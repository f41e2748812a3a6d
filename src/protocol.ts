/**
 * Every message between the extension host and the chat webview, as zod schemas that both sides
 * import. Each side parses what it receives; a message that does not parse is logged and dropped.
 * Webview → host messages are "commands"; host → webview messages are "notifications".
 *
 * The host turns the session's event stream into transcript entries (one reducer, in the host),
 * so the webview only renders; after a reload the host replays the session log and sends the
 * same entries again. Markdown is rendered by the host too (src/extension/markdown.ts): entries
 * carry sanitised HTML next to their text, and the webview injects that HTML without parsing
 * markdown itself.
 */
// zod/mini: the webview bundle cannot afford the classic API (~190 KB minified); the host
// bundles both and they share one core, so schemas interoperate.
import * as z from 'zod/mini';
import { AGENT_MODES, APPROVAL_CHOICES, GATE_CHOICES } from './core/vocabulary';

const AgentMode = z.enum(AGENT_MODES);
type AgentMode = z.infer<typeof AgentMode>;

export const NoticeLevel = z.enum(['info', 'warning', 'error']);
export type NoticeLevel = z.infer<typeof NoticeLevel>;

const MAX_TEXT = 200_000;

/**
 * Rows the panel renders at once, and so the most a restore or a "Show earlier messages" page
 * sends: older rows stay with the host, unrendered, until asked for (keeps the DOM and the
 * restore bounded).
 */
export const TRANSCRIPT_WINDOW = 200;
const text = z.string().check(z.maxLength(2_000_000));
const id = z.string().check(z.minLength(1), z.maxLength(200));
/** Host-rendered markdown: escaping can make it several times its source (`<` is `&lt;`). */
const html = z.string().check(z.maxLength(10_000_000));
/** A streamed message's HTML: one chunk per settled block group, then the tail. */
const htmlChunks = z.array(html).check(z.maxLength(100_000));

/** What the header and footer show; rebuilt by the host after every event. */
export const PanelStatus = z.object({
  mode: AgentMode,
  model: z.nullable(z.string()),
  /** Footer text, e.g. `Planning...`, `Waiting for approval`, `Blocked: …`; null when idle. */
  status: z.nullable(z.string()),
  /** A turn is running: the Stop button shows and `/plan` is refused with a notice (MODE-2). */
  busy: z.boolean(),
  /** Why the composer is disabled (a prompt owns input); null when it is enabled. */
  inputLockedReason: z.nullable(z.string()),
  /** How agent commands are contained (RO-1): the header warns when only the policy stands. */
  sandbox: z.nullable(z.object({ sandboxed: z.boolean(), summary: z.string() })),
  /**
   * The workspace folder the session works in, by name; only in a workspace of several folders
   * (the header names it and offers to switch).
   */
  folder: z.optional(z.string().check(z.maxLength(1_000))),
});
export type PanelStatus = z.infer<typeof PanelStatus>;

/** Before any session: Plan mode, idle, input open. */
export const INITIAL_STATUS: PanelStatus = Object.freeze({
  mode: 'plan',
  model: null,
  status: null,
  busy: false,
  inputLockedReason: null,
  sandbox: null,
});

/**
 * What the panel may ask the host to do besides chatting: the next step a notice offers, the
 * header's folder switch. Each is one fixed VS Code command on the host side, never a command
 * name from the webview.
 */
export const PanelAction = z.enum(['openFolder', 'switchFolder', 'selectModel', 'openSettings', 'showOutput']);
export type PanelAction = z.infer<typeof PanelAction>;

/** The button text of each action, in the chat and in notifications alike. */
export const PANEL_ACTION_LABELS: Readonly<Record<PanelAction, string>> = {
  openFolder: 'Open Folder',
  switchFolder: 'Switch Folder',
  selectModel: 'Select Model',
  openSettings: 'Open Settings',
  showOutput: 'Show Log',
};

export const ToolStatus = z.enum(['running', 'ok', 'error', 'blocked']);
export type ToolStatus = z.infer<typeof ToolStatus>;

const InterviewOption = z.object({
  label: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  recommended: z.optional(z.boolean()),
});
type InterviewOption = z.infer<typeof InterviewOption>;

export const InterviewQuestion = z.object({
  id,
  header: z.optional(z.string()),
  question: z.string().check(z.minLength(1)),
  options: z.array(InterviewOption),
  allowFreeform: z.boolean(),
});
export type InterviewQuestion = z.infer<typeof InterviewQuestion>;

export const InterviewAnswer = z.object({
  questionId: id,
  /** The option's declared label, exactly (INT-1); absent when only a note was given. */
  label: z.optional(z.string().check(z.maxLength(1_000))),
  note: z.optional(z.string().check(z.maxLength(10_000))),
});
export type InterviewAnswer = z.infer<typeof InterviewAnswer>;

const SynopsisStep = z.object({ number: z.number(), text });
export const PlanSynopsis = z.object({
  title: z.nullable(z.string()),
  summary: text,
  steps: z.array(SynopsisStep),
  /** `… and N more plan steps`, or null when every step is shown. */
  overflow: z.nullable(z.string()),
});
export type PlanSynopsis = z.infer<typeof PlanSynopsis>;

/** A plan step as "What changed" names it: its number in its revision and its action. */
const StepRef = z.object({ number: z.number(), text });
/** Steps added, removed and changed since the previous revision, and the other parts that changed. */
export const PlanChanges = z.object({
  added: z.array(StepRef),
  removed: z.array(StepRef),
  changed: z.array(
    z.object({
      before: StepRef,
      after: StepRef,
      fields: z.array(z.enum(['action', 'files', 'targets', 'verify', 'outcome'])),
    }),
  ),
  /** Title and section names, e.g. `Summary`. */
  sections: z.array(z.string()),
});
export type PlanChanges = z.infer<typeof PlanChanges>;

/** Which revision of its plan file a plan card shows (GATE-2: edits update the card in place). */
export const PlanRevisionInfo = z.object({
  number: z.number(),
  /** `editor`: the user's saved edit (Ctrl+G); `planner`: the model's plan. */
  source: z.enum(['planner', 'editor']),
  /** Against the previous revision; null for the first. */
  changes: z.nullable(PlanChanges),
});
export type PlanRevisionInfo = z.infer<typeof PlanRevisionInfo>;

const ValidatorReason = z.object({ code: z.string(), message: z.string(), line: z.optional(z.number()) });

/** A choice of the "Ready to code?" gate, as the webview sends it. */
export const GateChoice = z.enum(GATE_CHOICES);
export type GateChoice = z.infer<typeof GateChoice>;
/** How a gate resolved (any choice the event stream can carry, EVT-1). */
const ApprovalChoice = z.enum(APPROVAL_CHOICES);
type ApprovalChoice = z.infer<typeof ApprovalChoice>;

/**
 * A discriminated union built on its first use, not when the module loads: the extension host
 * loads this module at activation but validates nothing until the chat view talks to it.
 */
function lazyUnion<
  const Types extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]],
  Disc extends string,
>(discriminator: Disc, options: () => Types) {
  return z.lazy(() => z.discriminatedUnion(discriminator, options()));
}

export const TranscriptEntry = lazyUnion('kind', () => [
  z.object({ kind: z.literal('user'), id, text, html }),
  /**
   * `html` is the text rendered in chunks: while streaming, the settled blocks (final, never sent
   * again) and then the tail; a finished message is usually one chunk.
   */
  z.object({ kind: z.literal('assistant'), id, text, streaming: z.boolean(), html: htmlChunks }),
  /** Private reasoning: shown collapsed as "Thinking", never as an answer (SYN-2). */
  z.object({ kind: z.literal('reasoning'), id, text, streaming: z.boolean() }),
  z.object({
    kind: z.literal('tool'),
    id,
    name: z.string(),
    /** Short description of what the call looks at, e.g. `src/auth.ts` or `rg -n login src`. */
    target: z.string(),
    status: ToolStatus,
    /** Why the gate, fuse or a guard stopped it. */
    blockedReason: z.nullable(z.string()),
    output: z.nullable(text),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal('plan'),
    id,
    planFile: z.nullable(z.string()),
    status: z.enum(['streaming', 'persisted', 'rejected', 'approved']),
    synopsis: z.nullable(PlanSynopsis),
    /** The plan or rejected draft as markdown. */
    markdown: text,
    /** `markdown` rendered. */
    html,
    /**
     * While the draft streams: `html` in the chunks the host rendered it in (settled blocks, then
     * the tail), which `append`s change as on an assistant entry. Absent once it stops streaming.
     */
    htmlChunks: z.optional(htmlChunks),
    /** Validator reasons of a rejected draft (SYN-4). */
    reasons: z.array(ValidatorReason),
    /** Absent while the plan has no file yet. */
    revision: z.optional(PlanRevisionInfo),
  }),
  /** `actions`: the next steps offered as buttons (a failure says what to do and offers to do it). */
  z.object({
    kind: z.literal('notice'),
    id,
    level: NoticeLevel,
    text,
    actions: z.optional(z.array(PanelAction).check(z.maxLength(3))),
  }),
  z.object({
    kind: z.literal('interview'),
    id,
    interviewId: id,
    source: z.enum(['model', 'runtime']),
    questions: z.array(InterviewQuestion),
    state: z.enum(['pending', 'answered', 'cancelled']),
    answers: z.array(InterviewAnswer),
  }),
  z.object({
    kind: z.literal('approval'),
    id,
    planFile: z.string(),
    synopsis: PlanSynopsis,
    /** Context use before a fresh-context handoff, 0..1 ("Context: 7% used."). */
    contextUsage: z.number(),
    state: z.enum(['pending', 'resolved', 'superseded']),
    choice: z.nullable(ApprovalChoice),
    /**
     * The latest save of the plan file did not validate (GATE-2): why, shown inside the gate so it
     * cannot be missed; the synopsis and choices still belong to the previous, valid plan. Absent
     * or null once a save is valid (that save updates this gate in place with the new synopsis).
     */
    invalidEdit: z.optional(
      z.nullable(
        z.object({
          reasons: z.array(z.object({ message: z.string(), line: z.optional(z.number()) })).check(z.minLength(1)),
        }),
      ),
    ),
  }),
  /** The checklist's compact line (TRK-5): header plus the current task. */
  z.object({ kind: z.literal('tracker'), id, header: z.string(), current: z.nullable(z.string()) }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;
type EntryKind = TranscriptEntry['kind'];
export type EntryOf<K extends EntryKind> = Extract<TranscriptEntry, { kind: K }>;

export const WebviewCommand = lazyUnion('type', () => [
  /** The webview has loaded and wants the current state. */
  z.object({ type: z.literal('ready') }),
  /** The user sent the composer's text (a goal, an answer, a slash command, an intent phrase). */
  z.object({ type: z.literal('submit'), text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TEXT)) }),
  /** Stop the running turn. */
  z.object({ type: z.literal('stop') }),
  /** The user asked for the rows before the first one the panel holds (the host sends `earlier`). */
  z.object({ type: z.literal('showEarlier') }),
  z.object({
    type: z.literal('answerInterview'),
    interviewId: id,
    answers: z.array(InterviewAnswer).check(z.minLength(1)),
  }),
  /** Esc: dismiss the interview without an answer (INT-2). */
  z.object({ type: z.literal('cancelInterview'), interviewId: id }),
  /** A choice of the "Ready to code?" gate (GATE-1). */
  z.object({ type: z.literal('approve'), planFile: z.string(), choice: GateChoice }),
  z.object({ type: z.literal('openPlan') }),
  /** "Compare with previous" on a plan card: the diff editor between the previous revision and the file. */
  z.object({ type: z.literal('comparePlan'), planFile: z.string().check(z.minLength(1), z.maxLength(4_000)) }),
  /** "Edit plan (Ctrl+G)". */
  z.object({ type: z.literal('editPlan') }),
  /** A link in rendered markdown: the host opens it with VS Code's usual confirmation. */
  z.object({ type: z.literal('openLink'), href: z.string().check(z.maxLength(4_000)) }),
  z.object({ type: z.literal('copy'), text: z.string().check(z.maxLength(MAX_TEXT)) }),
  /** A notice's next-step button, or the header's folder switch. */
  z.object({ type: z.literal('runAction'), action: PanelAction }),
  /** Something the webview could not handle (e.g. a host message that did not parse), for the output channel. */
  z.object({ type: z.literal('log'), level: z.enum(['warn', 'error']), message: z.string().check(z.maxLength(4_000)) }),
]);
export type WebviewCommand = z.infer<typeof WebviewCommand>;

export const HostNotification = lazyUnion('type', () => [
  /** Everything at once: after `ready`, a reload, or a session switch. */
  /**
   * `transcript` is the latest rows only (a long session's restore renders and sends no more than
   * the panel shows); `earlier` counts the rows before them, which `showEarlier` pages in.
   */
  z.object({
    type: z.literal('state'),
    status: PanelStatus,
    transcript: z.array(TranscriptEntry),
    earlier: z.optional(z.int().check(z.minimum(0))),
  }),
  /** The page `showEarlier` asked for: the rows just before the first one the panel holds, in order. */
  z.object({ type: z.literal('earlier'), entries: z.array(TranscriptEntry), earlier: z.int().check(z.minimum(0)) }),
  /** Add an entry, or replace the entry with the same id (streaming updates). */
  z.object({ type: z.literal('entry'), entry: TranscriptEntry }),
  /**
   * Append streamed text to an assistant/reasoning entry, or to the markdown of a streaming plan
   * draft (cheaper than resending it). For an assistant entry or a plan draft (its `htmlChunks`)
   * `html` says how its chunks change: keep the first `keep`, then append `chunks` (the newly
   * settled blocks and the new tail). Reasoning is plain text and has none.
   */
  z.object({
    type: z.literal('append'),
    id,
    text,
    html: z.optional(z.object({ keep: z.int().check(z.minimum(0)), chunks: htmlChunks })),
  }),
  z.object({ type: z.literal('status'), status: PanelStatus }),
  /** Move keyboard focus to the composer (after "Start Planning"). */
  z.object({ type: z.literal('focusComposer') }),
  /**
   * Move keyboard focus to the pending "Ready to code?" gate and scroll it into view. Sent only when
   * the user asked for the gate outside the chat (the notification's "Review in chat", an Approve
   * command or CodeLens whose approval did not go through): a gate otherwise never takes focus
   * from something the user is doing elsewhere.
   */
  z.object({ type: z.literal('focusGate') }),
  /**
   * A message the host could not take (no folder, no session): it goes back into the composer,
   * unless the user has started typing something else there.
   */
  z.object({ type: z.literal('restoreDraft'), text: z.string().check(z.maxLength(MAX_TEXT)) }),
  /** Say something to screen readers (status changes). */
  z.object({ type: z.literal('announce'), text: z.string() }),
]);
export type HostNotification = z.infer<typeof HostNotification>;

/** Human-readable reason a message was rejected, for the log. */
export function describeInvalid(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}
