/**
 * Every message between the extension host and the chat webview, as zod schemas that both sides
 * import. Each side parses what it receives; a message that does not parse is logged and dropped.
 * Webview → host messages are "commands"; host → webview messages are "notifications".
 */
// zod/mini: the webview bundle cannot afford the classic API (~190 KB minified); the host
// bundles both and they share one core, so schemas interoperate.
import * as z from 'zod/mini';

export const AgentMode = z.enum(['plan', 'build', 'auto']);
export type AgentMode = z.infer<typeof AgentMode>;

export const NoticeLevel = z.enum(['info', 'warning', 'error']);

/** What the header and footer show; rebuilt by the host after every event. */
export const PanelStatus = z.object({
  mode: AgentMode,
  model: z.nullable(z.string()),
  /** Footer text, e.g. `Planning...`, `Waiting for approval`; null when idle. */
  status: z.nullable(z.string()),
  busy: z.boolean(),
  /** Why the composer is disabled (a prompt owns input); null when it is enabled. */
  inputLockedReason: z.nullable(z.string()),
});
export type PanelStatus = z.infer<typeof PanelStatus>;

export const TranscriptEntry = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string() }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), streaming: z.boolean() }),
  z.object({ kind: z.literal('notice'), id: z.string(), level: NoticeLevel, text: z.string() }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

const MAX_TEXT = 200_000;

export const WebviewCommand = z.discriminatedUnion('type', [
  /** The webview has loaded and wants the current state. */
  z.object({ type: z.literal('ready') }),
  /** The user sent the composer's text. */
  z.object({ type: z.literal('submit'), text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TEXT)) }),
  /** Something the webview could not handle (e.g. a host message that did not parse), for the output channel. */
  z.object({ type: z.literal('log'), level: z.enum(['warn', 'error']), message: z.string().check(z.maxLength(4_000)) }),
]);
export type WebviewCommand = z.infer<typeof WebviewCommand>;

export const HostNotification = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), status: PanelStatus, transcript: z.array(TranscriptEntry) }),
  z.object({ type: z.literal('entry'), entry: TranscriptEntry }),
  z.object({ type: z.literal('status'), status: PanelStatus }),
  /** Move keyboard focus to the composer (after "Start Planning"). */
  z.object({ type: z.literal('focusComposer') }),
]);
export type HostNotification = z.infer<typeof HostNotification>;

/** Human-readable reason a message was rejected, for the log. */
export function describeInvalid(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}
