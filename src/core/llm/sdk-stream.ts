/**
 * The part every SDK-backed provider's stream shares: a request already cancelled never opens;
 * the SDK's events are read one by one; a throw becomes a failure, or a cancellation when our own
 * signal caused it (EXEC-5: state-based, whatever the error says); and since an SDK may end its
 * iteration quietly when aborted, the signal is checked again at the end.
 *
 * The SDK gets a signal of its own per request, linked to the turn's: openai-node leaves the abort
 * listener it adds on the signal it is given, so a turn of many requests on one signal collected
 * one listener per request (a MaxListenersExceededWarning past ten, and every finished request kept
 * reachable until the turn ended).
 */
import type { ProviderFailure, StreamChunk } from './provider';

/**
 * Yields the chunks `read` makes of each event. Returns true when the events ran to their end;
 * false when it already yielded the turn's last chunk (`cancelled` or `error`).
 */
export async function* readSdkStream<E>(
  signal: AbortSignal | undefined,
  open: (requestSignal: AbortSignal | undefined) => Promise<AsyncIterable<E>>,
  read: (event: E) => Iterable<StreamChunk>,
  failureOf: (err: unknown) => ProviderFailure,
): AsyncGenerator<StreamChunk, boolean> {
  if (signal?.aborted) {
    yield { type: 'cancelled' };
    return false;
  }
  const link = linkedSignal(signal);
  try {
    for await (const event of await open(link?.signal)) yield* read(event);
  } catch (err) {
    yield signal?.aborted ? { type: 'cancelled' } : { type: 'error', failure: failureOf(err) };
    return false;
  } finally {
    link?.release();
  }
  if (signal?.aborted) {
    yield { type: 'cancelled' };
    return false;
  }
  return true;
}

/** A signal that aborts when `turn` does, until released. */
function linkedSignal(turn: AbortSignal | undefined): { signal: AbortSignal; release: () => void } | undefined {
  if (!turn) return undefined;
  const request = new AbortController();
  const forward = (): void => request.abort(turn.reason);
  turn.addEventListener('abort', forward, { once: true });
  return { signal: request.signal, release: () => turn.removeEventListener('abort', forward) };
}
