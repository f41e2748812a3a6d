import { INITIAL_STATUS, type HostNotification, type PanelStatus, type TranscriptEntry } from '../../src/protocol';

/** What an `append` adds to an entry: text, and for an assistant message or a plan draft how its HTML chunks change. */
export type Append = Pick<Extract<HostNotification, { type: 'append' }>, 'text' | 'html'>;

export interface PanelState {
  /** False until the host has sent its first snapshot. */
  loaded: boolean;
  status: PanelStatus;
  transcript: TranscriptEntry[];
  /** Rows before `transcript` that the host still holds ("Show earlier messages" asks for them). */
  earlier: number;
  /** Bumped when something asks for composer focus, so the composer can react to repeats. */
  focusRequest: number;
  /** Bumped when the host asks to focus the pending gate (`focusGate`); the gate reacts to changes. */
  gateFocusRequest: number;
  /** Latest text for screen readers, with a counter so that the same words are read again. */
  announcement: { text: string; seq: number };
  /** A message the host gave back (it could not take it), with a counter so a repeat is given back too. */
  draftRestore: { text: string; seq: number };
}

/** What the webview itself changes: streamed text batched per frame, and notices it raises locally. */
type LocalAction =
  | { type: 'appendBatch'; deltas: ReadonlyMap<string, Append> }
  | { type: 'localNotice'; text: string }
  | { type: 'requestFocus' };

export type Action = HostNotification | LocalAction;

export const initialState: PanelState = {
  loaded: false,
  status: INITIAL_STATUS,
  transcript: [],
  earlier: 0,
  focusRequest: 0,
  gateFocusRequest: 0,
  announcement: { text: '', seq: 0 },
  draftRestore: { text: '', seq: 0 },
};

let localIds = 0;

function announce(state: PanelState, text: string): PanelState['announcement'] {
  return { text, seq: state.announcement.seq + 1 };
}

/**
 * One append with the same effect as `first` then `second`, so that appends arriving within a
 * frame are applied together. The later one's `keep` counts chunks after the earlier one applied.
 */
export function mergeAppend(first: Append, second: Append): Append {
  const text = first.text + second.text;
  if (!first.html || !second.html) {
    const html = second.html ?? first.html;
    return html ? { text, html } : { text };
  }
  const { keep, chunks } = second.html;
  if (keep <= first.html.keep) return { text, html: second.html };
  return {
    text,
    html: { keep: first.html.keep, chunks: [...first.html.chunks.slice(0, keep - first.html.keep), ...chunks] },
  };
}

/**
 * Applies one host notification or local action. The host is the source of truth: entries keep
 * their identity unless they change, so unchanged rows skip re-rendering.
 */
export function reduce(state: PanelState, action: Action): PanelState {
  switch (action.type) {
    case 'state':
      return {
        ...state,
        loaded: true,
        status: action.status,
        transcript: action.transcript,
        earlier: action.earlier ?? 0,
      };
    case 'earlier':
      return { ...state, transcript: [...action.entries, ...state.transcript], earlier: action.earlier };
    case 'status': {
      const changed = action.status.status !== null && action.status.status !== state.status.status;
      return {
        ...state,
        status: action.status,
        announcement: changed ? announce(state, action.status.status ?? '') : state.announcement,
      };
    }
    case 'entry': {
      const index = state.transcript.findIndex((e) => e.id === action.entry.id);
      const transcript =
        index === -1
          ? [...state.transcript, action.entry]
          : state.transcript.map((e, i) => (i === index ? action.entry : e));
      return { ...state, transcript };
    }
    case 'append':
      return reduce(state, {
        type: 'appendBatch',
        deltas: new Map([[action.id, { text: action.text, html: action.html }]]),
      });
    case 'appendBatch': {
      let touched = false;
      const transcript = state.transcript.map((e) => {
        const delta = action.deltas.get(e.id);
        if (delta === undefined) return e;
        if (e.kind === 'reasoning') {
          touched = true;
          return { ...e, text: e.text + delta.text };
        }
        if (e.kind === 'plan') {
          // Only a draft still streaming has chunks to append to; the host sends appends for no other.
          if (!e.htmlChunks || !delta.html) return e;
          touched = true;
          const htmlChunks = [...e.htmlChunks.slice(0, delta.html.keep), ...delta.html.chunks];
          return { ...e, markdown: e.markdown + delta.text, html: htmlChunks.join(''), htmlChunks };
        }
        if (e.kind !== 'assistant') return e;
        touched = true;
        const html = delta.html ? [...e.html.slice(0, delta.html.keep), ...delta.html.chunks] : e.html;
        return { ...e, text: e.text + delta.text, html };
      });
      return touched ? { ...state, transcript } : state;
    }
    case 'localNotice':
      return {
        ...state,
        transcript: [
          ...state.transcript,
          { kind: 'notice', id: `local-${++localIds}`, level: 'warning', text: action.text },
        ],
      };
    case 'focusComposer':
    case 'requestFocus':
      return { ...state, focusRequest: state.focusRequest + 1 };
    case 'focusGate':
      return { ...state, gateFocusRequest: state.gateFocusRequest + 1 };
    case 'announce':
      return { ...state, announcement: announce(state, action.text) };
    case 'restoreDraft':
      return { ...state, draftRestore: { text: action.text, seq: state.draftRestore.seq + 1 } };
  }
}
