import { HostNotification, WebviewCommand, describeInvalid } from '../../src/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The webview's side of the protocol: typed sends, parsed receives, persisted view state. */
export interface Host {
  send(command: WebviewCommand): void;
  onNotification(listener: (message: HostNotification) => void): () => void;
  getViewState(): unknown;
  setViewState(state: unknown): void;
}

export function connectToHost(api: VsCodeApi = acquireVsCodeApi(), target: Window = window): Host {
  const send = (command: WebviewCommand) => api.postMessage(WebviewCommand.parse(command));
  return {
    send,
    onNotification(listener) {
      const handler = (event: MessageEvent) => {
        const parsed = HostNotification.safeParse(event.data);
        if (!parsed.success) {
          send({
            type: 'log',
            level: 'warn',
            message: `dropped an invalid host message: ${describeInvalid(parsed.error)}`.slice(0, 4_000),
          });
          return;
        }
        listener(parsed.data);
      };
      target.addEventListener('message', handler);
      return () => target.removeEventListener('message', handler);
    },
    getViewState: () => api.getState(),
    setViewState: (state) => api.setState(state),
  };
}
