import type { EntryOf, ToolStatus } from '../../../src/protocol';
import { Spinner } from '../ui';

const STATUS: Record<ToolStatus, { icon: string; label: string }> = {
  running: { icon: '', label: 'running' },
  ok: { icon: '✓', label: 'done' },
  error: { icon: '✗', label: 'failed' },
  blocked: { icon: '⊘', label: 'blocked' },
};

/** One tool call as a compact row; its output folds out on demand. */
export function ToolCard({ entry }: { entry: EntryOf<'tool'> }) {
  const status = STATUS[entry.status];
  const head = (
    <>
      <span class="tool-icon" aria-hidden="true">
        {entry.status === 'running' ? <Spinner label="running" /> : status.icon}
      </span>
      <span class="tool-name">{entry.name}</span>
      <span class="tool-target" title={entry.target}>
        {entry.target}
      </span>
      <span class="sr-only">{`, ${status.label}`}</span>
    </>
  );
  return (
    <div class={`tool tool-${entry.status}`} role="group" aria-label={`Tool ${entry.name}, ${status.label}`}>
      {entry.output === null ? (
        <div class="tool-head">{head}</div>
      ) : (
        <details class="tool-details">
          <summary class="tool-head">{head}</summary>
          <pre class="tool-output">{entry.output}</pre>
          {entry.truncated && <div class="tool-truncated">Output truncated.</div>}
        </details>
      )}
      {entry.blockedReason !== null && <div class="tool-reason">{entry.blockedReason}</div>}
    </div>
  );
}
