/**
 * Model access for the runloop. One request, one outcome:
 *
 *   const provider = createProvider(config, apiKey);            // or a vscode.lm adapter
 *   const outcome = await collectStream(
 *     streamWithRetry(provider, request, { onRetry: (n) => chargeSynthesisAllowance(n) }),
 *     (chunk) => publishEventsFor(chunk),                       // deltas → message/plan/reasoning events
 *   );
 *   outcome.status: 'completed' (finishReason stop | tool_calls | length …) | 'failed' | 'cancelled'
 *   history.push(assistantMessage(outcome.response)), then one { role: 'tool', toolCallId } per call.
 *
 * History can be kept as it happened: every provider sends `requestView(history)` (EXEC-2).
 */
export type {
  FailureKind,
  FinishReason,
  JsonSchema,
  Message,
  ModelProvider,
  ModelRequest,
  ProviderFailure,
  ReasoningBlock,
  StreamChunk,
  TerminalChunk,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './provider';
export { isContent, isTerminal } from './provider';
export { createOpenAIProvider, OPENAI_DEFAULT_BASE_URL, type OpenAIProviderOptions } from './openai';
export { createAnthropicProvider, ANTHROPIC_DEFAULT_BASE_URL, type AnthropicProviderOptions } from './anthropic';
export { createProvider, MissingApiKeyError, ProviderConfigSchema, type ProviderConfig } from './factory';
export {
  abortableSleep,
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  streamWithRetry,
  type RetryNotice,
  type RetryOptions,
  type RetryPolicy,
  type Sleep,
} from './retry';
export { assistantMessage, collectStream, type ModelResponse, type StreamOutcome } from './collect';
export { MISSING_RESULT, requestView } from './request-view';
export { redactSecrets } from './redact';
