import OpenAI, { APIConnectionError, APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import { systemClock, type Clock } from '../ports';
import { sdkStreamFailures } from './failure';
import { readSdkStream } from './sdk-stream';
import {
  parseBaseUrl,
  wireParameters,
  type FinishReason,
  type ModelProvider,
  type ModelRequest,
  type StreamChunk,
  type ToolCall,
  type Usage,
} from './provider';
import { requestView } from './request-view';
import { splitChunks, ThinkTagSplitter } from './think-tags';

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIProviderOptions {
  model: string;
  /** Any OpenAI-compatible endpoint: `http://localhost:11434/v1` (Ollama), LM Studio, vLLM, OpenRouter. */
  baseUrl?: string;
  /** Local servers need none; the SDK still requires a value, so a placeholder is sent. */
  apiKey?: string;
  /**
   * OpenAI's own reasoning models accept only `max_completion_tokens`; many local servers know only
   * `max_tokens`. Default: the former for api.openai.com, the latter elsewhere.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Per-request timeout; a timeout is a retryable transport failure. */
  timeoutMs?: number;
  clock?: Clock;
}

const PROVIDER_ID = 'openai';
const NO_KEY_PLACEHOLDER = 'no-key';

// Reasoning arrives outside the official schema: `reasoning_content` (vLLM, DeepSeek) or
// `reasoning` (Ollama, OpenRouter, newer vLLM).
const ReasoningDelta = z.looseObject({
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
});

function mapFinish(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function toOpenAIMessages(request: ModelRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (request.system !== '') out.push({ role: 'system', content: request.system });
  for (const m of requestView(request.messages)) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls && m.toolCalls.length > 0) {
      out.push({
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: c.arguments },
        })),
      });
    } else {
      out.push({ role: 'assistant', content: m.content });
    }
  }
  return out;
}

export function toOpenAIBody(
  request: ModelRequest,
  model: string,
  maxTokensField: 'max_tokens' | 'max_completion_tokens',
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model,
    messages: toOpenAIMessages(request),
    stream: true,
    stream_options: { include_usage: true },
  };
  body[maxTokensField] = request.maxOutputTokens;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t): ChatCompletionTool => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: wireParameters(t.parameters) },
    }));
    if (request.toolChoice) body.tool_choice = request.toolChoice;
  }
  return body;
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

function usageOf(u: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const usage: Usage = { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens };
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  if (typeof cached === 'number') usage.cachedInputTokens = cached;
  return usage;
}

function newCallId(index: number): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `call_${index}_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

type ToolCallFragment = ChatCompletionChunk.Choice.Delta.ToolCall;

/**
 * Folds streamed completion chunks into stream chunks. Text and reasoning pass through as they
 * come; tool calls are assembled from their fragments and released only once the stream ended.
 */
class CompletionChunkReader {
  private readonly splitter = new ThinkTagSplitter();
  private readonly calls: PartialCall[] = [];
  private readonly open = new Map<number, PartialCall>();
  finish: FinishReason | undefined;
  usage: Usage | undefined;

  *read(chunk: ChatCompletionChunk): Generator<StreamChunk> {
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) return;
    const extra = ReasoningDelta.safeParse(choice.delta);
    const reasoning = extra.success ? (extra.data.reasoning_content ?? extra.data.reasoning) : undefined;
    if (reasoning) yield { type: 'reasoning_delta', text: reasoning };
    if (choice.delta.content) yield* splitChunks(this.splitter.push(choice.delta.content));
    for (const fragment of choice.delta.tool_calls ?? []) this.addFragment(fragment);
    if (choice.finish_reason) this.finish = mapFinish(choice.finish_reason);
  }

  /** Text held back by the think-tag splitter. */
  *flush(): Generator<StreamChunk> {
    yield* splitChunks(this.splitter.end());
  }

  /** The assembled calls, or the index of the first one that never received a function name. */
  completeCalls(): { calls: ToolCall[] } | { unnamedIndex: number } {
    const complete: ToolCall[] = [];
    for (const [index, call] of this.calls.entries()) {
      if (call.name === '') return { unnamedIndex: index };
      complete.push({ id: call.id || newCallId(index), name: call.name, arguments: call.arguments || '{}' });
    }
    return { calls: complete };
  }

  private addFragment(fragment: ToolCallFragment): void {
    let call = this.open.get(fragment.index);
    // Some servers send parallel calls complete, all at index 0: a new id starts a new call.
    if (!call || (fragment.id && call.id && fragment.id !== call.id)) {
      call = { id: '', name: '', arguments: '' };
      this.calls.push(call);
      this.open.set(fragment.index, call);
    }
    if (fragment.id) call.id = fragment.id;
    const name = fragment.function?.name;
    // OpenAI sends the name once; some servers repeat it on every fragment.
    if (name && name !== call.name) call.name += name;
    if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
  }
}

function openAIClient(options: OpenAIProviderOptions, baseURL: string): OpenAI {
  return new OpenAI({
    apiKey: options.apiKey || NO_KEY_PLACEHOLDER,
    baseURL,
    maxRetries: 0, // retry.ts owns retries so that each one is visible and charged (SYN-1)
    logLevel: 'off',
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
}

export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const baseURL = options.baseUrl || OPENAI_DEFAULT_BASE_URL;
  const secrets = options.apiKey ? [options.apiKey] : [];
  const clock = options.clock ?? systemClock;
  const url = parseBaseUrl(baseURL);
  const maxTokensField =
    options.maxTokensField ?? (url.hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens');
  const client = openAIClient(options, baseURL);

  const { failureOf, protocolError } = sdkStreamFailures(PROVIDER_ID, { APIError, APIConnectionError }, secrets, clock);

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const signal = request.signal;
    const reader = new CompletionChunkReader();
    const open = async (requestSignal: AbortSignal | undefined) => {
      const body = toOpenAIBody(request, options.model, maxTokensField);
      return client.chat.completions.create(body, requestSignal ? { signal: requestSignal } : {});
    };
    if (!(yield* readSdkStream(signal, open, (chunk) => reader.read(chunk), failureOf))) return;
    yield* reader.flush();
    const finish = reader.finish;
    if (finish === undefined) {
      yield protocolError('the stream ended without a finish reason (connection closed early?)', true);
      return;
    }
    const assembled = reader.completeCalls();
    if ('unnamedIndex' in assembled) {
      yield protocolError(`tool call #${assembled.unnamedIndex} arrived without a function name`, false);
      return;
    }
    for (const call of assembled.calls) yield { type: 'tool_call', call };
    if (reader.usage) yield { type: 'usage', usage: reader.usage };
    // Some servers (older Ollama) report `stop` even when the message carries tool calls.
    yield { type: 'finish', reason: assembled.calls.length > 0 && finish === 'stop' ? 'tool_calls' : finish };
  }

  return { id: PROVIDER_ID, model: options.model, stream };
}
