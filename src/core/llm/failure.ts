import type { Clock } from '../ports';
import type { FailureKind, ProviderFailure, StreamChunk } from './provider';
import { redactSecrets } from './redact';

const MAX_MESSAGE = 500;

/** 408 timeout, 409 lock contention, 425 too early, 429 rate limit and every 5xx (incl. 529 overloaded). */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** Error types that servers put in an SSE error event after a 200 (Anthropic `overloaded_error`, …). */
const RETRYABLE_ERROR_TYPE = /overload|rate_limit|server_error|api_error|timeout|internal|unavailable/i;

function isRetryableErrorType(type: string | undefined | null): boolean {
  return typeof type === 'string' && RETRYABLE_ERROR_TYPE.test(type);
}

/**
 * The server's requested wait in milliseconds: `retry-after-ms`, then `retry-after` as seconds or
 * as an HTTP date. `undefined` when absent or unreadable.
 */
export function retryAfterMs(headers: Headers | undefined | null, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** `x-should-retry` lets a server overrule the status-based decision (both official SDKs honour it). */
function shouldRetryOverride(headers: Headers | undefined | null): boolean | undefined {
  const value = headers?.get('x-should-retry');
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

export interface FailureInput {
  kind: FailureKind;
  provider: string;
  message: string;
  secrets: readonly string[];
  status?: number;
  retryable: boolean;
  retryAfterMs?: number;
}

/** The provider sent something that breaks its own protocol (a tool call without a name, a stream cut short). */
export function protocolFailure(
  provider: string,
  secrets: readonly string[],
  retryable: boolean,
  message: string,
): ProviderFailure {
  return makeFailure({ kind: 'protocol', provider, secrets, retryable, message });
}

export function makeFailure(input: FailureInput): ProviderFailure {
  let message = redactSecrets(input.message.trim() || 'no details', input.secrets);
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`;
  const failure: ProviderFailure = {
    kind: input.kind,
    provider: input.provider,
    retryable: input.retryable,
    message,
  };
  if (input.status !== undefined) failure.status = input.status;
  if (input.retryAfterMs !== undefined) failure.retryAfterMs = input.retryAfterMs;
  return failure;
}

/**
 * The shape both official SDKs give their `APIError` (status, headers, parsed error body). Read
 * structurally so one mapper serves both.
 */
interface SdkApiErrorLike {
  status: number | undefined;
  headers: Headers | undefined;
  error: unknown;
  message: string;
}

function errorType(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const nested = record['error'];
  if (typeof nested === 'object' && nested !== null) return errorType(nested);
  const type = record['type'] ?? record['code'];
  return typeof type === 'string' ? type : undefined;
}

/** The error classes both official SDKs export (`APIConnectionError` extends `APIError`). */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => SdkApiErrorLike;
  APIConnectionError: abstract new (...args: never[]) => unknown;
}

/**
 * Maps whatever an SDK call threw. A connection error (and its timeout subclass) is a transport
 * failure, always retryable; an API error maps by status, `retry-after` and error type; anything
 * else (a body that is not JSON, a socket that died mid-stream) is a retryable transport failure.
 */
function failureFromSdkThrow(
  err: unknown,
  sdk: SdkErrorClasses,
  provider: string,
  secrets: readonly string[],
  nowMs: number,
): ProviderFailure {
  if (err instanceof sdk.APIConnectionError || !(err instanceof sdk.APIError)) {
    return makeFailure({ kind: 'transport', provider, secrets, retryable: true, message: describeCause(err) });
  }
  const wait = retryAfterMs(err.headers, nowMs);
  const override = shouldRetryOverride(err.headers);
  const status = err.status;
  const retryable =
    override ?? (status !== undefined ? isRetryableStatus(status) : isRetryableErrorType(errorType(err.error)));
  return makeFailure({
    kind: 'http',
    provider,
    secrets,
    retryable,
    message: status !== undefined ? `HTTP ${status}: ${stripStatusPrefix(err.message, status)}` : err.message,
    ...(status !== undefined ? { status } : {}),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  });
}

function stripStatusPrefix(message: string, status: number): string {
  return message.startsWith(`${status} `) ? message.slice(String(status).length + 1) : message;
}

/** The message of an error and of its causes: "Connection error. (ECONNREFUSED 127.0.0.1:9)". */
export function describeCause(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    const text =
      typeof code === 'string' && !current.message.includes(code) ? `${code} ${current.message}` : current.message;
    if (text && !parts.includes(text)) parts.push(text);
    current = current.cause;
  }
  if (parts.length === 0) return String(err);
  return parts.length === 1 ? (parts[0] ?? '') : `${parts[0]} (${parts.slice(1).join('; ')})`;
}

/**
 * The two ways a stream from an SDK-backed provider fails, bound to that provider and its
 * secrets: the SDK threw (`failureOf`), or the stream broke the protocol (`protocolError`).
 */
export function sdkStreamFailures(
  provider: string,
  sdk: SdkErrorClasses,
  secrets: readonly string[],
  clock: Clock,
): { failureOf(err: unknown): ProviderFailure; protocolError(message: string, retryable: boolean): StreamChunk } {
  return {
    failureOf: (err) => failureFromSdkThrow(err, sdk, provider, secrets, clock.now()),
    protocolError: (message, retryable) => ({
      type: 'error',
      failure: protocolFailure(provider, secrets, retryable, message),
    }),
  };
}
