/**
 * One streaming interface for every model backend (OpenAI-compatible, Anthropic, VS Code LM).
 * The runloop builds a provider-neutral `ModelRequest` and consumes `StreamChunk`s; each backend
 * translates both ways. A stream never throws: it always ends with exactly one terminal chunk
 * (`finish`, `error` or `cancelled`), so the caller has one place to decide what happened.
 */

/** A JSON Schema object (as produced by `z.toJSONSchema`). */
export type JsonSchema = { [key: string]: unknown };

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ToolCall {
  /** Provider-assigned id; tool results are attached to it (EXEC-2). */
  id: string;
  name: string;
  /** The complete arguments as JSON text, exactly as the model produced it (may be invalid JSON). */
  arguments: string;
}

/**
 * A finished block of private reasoning that some providers need back verbatim on the next request
 * (Anthropic thinking blocks carry a signature). Never shown as a plan or final answer (SYN-2).
 */
export type ReasoningBlock = { kind: 'thinking'; text: string; signature: string } | { kind: 'redacted'; data: string };

export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: ReasoningBlock[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

type ToolChoice = 'auto' | 'none' | 'required';

export interface ModelRequest {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  /** `none` keeps tool definitions on the wire (history may contain tool calls) but forbids new calls. */
  toolChoice?: ToolChoice;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export type FailureKind =
  /** The server answered with an HTTP error status (or an error event inside the stream). */
  | 'http'
  /** Connection refused/reset, DNS, timeout: nothing usable arrived. */
  | 'transport'
  /** The response broke the wire contract (stream ended without a finish, nameless tool call…). */
  | 'protocol'
  /** The provider cannot be used as configured (no model offered, no API key, no model name): nothing was sent. */
  | 'setup';

export interface ProviderFailure {
  kind: FailureKind;
  provider: string;
  /** HTTP status when the server sent one. */
  status?: number;
  retryable: boolean;
  /** Server-requested wait (`retry-after`, `retry-after-ms`), when given. */
  retryAfterMs?: number;
  /** Human-readable, secrets removed. */
  message: string;
  /** Requests made for this stream, including the failed one (set by the retry layer). */
  attempts?: number;
}

export type StreamChunk =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  | { type: 'reasoning_block'; block: ReasoningBlock }
  /** Emitted once the call is complete: fragmented arguments are already joined. */
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason }
  | { type: 'error'; failure: ProviderFailure }
  /** Only when the caller's AbortSignal fired (EXEC-5): provider text never makes a cancellation. */
  | { type: 'cancelled' };

export interface ModelProvider {
  /** `openai`, `anthropic`, `vscode-lm`: used in failures and events. */
  readonly id: string;
  readonly model: string;
  stream(request: ModelRequest): AsyncIterable<StreamChunk>;
}

/** Chunks that put model output in front of the user; once one was seen a request cannot be replayed. */
export function isContent(chunk: StreamChunk): boolean {
  return (
    chunk.type === 'text_delta' ||
    chunk.type === 'reasoning_delta' ||
    chunk.type === 'reasoning_block' ||
    chunk.type === 'tool_call'
  );
}

/**
 * Tool parameters as sent on the wire: `z.toJSONSchema` adds a top-level `$schema`, which some
 * OpenAI-compatible servers reject and no provider needs.
 */
export function wireParameters(parameters: JsonSchema): JsonSchema {
  const { $schema: _dropped, ...rest } = parameters;
  return rest;
}

/** An http(s) base URL, or a clear error naming what was given ("localhost:11434/v1" parses as a URL too). */
export function parseBaseUrl(raw: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`invalid base URL ${JSON.stringify(raw)}: expected http(s)://…, e.g. http://localhost:11434/v1`);
  }
  return url;
}
