import { Component } from 'preact';
import type { EntryOf } from '../../../src/protocol';
import { Markdown } from './Markdown';

/** Renders only when its text changes: a finished paragraph is parsed once, not every frame. */
class StableMarkdown extends Component<{ text: string }> {
  override shouldComponentUpdate(next: { text: string }): boolean {
    return next.text !== this.props.text;
  }
  override render() {
    return <Markdown text={this.props.text} />;
  }
}

/**
 * Where streamed text can be cut so the part before is final: the last blank line that is not
 * inside a fenced code block. Re-rendering only the tail keeps each frame's work small however
 * long the message grows (UI-1: streaming without jank).
 */
export function stableCut(text: string): number {
  let cut = 0;
  let inFence = false;
  let lineStart = 0;
  for (;;) {
    const end = text.indexOf('\n', lineStart);
    if (end === -1) return cut;
    const line = text.slice(lineStart, end);
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === '' && lineStart > 0) cut = end + 1;
    lineStart = end + 1;
  }
}

function StreamingMarkdown({ text }: { text: string }) {
  const cut = stableCut(text);
  return (
    <div class="msg-body md-stream">
      {cut > 0 && <StableMarkdown text={text.slice(0, cut)} />}
      <Markdown text={text.slice(cut)} />
    </div>
  );
}

export function UserMessage({ entry }: { entry: EntryOf<'user'> }) {
  return (
    <div class="msg msg-user" role="article" aria-label="You">
      <Markdown text={entry.text} class="msg-body" />
    </div>
  );
}

export function AssistantMessage({ entry }: { entry: EntryOf<'assistant'> }) {
  return (
    <div class={`msg msg-assistant${entry.streaming ? ' is-streaming' : ''}`} role="article" aria-label="Assistant" aria-busy={entry.streaming}>
      {entry.streaming ? <StreamingMarkdown text={entry.text} /> : <Markdown text={entry.text} class="msg-body" />}
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
