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
  FinishReason,
  Message,
  ModelProvider,
  ModelRequest,
  ProviderFailure,
  StreamChunk,
  ToolCall,
  ToolDefinition,
} from './provider';
export { createOpenAIProvider } from './openai';
export { createAnthropicProvider } from './anthropic';
export { createProvider, MissingApiKeyError, ProviderConfigSchema } from './factory';
export { backoffDelay, DEFAULT_RETRY_POLICY, streamWithRetry, type RetryOptions } from './retry';
export { assistantMessage, collectStream, type ModelResponse, type StreamOutcome } from './collect';
export { MISSING_RESULT, requestView } from './request-view';
export { redactSecrets } from './redact';
