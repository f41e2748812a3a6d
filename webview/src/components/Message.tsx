import type { EntryOf } from '../../../src/protocol';
import { Markdown, StreamingMarkdown } from './Markdown';

export function UserMessage({ entry }: { entry: EntryOf<'user'> }) {
  return (
    <div class="msg msg-user" role="article" aria-label="You">
      <Markdown html={entry.html} class="msg-body" />
    </div>
  );
}

export function AssistantMessage({ entry }: { entry: EntryOf<'assistant'> }) {
  return (
    <div class={`msg msg-assistant${entry.streaming ? ' is-streaming' : ''}`} role="article" aria-label="Assistant" aria-busy={entry.streaming}>
      {entry.streaming ? <StreamingMarkdown chunks={entry.html} class="msg-body" /> : <Markdown html={entry.html.join('')} class="msg-body" />}
    </div>
  );
}

/** Private reasoning, collapsed: never presented as an answer (SYN-2). */
export function Reasoning({ entry }: { entry: EntryOf<'reasoning'> }) {
  return (
    <details class="reasoning" aria-busy={entry.streaming}>
      <summary>{entry.streaming ? 'Thinking…' : 'Thought process'}</summary>
      <div class="reasoning-body">{entry.text}</div>
    </details>
  );
}

export function Notice({ entry }: { entry: EntryOf<'notice'> }) {
  return (
    <div class={`notice notice-${entry.level}`} role="note" aria-label={entry.level === 'info' ? 'Notice' : entry.level === 'warning' ? 'Warning' : 'Error'}>
      {entry.text}
    </div>
  );
}

/** The checklist's compact line (TRK-5): header plus the current task. */
export function TrackerLine({ entry }: { entry: EntryOf<'tracker'> }) {
  return (
    <div class="tracker" role="group" aria-label="Task checklist">
      <span class="tracker-header">{entry.header}</span>
      {entry.current !== null && <span class="tracker-current">» {entry.current}</span>}
    </div>
  );
}
