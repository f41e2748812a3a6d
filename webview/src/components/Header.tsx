import { AGENT_MODE_HINT, AGENT_MODE_LABEL } from '../../../src/core/vocabulary';
import type { PanelStatus } from '../../../src/protocol';
import { Badge } from '../ui';

export function Header({ status }: { status: PanelStatus }) {
  return (
    <header class="header">
      <span class={`mode-badge mode-${status.mode}`} title={AGENT_MODE_HINT[status.mode]} role="img" aria-label={AGENT_MODE_HINT[status.mode]}>
        <Badge>{AGENT_MODE_LABEL[status.mode]}</Badge>
      </span>
      <span class="model" title="Model">{status.model ?? 'No model selected'}</span>
      {status.sandbox && !status.sandbox.sandboxed ? (
        // The unsafe case stands out (warning colour, a live region); the sandboxed one is a quiet label.
        <span class="sandbox-warning" role="status" title={`${status.sandbox.summary}. Plan mode runs inspection commands only; run "vtplan doctor" for how to install bubblewrap.`}>
          No sandbox — policy only
        </span>
      ) : status.sandbox ? (
        <span class="sandbox-ok" title={`Agent commands run in an OS sandbox (${status.sandbox.summary.replace(/^sandbox: /, '')})`} aria-label="Commands sandboxed">
          Sandboxed
        </span>
      ) : null}
    </header>
  );
}
