import type { PanelStatus } from '../../../src/protocol';
import { Badge } from '../ui';

const MODE_LABEL = { plan: 'Plan', build: 'Build', auto: 'Auto' } as const;
const MODE_HINT = {
  plan: 'Plan mode: read-only research that ends in a plan for you to approve',
  build: 'Build mode: writes files and asks before running commands',
  auto: 'Auto mode: writes files and runs commands without asking',
} as const;

export function Header({ status }: { status: PanelStatus }) {
  return (
    <header class="header">
      <span class={`mode-badge mode-${status.mode}`} title={MODE_HINT[status.mode]} role="img" aria-label={MODE_HINT[status.mode]}>
        <Badge>{MODE_LABEL[status.mode]}</Badge>
      </span>
      <span class="model" title="Model">{status.model ?? 'No model selected'}</span>
    </header>
  );
}
