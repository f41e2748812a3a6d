import { useEffect, useReducer, useState } from 'preact/hooks';
import type { Host } from '../host';
import { initialState, reduce } from '../store';
import { Composer } from './Composer';
import { EmptyState } from './EmptyState';
import { Header } from './Header';
import { StatusLine } from './StatusLine';
import { Transcript } from './Transcript';

interface ViewState {
  draft: string;
}

function readViewState(host: Host): ViewState {
  const raw = host.getViewState();
  if (typeof raw === 'object' && raw !== null && typeof (raw as { draft?: unknown }).draft === 'string') {
    return { draft: (raw as { draft: string }).draft };
  }
  return { draft: '' };
}

export function App({ host }: { host: Host }) {
  const [state, dispatch] = useReducer(reduce, initialState);
  const [viewState] = useState(() => readViewState(host));

  useEffect(() => {
    const stop = host.onNotification(dispatch);
    host.send({ type: 'ready' });
    return stop;
  }, [host]);

  return (
    <div class="panel">
      <Header status={state.status} />
      <main class="body">
        {state.transcript.length === 0 ? <EmptyState /> : <Transcript entries={state.transcript} />}
      </main>
      <Composer
        draft={viewState.draft}
        onDraftChange={(draft) => host.setViewState({ draft })}
        onSubmit={(text) => host.send({ type: 'submit', text })}
        lockedReason={state.status.inputLockedReason}
        focusRequest={state.focusRequest}
      />
      <StatusLine status={state.status} />
    </div>
  );
}
