import { AGENT_MODE_HINT, AGENT_MODE_LABEL } from '../../../src/core/vocabulary';
import type { PanelStatus } from '../../../src/protocol';
import { Badge, Button } from '../ui';

export function Header({ status, onSwitchFolder }: { status: PanelStatus; onSwitchFolder: () => void }) {
  return (
    <header class="header">
      <span
        class={`mode-badge mode-${status.mode}`}
        title={AGENT_MODE_HINT[status.mode]}
        role="img"
        aria-label={AGENT_MODE_HINT[status.mode]}
      >
        <Badge>{AGENT_MODE_LABEL[status.mode]}</Badge>
      </span>
      {status.folder !== undefined && (
        // Several folders are open: which one the session works in, and a way to change it.
        <Button
          appearance="secondary"
          class="folder"
          onClick={onSwitchFolder}
          title="The workspace folder this session works in. Switching folders starts a new session."
          ariaLabel={`Folder: ${status.folder}. Switch folder`}
        >
          {status.folder}
        </Button>
      )}
      <span class="model" title="Model">
        {status.model ?? 'No model selected'}
      </span>
      {status.sandbox && !status.sandbox.sandboxed ? (
        // The unsafe case stands out (warning colour, a live region); the sandboxed one is a quiet label.
        <span
          class="sandbox-warning"
          role="status"
          title={`${status.sandbox.summary}. Plan mode runs inspection commands only; run "vtplan doctor" for how to install bubblewrap.`}
        >
          No sandbox — policy only
        </span>
      ) : status.sandbox ? (
        <span
          class="sandbox-ok"
          title={`Agent commands run in an OS sandbox (${status.sandbox.summary.replace(/^sandbox: /, '')})`}
          aria-label="Commands sandboxed"
        >
          Sandboxed
        </span>
      ) : null}
    </header>
  );
}
