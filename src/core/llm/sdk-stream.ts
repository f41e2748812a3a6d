/**
 * The part every SDK-backed provider's stream shares: a request already cancelled never opens;
 * the SDK's events are read one by one; a throw becomes a failure, or a cancellation when our own
 * signal caused it (EXEC-5: state-based, whatever the error says); and since an SDK may end its
 * iteration quietly when aborted, the signal is checked again at the end.
 */
import type { ProviderFailure, StreamChunk } from './provider';

/**
 * Yields the chunks `read` makes of each event. Returns true when the events ran to their end;
 * false when it already yielded the turn's last chunk (`cancelled` or `error`).
 */
export async function* readSdkStream<E>(
  signal: AbortSignal | undefined,
  open: () => Promise<AsyncIterable<E>>,
  read: (event: E) => Iterable<StreamChunk>,
  failureOf: (err: unknown) => ProviderFailure,
): AsyncGenerator<StreamChunk, boolean> {
  if (signal?.aborted) {
    yield { type: 'cancelled' };
    return false;
  }
  try {
    for await (const event of await open()) yield* read(event);
  } catch (err) {
    yield signal?.aborted ? { type: 'cancelled' } : { type: 'error', failure: failureOf(err) };
    return false;
  }
  if (signal?.aborted) {
    yield { type: 'cancelled' };
    return false;
  }
  return true;
}
