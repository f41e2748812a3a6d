import { act, render } from '@testing-library/preact';
import { App } from '../../webview/src/components/App';
import type { HostNotification, PanelStatus, TranscriptEntry } from '../../src/protocol';
import { fakeHost } from './fake-host';

export const idle: PanelStatus = { mode: 'plan', model: 'gpt-test', status: null, busy: false, inputLockedReason: null };

/**
 * Renders the real App over the fake host with a manual frame clock, so streaming tests decide
 * when a frame happens.
 */
export function mountApp(initialViewState?: unknown) {
  const { host, sent, deliver, viewState } = fakeHost(initialViewState);
  const frames: (() => void)[] = [];
  const view = render(<App host={host} scheduleFrame={(cb) => frames.push(cb)} />);
  return {
    ...view,
    sent,
    viewState,
    /** Delivers host messages through the real message channel and parsing. */
    deliver: (...messages: (HostNotification | unknown)[]) => act(() => messages.forEach((m) => deliver(m))),
    /** Sends a `state` snapshot. */
    show: (transcript: TranscriptEntry[], status: Partial<PanelStatus> = {}) =>
      act(() => deliver({ type: 'state', status: { ...idle, ...status }, transcript })),
    pendingFrames: () => frames.length,
    flushFrames: () => act(() => frames.splice(0).forEach((f) => f())),
    commands: (type: string) => sent.filter((m) => m.type === type),
  };
}

export const assistant = (id: string, text: string, streaming = false): TranscriptEntry => ({ kind: 'assistant', id, text, streaming });
