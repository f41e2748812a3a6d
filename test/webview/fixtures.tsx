import { act, render } from '@testing-library/preact';
import { App } from '../../webview/src/components/App';
import { renderMarkdown, StreamingMarkdown } from '../../src/extension/markdown';
import type { EntryOf, HostNotification, PanelStatus, TranscriptEntry } from '../../src/protocol';
import { fakeHost } from './fake-host';

export const idle: PanelStatus = {
  mode: 'plan',
  model: 'gpt-test',
  status: null,
  busy: false,
  inputLockedReason: null,
  sandbox: null,
};

/**
 * The "Rate-limit logins" plan at the approval gate, pending: its synopsis lists `steps` (numbered
 * here) and, when the host's synopsis stopped early, `overflow`.
 */
export function rateLimitGate(
  steps: readonly string[],
  overflow: string | null,
  over: Partial<EntryOf<'approval'>> = {},
): EntryOf<'approval'> {
  return {
    kind: 'approval',
    id: 'g1',
    planFile: '.vtcode/plans/rate-limit.md',
    synopsis: {
      title: 'Rate-limit logins',
      summary: 'Add a per-IP limiter in front of the login route.',
      steps: steps.map((text, i) => ({ number: i + 1, text })),
      overflow,
    },
    contextUsage: 0.07,
    state: 'pending',
    choice: null,
    ...over,
  };
}

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

/** Entries carry the HTML the host's real renderer makes of their text (a message that streams: hostStream). */
export const assistant = (id: string, text: string): EntryOf<'assistant'> => ({
  kind: 'assistant',
  id,
  text,
  streaming: false,
  html: [renderMarkdown(text)],
});

export const user = (id: string, text: string): EntryOf<'user'> => ({
  kind: 'user',
  id,
  text,
  html: renderMarkdown(text),
});

export const plan = (fields: Omit<EntryOf<'plan'>, 'kind' | 'html'>): EntryOf<'plan'> => ({
  kind: 'plan',
  ...fields,
  html: renderMarkdown(fields.markdown),
});

/**
 * The host's side of a message that streams: its first entry, then each delta as the `append` the
 * host sends, HTML chunks included, from the host's real streaming renderer.
 */
export function hostStream(id: string, initial = '') {
  const renderer = new StreamingMarkdown();
  let text = initial;
  const entry: EntryOf<'assistant'> = {
    kind: 'assistant',
    id,
    text,
    streaming: true,
    html: renderer.update(text).chunks,
  };
  return {
    entry,
    /** The chunks the host holds now: what the webview must show after the appends so far. */
    chunks: () => renderer.chunks,
    append: (delta: string): HostNotification => {
      text += delta;
      return { type: 'append', id, text: delta, html: renderer.update(text) };
    },
  };
}
