import type { TranscriptEntry } from '../../../src/protocol';

function Entry({ entry }: { entry: TranscriptEntry }) {
  switch (entry.kind) {
    case 'user':
      return <div class="msg msg-user" role="article" aria-label="You"><div class="msg-body">{entry.text}</div></div>;
    case 'assistant':
      return (
        <div class="msg msg-assistant" role="article" aria-label="Assistant" aria-busy={entry.streaming}>
          <div class="msg-body">{entry.text}</div>
        </div>
      );
    case 'notice':
      return <div class={`notice notice-${entry.level}`} role={entry.level === 'info' ? 'status' : 'alert'}>{entry.text}</div>;
  }
}

export function Transcript({ entries }: { entries: TranscriptEntry[] }) {
  return (
    <div class="transcript" role="log" aria-live="polite" aria-label="Conversation">
      {entries.map((e) => <Entry key={e.id} entry={e} />)}
    </div>
  );
}
