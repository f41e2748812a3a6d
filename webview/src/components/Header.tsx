import type { PanelStatus } from '../../../src/protocol';
import { Badge, Button } from '../ui';

const MODE_LABEL = { plan: 'Plan', build: 'Build', auto: 'Auto' } as const;
const MODE_HINT = {
  plan: 'Plan mode: read-only research that ends in a plan for you to approve',
  build: 'Build mode: writes files and asks before running commands',
  auto: 'Auto mode: writes files and runs commands without asking',
} as const;

export function Header({ status, onSwitchFolder }: { status: PanelStatus; onSwitchFolder: () => void }) {
  return (
    <header class="header">
      <span class={`mode-badge mode-${status.mode}`} title={MODE_HINT[status.mode]} role="img" aria-label={MODE_HINT[status.mode]}>
        <Badge>{MODE_LABEL[status.mode]}</Badge>
      </span>
      {status.folder !== undefined && (
        // Several folders are open: which one the session works in, and a way to change it.
        <Button appearance="secondary" class="folder" onClick={onSwitchFolder} title="The workspace folder this session works in. Switching folders starts a new session." ariaLabel={`Folder: ${status.folder}. Switch folder`}>
          {status.folder}
        </Button>
      )}
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
