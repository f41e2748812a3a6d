import type { PanelStatus } from '../../../src/protocol';
import { Button, Spinner } from '../ui';

/**
 * The footer: what the session is doing and, while a turn runs, Stop. Not itself a live region:
 * status changes reach screen readers through the LiveRegion, once.
 */
export function StatusLine({ status, onStop }: { status: PanelStatus; onStop: () => void }) {
  const text = status.status ?? (status.busy ? 'Working…' : 'Ready');
  const tone = /^blocked\b/i.test(text) ? ' is-blocked' : /^waiting\b/i.test(text) ? ' is-waiting' : '';
  return (
    <footer class={`status-line${tone}`} aria-label="Status">
      <span class="status-text">
        {status.busy && <Spinner label="working" />}
        {text}
      </span>
      {status.busy && (
        <Button appearance="secondary" class="stop-button" ariaLabel="Stop the running turn" onClick={onStop}>
          Stop
        </Button>
      )}
    </footer>
  );
}

/** Visually hidden; reads announcements and status changes aloud. */
export function LiveRegion({ text, seq }: { text: string; seq: number }) {
  // A trailing no-break space on every other message makes a repeated text a new change.
  return (
    <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">
      {seq % 2 === 0 ? text : `${text}\u00a0`}
    </div>
  );
}
