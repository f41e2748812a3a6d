/**
 * What the chat says when something the user asked for fails: what went wrong, the next step, and
 * the actions that take it (issue 15 item 2). One place for every failure the panel shows, whether
 * it arrives as a session event (a provider failure) or as an error thrown before a session could
 * take the request (no folder, a refused `.vtcode`, missing prompts). Pure: no `vscode` import.
 */
import type { ProviderFailure } from '../core/llm/provider';
import type { NoticeLevel, PanelAction } from '../protocol';
import { errorMessage } from '../core/errors';

export interface FailureNotice {
  level: NoticeLevel;
  text: string;
  actions: PanelAction[];
}

/** The window has no folder open: sessions, plans and logs live in a workspace folder. */
export class NoWorkspaceFolderError extends Error {
  constructor() {
    super(
      'Open a folder first: VT Code Planning plans and builds inside a workspace folder, and keeps its plans and session logs in its .vtcode folder.',
    );
    this.name = 'NoWorkspaceFolderError';
  }
}

/** Several folders are open and the user closed the folder picker without choosing. */
export class NoFolderChosenError extends Error {
  constructor() {
    super('No folder was chosen: choose the folder the session works in (Switch Folder), then send again.');
    this.name = 'NoFolderChosenError';
  }
}

const GENERIC_NEXT_STEP = 'The log (VT Code Planning output) has the details.';

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A model request that failed, from its `provider.failed` event. */
export function providerFailureNotice(
  failure: Pick<ProviderFailure, 'kind' | 'status' | 'retryable' | 'message'>,
): FailureNotice {
  const what = `The model request failed: ${sentence(failure.message)}`;
  switch (failure.kind) {
    case 'setup':
      // The message names what is missing and how to add it.
      return { level: 'error', text: what, actions: ['selectModel'] };
    case 'transport':
      return {
        level: 'error',
        text: `${what} Check the network connection and the endpoint (setting vtplan.baseUrl), then send your message again.`,
        actions: ['openSettings'],
      };
    case 'protocol':
      return {
        level: 'error',
        text: `${what} The answer broke off or was malformed: send your message again, or choose another model.`,
        actions: ['selectModel'],
      };
    case 'http': {
      const status = failure.status;
      if (status === 401 || status === 403) {
        return {
          level: 'error',
          text: `${what} The service did not accept the credentials: enter the API key again with Select Model.`,
          actions: ['selectModel'],
        };
      }
      if (status === 404) {
        return {
          level: 'error',
          text: `${what} Check the model name and the endpoint (settings vtplan.model and vtplan.baseUrl).`,
          actions: ['selectModel', 'openSettings'],
        };
      }
      if (failure.retryable) {
        return {
          level: 'error',
          text: `${what} The service is busy or limiting requests: send your message again in a moment.`,
          actions: [],
        };
      }
      return {
        level: 'error',
        text: `${what} Send your message again, or choose another model.`,
        actions: ['selectModel'],
      };
    }
  }
}

/**
 * An error thrown while the host handled a user action (before or outside a session's turn).
 * `unsent`: the action was a message that no session took; the notice says where it went.
 */
export function hostFailureNotice(err: unknown, unsent = false): FailureNotice {
  const name = err instanceof Error ? err.name : '';
  const message = errorMessage(err);
  const draft = unsent ? ' Your message was not sent; it is back in the composer.' : '';
  switch (name) {
    case 'NoWorkspaceFolderError':
      return { level: 'warning', text: `${message}${draft}`, actions: ['openFolder'] };
    case 'NoFolderChosenError':
      return { level: 'warning', text: `${message}${draft}`, actions: ['switchFolder'] };
    case 'SessionBusyError':
      return { level: 'warning', text: `${message}${draft}`, actions: [] };
    case 'SessionLogError':
    case 'StoreError':
    case 'LogKeyError': {
      const fix = /symbolic link/.test(message)
        ? ' The .vtcode folder and the folders in it must be real folders inside the workspace: remove the link (VT Code Planning creates the folder again), then send again.'
        : ' Fix that, then send again.';
      return {
        level: 'error',
        text: `VT Code Planning cannot keep its session files: ${sentence(message)}${fix}${draft}`,
        actions: [],
      };
    }
    case 'PromptsMissingError':
      return {
        level: 'error',
        text: `${sentence(message)} Reinstall VT Code Planning from the Extensions view, then reload the window.${draft}`,
        actions: ['showOutput'],
      };
    default:
      return { level: 'error', text: `${sentence(message)} ${GENERIC_NEXT_STEP}${draft}`, actions: ['showOutput'] };
  }
}
