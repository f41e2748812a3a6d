import { PANEL_ACTION_LABELS, type EntryOf, type WebviewCommand } from '../../../src/protocol';
import { Button } from '../ui';
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
    <div
      class={`msg msg-assistant${entry.streaming ? ' is-streaming' : ''}`}
      role="article"
      aria-label="Assistant"
      aria-busy={entry.streaming}
    >
      {entry.streaming ? (
        <StreamingMarkdown chunks={entry.html} class="msg-body" />
      ) : (
        <Markdown html={entry.html.join('')} class="msg-body" />
      )}
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

/** A notice; a failure's next steps show as buttons below its text. */
export function Notice({ entry, send }: { entry: EntryOf<'notice'>; send: (command: WebviewCommand) => boolean }) {
  const actions = entry.actions ?? [];
  return (
    <div
      class={`notice notice-${entry.level}`}
      role="note"
      aria-label={entry.level === 'info' ? 'Notice' : entry.level === 'warning' ? 'Warning' : 'Error'}
    >
      {actions.length === 0 ? (
        entry.text
      ) : (
        <>
          <div class="notice-text">{entry.text}</div>
          <div class="notice-actions">
            {actions.map((action) => (
              <Button key={action} appearance="secondary" onClick={() => send({ type: 'runAction', action })}>
                {PANEL_ACTION_LABELS[action]}
              </Button>
            ))}
          </div>
        </>
      )}
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
