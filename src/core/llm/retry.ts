import { isContent, type ModelProvider, type ModelRequest, type ProviderFailure, type StreamChunk } from './provider';

export interface RetryPolicy {
  /** Retries after the first request; 0 = never retry. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not waited for: the failure is returned. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

interface RetryNotice {
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  /** The failure that caused this retry (secrets already removed). */
  failure: ProviderFailure;
}

type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export interface RetryOptions extends Partial<RetryPolicy> {
  /** Called before each wait; the runloop charges every retry against the synthesis allowance (SYN-1). */
  onRetry?: (notice: RetryNotice) => void;
  /** [0, 1); injectable for deterministic jitter. */
  random?: () => number;
  sleep?: Sleep;
}

/**
 * Exponential backoff with "equal jitter": half the capped exponential delay is fixed, the other
 * half random, so retries spread out but never collapse to zero.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Resolves after `ms`, or early when the signal fires (the caller then checks the signal). */
const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Streams `request`, retrying failures that are retryable and happened before any content was
 * produced (a request whose output was already shown cannot be replayed without duplicating it;
 * such a failure is returned with `retryable` intact for the caller to decide). Waits honour
 * `retry-after`. Cancellation during a wait ends the stream with `cancelled`.
 */
export async function* streamWithRetry(
  provider: ModelProvider,
  request: ModelRequest,
  options: RetryOptions = {},
): AsyncGenerator<StreamChunk> {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;

  for (let attempt = 1; ; attempt++) {
    let produced = false;
    let failure: ProviderFailure | undefined;
    for await (const chunk of provider.stream(request)) {
      if (chunk.type === 'error') {
        failure = { ...chunk.failure, attempts: attempt };
        break;
      }
      if (isContent(chunk)) produced = true;
      yield chunk;
    }
    if (!failure) return; // finished or cancelled: the terminal chunk was passed through

    const retry = attempt; // the retry this failure would start
    const wait = failure.retryAfterMs !== undefined ? failure.retryAfterMs : backoffDelay(retry, policy, random);
    const canRetry =
      failure.retryable &&
      !produced &&
      retry <= policy.maxRetries &&
      (failure.retryAfterMs === undefined || failure.retryAfterMs <= policy.maxRetryAfterMs);
    if (!canRetry) {
      yield { type: 'error', failure };
      return;
    }
    options.onRetry?.({ retry, delayMs: wait, failure });
    await sleep(wait, request.signal);
    if (request.signal?.aborted) {
      yield { type: 'cancelled' };
      return;
    }
  }
}
