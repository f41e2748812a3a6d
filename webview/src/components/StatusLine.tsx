import type { PanelStatus } from '../../../src/protocol';

export function StatusLine({ status }: { status: PanelStatus }) {
  return (
    <footer class="status-line" role="status" aria-live="polite">
      {status.status ?? 'Ready'}
    </footer>
  );
}
