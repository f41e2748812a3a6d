import type { HostNotification, WebviewCommand } from '../../src/protocol';
import { connectToHost, type Host } from '../../webview/src/host';

/**
 * The real connectToHost over a recording stand-in for acquireVsCodeApi() and a real window
 * message channel, so tests exercise the same parsing the webview does.
 */
export function fakeHost(initialViewState?: unknown): {
  host: Host;
  sent: WebviewCommand[];
  viewState: () => unknown;
  deliver: (m: HostNotification | unknown) => void;
} {
  const sent: WebviewCommand[] = [];
  let state = initialViewState;
  const host = connectToHost(
    { postMessage: (m) => sent.push(m as WebviewCommand), getState: () => state, setState: (s) => (state = s) },
    window as unknown as Window,
  );
  const deliver = (m: unknown) => window.dispatchEvent(new MessageEvent('message', { data: m }));
  return { host, sent, viewState: () => state, deliver };
}
