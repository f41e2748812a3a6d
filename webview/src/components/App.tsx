import { useCallback, useEffect, useReducer, useRef } from 'preact/hooks';
import { WebviewCommand, describeInvalid, type HostNotification } from '../../../src/protocol';
import type { Host } from '../host';
import { initialState, mergeAppend, reduce, type Append } from '../store';
import { Composer } from './Composer';
import { listenForEditPlanKey } from './edit-plan-key';
import { PANEL_CLASS } from './focus';
import { Header } from './Header';
import { LiveRegion, StatusLine } from './StatusLine';
import { Transcript } from './Transcript';

interface ViewState {
  draft: string;
  history: readonly string[];
}

function readViewState(host: Host): ViewState {
  const raw: unknown = host.getViewState();
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const history = Array.isArray(o.history) ? o.history.filter((h): h is string => typeof h === 'string') : [];
  return { draft: typeof o.draft === 'string' ? o.draft : '', history };
}

/** Schedules one callback before the next paint; injectable so tests can flush frames. */
export type FrameScheduler = (callback: () => void) => void;
const nextFrame: FrameScheduler = (callback) => requestAnimationFrame(() => callback());

export function App({ host, scheduleFrame = nextFrame }: { host: Host; scheduleFrame?: FrameScheduler }) {
  const [state, dispatch] = useReducer(reduce, initialState);
  const viewState = useRef<ViewState | null>(null);
  if (viewState.current === null) viewState.current = readViewState(host);

  useEffect(() => {
    // Streamed deltas are merged per animation frame: one render per frame, however fast they come.
    let pending = new Map<string, Append>();
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      if (pending.size === 0) return;
      const deltas = pending;
      pending = new Map();
      dispatch({ type: 'appendBatch', deltas });
    };
    const stop = host.onNotification((message: HostNotification) => {
      if (message.type === 'append') {
        const delta: Append = { text: message.text, html: message.html };
        const earlier = pending.get(message.id);
        pending.set(message.id, earlier ? mergeAppend(earlier, delta) : delta);
        if (!scheduled) {
          scheduled = true;
          scheduleFrame(flush);
        }
        return;
      }
      // Anything else may replace the entry being streamed: apply the text received before it first.
      flush();
      dispatch(message);
    });
    host.send({ type: 'ready' });
    return stop;
  }, [host]);

  // A command the protocol refuses (e.g. a message over its size limit) is not sent; the user sees
  // why and keeps what they wrote.
  const send = useCallback(
    (command: WebviewCommand): boolean => {
      const parsed = WebviewCommand.safeParse(command);
      if (parsed.success) {
        host.send(parsed.data);
        return true;
      }
      dispatch({ type: 'localNotice', text: `Not sent (${command.type}): ${describeInvalid(parsed.error)}` });
      return false;
    },
    [host],
  );
  const focusComposer = useCallback(() => dispatch({ type: 'requestFocus' }), []);
  const planWaits = state.transcript.some((e) => e.kind === 'approval' && e.state === 'pending');
  useEffect(
    () => (planWaits ? listenForEditPlanKey(document, () => send({ type: 'editPlan' })) : undefined),
    [planWaits, send],
  );

  return (
    <div class={PANEL_CLASS}>
      <Header status={state.status} onSwitchFolder={() => send({ type: 'runAction', action: 'switchFolder' })} />
      <Transcript
        entries={state.transcript}
        earlier={state.earlier}
        send={send}
        onInteractionDone={focusComposer}
        gateFocusRequest={state.gateFocusRequest}
      />
      <Composer
        draft={viewState.current.draft}
        history={viewState.current.history}
        onChange={(draft, history) => {
          viewState.current = { draft, history };
          host.setViewState({ draft, history });
        }}
        onSubmit={(text) => send({ type: 'submit', text })}
        onRefused={(text) => dispatch({ type: 'localNotice', text })}
        lockedReason={state.status.inputLockedReason}
        busy={state.status.busy}
        focusRequest={state.focusRequest}
        draftRestore={state.draftRestore}
      />
      <StatusLine status={state.status} onStop={() => send({ type: 'stop' })} />
      <LiveRegion text={state.announcement.text} seq={state.announcement.seq} />
    </div>
  );
}
