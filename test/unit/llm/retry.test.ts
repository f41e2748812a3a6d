import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  streamWithRetry,
  type ModelProvider,
  type ProviderFailure,
  type StreamChunk,
} from '../../../src/core/llm';
import { retryAfterMs } from '../../../src/core/llm/failure';
import { drain, recordingSleep, request } from './helpers';

function failure(overrides: Partial<ProviderFailure> = {}): ProviderFailure {
  return { kind: 'http', provider: 'fake', status: 503, retryable: true, message: 'HTTP 503: busy', ...overrides };
}

/** A provider that replays one scripted chunk list per call. */
function scripted(...attempts: StreamChunk[][]): ModelProvider & { calls: number } {
  const provider = {
    id: 'fake',
    model: 'fake',
    calls: 0,
    async *stream() {
      const chunks = attempts[provider.calls] ?? [];
      provider.calls++;
      yield* chunks;
    },
  };
  return provider;
}

test('SYN-1: backoff grows exponentially, stays within [half, full] of the capped delay', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (retry, r) => {
      const delay = backoffDelay(retry, DEFAULT_RETRY_POLICY, () => r);
      const cap = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** (retry - 1));
      return delay >= Math.floor(cap / 2) && delay <= cap;
    }),
  );
  assert.equal(
    backoffDelay(1, DEFAULT_RETRY_POLICY, () => 0),
    250,
  );
  assert.equal(
    backoffDelay(3, DEFAULT_RETRY_POLICY, () => 0),
    1000,
  );
  assert.equal(
    backoffDelay(20, DEFAULT_RETRY_POLICY, () => 0.999999),
    8000,
  );
});

test('SYN-1: every retry is reported with its number, wait and cause before waiting', async () => {
  const provider = scripted(
    [{ type: 'error', failure: failure() }],
    [{ type: 'error', failure: failure({ status: 429, retryAfterMs: 1500 }) }],
    [
      { type: 'text_delta', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ],
  );
  const { waits, sleep } = recordingSleep();
  const notices: string[] = [];
  const chunks = await drain(
    streamWithRetry(provider, request(), {
      sleep,
      random: () => 0,
      onRetry: (n) => notices.push(`${n.retry}:${n.delayMs}:${n.failure.status}`),
    }),
  );
  assert.deepEqual(notices, ['1:250:503', '2:1500:429']);
  assert.deepEqual(waits, [250, 1500]);
  assert.deepEqual(chunks, [
    { type: 'text_delta', text: 'ok' },
    { type: 'finish', reason: 'stop' },
  ]);
  assert.equal(provider.calls, 3);
});

test('SYN-1: non-retryable failures and maxRetries 0 return the failure at once with attempts', async () => {
  const provider = scripted([{ type: 'error', failure: failure({ retryable: false, status: 401 }) }]);
  const chunks = await drain(streamWithRetry(provider, request(), { onRetry: () => assert.fail('retried') }));
  assert.deepEqual(chunks, [
    { type: 'error', failure: { ...failure({ retryable: false, status: 401 }), attempts: 1 } },
  ]);
  const again = scripted([{ type: 'error', failure: failure() }]);
  const none = await drain(streamWithRetry(again, request(), { maxRetries: 0, onRetry: () => assert.fail('retried') }));
  assert.equal(none[0]?.type, 'error');
  assert.equal(again.calls, 1);
});

test('SYN-1: usage from a failed attempt passes through, content does not make a retry', async () => {
  const provider = scripted(
    [
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 0 } },
      { type: 'error', failure: failure() },
    ],
    [{ type: 'finish', reason: 'stop' }],
  );
  const { sleep } = recordingSleep();
  const chunks = await drain(streamWithRetry(provider, request(), { sleep }));
  assert.deepEqual(
    chunks.map((c) => c.type),
    ['usage', 'finish'],
  );
});

test('SYN-1: retry-after accepts seconds, HTTP dates and retry-after-ms', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' }), now), 3000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Sun, 29 Nov 2026 12:00:10 GMT' }), now), 10_000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '9' }), now), 120);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined);
  assert.equal(retryAfterMs(new Headers({}), now), undefined);
});
