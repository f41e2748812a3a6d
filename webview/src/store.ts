import type { HostNotification, PanelStatus, TranscriptEntry } from '../../src/protocol';

export interface PanelState {
  /** False until the host has sent its first snapshot. */
  loaded: boolean;
  status: PanelStatus;
  transcript: TranscriptEntry[];
  /** Bumped when the host asks for composer focus, so the composer can react to repeats. */
  focusRequest: number;
  /** Latest text for screen readers. */
  announcement: string;
}

export const initialState: PanelState = {
  loaded: false,
  status: { mode: 'plan', model: null, status: null, busy: false, inputLockedReason: null },
  transcript: [],
  focusRequest: 0,
  announcement: '',
};

/** Applies one host notification; the host is the source of truth, the webview only mirrors it. */
export function reduce(state: PanelState, message: HostNotification): PanelState {
  switch (message.type) {
    case 'state':
      return { ...state, loaded: true, status: message.status, transcript: message.transcript };
    case 'status':
      return { ...state, status: message.status };
    case 'entry': {
      const index = state.transcript.findIndex((e) => e.id === message.entry.id);
      const transcript = index === -1 ? [...state.transcript, message.entry] : state.transcript.map((e, i) => (i === index ? message.entry : e));
      return { ...state, transcript };
    }
    case 'append':
      return {
        ...state,
        transcript: state.transcript.map((e) =>
          e.id === message.id && (e.kind === 'assistant' || e.kind === 'reasoning') ? { ...e, text: e.text + message.text } : e,
        ),
      };
    case 'focusComposer':
      return { ...state, focusRequest: state.focusRequest + 1 };
    case 'announce':
      return { ...state, announcement: message.text };
  }
}
