import Anthropic, { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
  RawMessageDeltaEvent,
  RawMessageStartEvent,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
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
  type Usage,
} from './provider';
import { requestView } from './request-view';

const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  model: string;
  baseUrl?: string;
  apiKey: string;
  /** Extended thinking budget; omitted = thinking off. Must stay below `maxOutputTokens`. */
  thinkingBudgetTokens?: number;
  timeoutMs?: number;
  clock?: Clock;
}

const PROVIDER_ID = 'anthropic';

function mapStop(reason: StopReason): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    // A paused server-tool turn (we send no server tools), or a reason newer than the SDK's types.
    case 'pause_turn':
    default:
      return 'other';
  }
}

function toolInput(argumentsJson: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(argumentsJson);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Invalid arguments were already answered with an error result; the wire needs an object.
  }
  return {};
}

/**
 * Messages must alternate user/assistant, tool results travel as `tool_result` blocks in the
 * next user message, and empty text blocks are rejected: consecutive same-role entries merge,
 * empty assistant turns are dropped.
 */
function toAnthropicMessages(request: ModelRequest): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: [...blocks] });
  };
  for (const m of requestView(request.messages)) {
    if (m.role === 'user') {
      if (m.content !== '') append('user', [{ type: 'text', text: m.content }]);
    } else if (m.role === 'tool') {
      const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content };
      if (m.isError) block.is_error = true;
      append('user', [block]);
    } else {
      const blocks: ContentBlockParam[] = [];
      for (const r of m.reasoning ?? []) {
        blocks.push(
          r.kind === 'thinking'
            ? { type: 'thinking', thinking: r.text, signature: r.signature }
            : { type: 'redacted_thinking', data: r.data },
        );
      }
      if (m.content !== '') blocks.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) });
      append('assistant', blocks);
    }
  }
  return out;
}

function toAnthropicBody(
  request: ModelRequest,
  model: string,
  thinkingBudgetTokens: number | undefined,
): MessageCreateParamsStreaming {
  const body: MessageCreateParamsStreaming = {
    model,
    max_tokens: request.maxOutputTokens,
    messages: toAnthropicMessages(request),
    stream: true,
  };
  if (request.system !== '') body.system = [{ type: 'text', text: request.system } satisfies TextBlockParam];
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: { type: 'object' as const, ...wireParameters(t.parameters) },
    }));
    if (request.toolChoice) {
      body.tool_choice = { type: request.toolChoice === 'required' ? 'any' : request.toolChoice };
    }
  }
  if (thinkingBudgetTokens !== undefined) body.thinking = { type: 'enabled', budget_tokens: thinkingBudgetTokens };
  return body;
}

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking'; text: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; initialInput: unknown }
  | { kind: 'other' };

/**
 * Folds the server-sent events of one message into stream chunks, and keeps what the end of the
 * stream is judged by: usage, the stop reason and whether `message_stop` arrived.
 */
class MessageEventReader {
  private readonly blocks = new Map<number, OpenBlock>();
  readonly usage: Usage = { inputTokens: 0, outputTokens: 0 };
  sawUsage = false;
  finish: FinishReason | undefined;
  stopped = false;

  *read(event: RawMessageStreamEvent): Generator<StreamChunk> {
    switch (event.type) {
      case 'message_start':
        this.startUsage(event.message.usage);
        break;
      case 'content_block_start':
        yield* this.openBlock(event.index, event.content_block);
        break;
      case 'content_block_delta':
        yield* this.extendBlock(event.index, event.delta);
        break;
      case 'content_block_stop':
        yield* this.closeBlock(event.index);
        break;
      case 'message_delta':
        this.endMessage(event);
        break;
      case 'message_stop':
        this.stopped = true;
        break;
    }
  }

  private startUsage(u: RawMessageStartEvent['message']['usage']): void {
    this.usage.inputTokens = u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    this.usage.outputTokens = u.output_tokens;
    if (u.cache_read_input_tokens) this.usage.cachedInputTokens = u.cache_read_input_tokens;
    this.sawUsage = true;
  }

  private *openBlock(index: number, b: RawContentBlockStartEvent['content_block']): Generator<StreamChunk> {
    if (b.type === 'text') {
      this.blocks.set(index, { kind: 'text' });
      if (b.text) yield { type: 'text_delta', text: b.text };
    } else if (b.type === 'thinking') {
      this.blocks.set(index, { kind: 'thinking', text: b.thinking, signature: b.signature });
      if (b.thinking) yield { type: 'reasoning_delta', text: b.thinking };
    } else if (b.type === 'redacted_thinking') {
      this.blocks.set(index, { kind: 'redacted', data: b.data });
    } else if (b.type === 'tool_use') {
      this.blocks.set(index, { kind: 'tool_use', id: b.id, name: b.name, json: '', initialInput: b.input });
    } else {
      this.blocks.set(index, { kind: 'other' });
    }
  }

  private *extendBlock(index: number, d: RawContentBlockDeltaEvent['delta']): Generator<StreamChunk> {
    const block = this.blocks.get(index);
    if (d.type === 'text_delta') yield { type: 'text_delta', text: d.text };
    else if (d.type === 'thinking_delta') {
      if (block?.kind === 'thinking') block.text += d.thinking;
      yield { type: 'reasoning_delta', text: d.thinking };
    } else if (d.type === 'signature_delta' && block?.kind === 'thinking') block.signature += d.signature;
    else if (d.type === 'input_json_delta' && block?.kind === 'tool_use') block.json += d.partial_json;
  }

  private *closeBlock(index: number): Generator<StreamChunk> {
    const block = this.blocks.get(index);
    if (block?.kind === 'thinking' && block.signature !== '') {
      yield { type: 'reasoning_block', block: { kind: 'thinking', text: block.text, signature: block.signature } };
    } else if (block?.kind === 'redacted') {
      yield { type: 'reasoning_block', block: { kind: 'redacted', data: block.data } };
    } else if (block?.kind === 'tool_use') {
      const args = block.json !== '' ? block.json : JSON.stringify(block.initialInput ?? {});
      yield { type: 'tool_call', call: { id: block.id, name: block.name, arguments: args } };
    }
    this.blocks.delete(index);
  }

  private endMessage(event: RawMessageDeltaEvent): void {
    if (event.delta.stop_reason) this.finish = mapStop(event.delta.stop_reason);
    // message_delta usage is cumulative for the message.
    this.usage.outputTokens = event.usage.output_tokens;
    const thinking = event.usage.output_tokens_details?.thinking_tokens;
    if (typeof thinking === 'number') this.usage.reasoningTokens = thinking;
    this.sawUsage = true;
  }
}

function anthropicClient(options: AnthropicProviderOptions): Anthropic {
  const baseURL = options.baseUrl || ANTHROPIC_DEFAULT_BASE_URL;
  parseBaseUrl(baseURL);
  return new Anthropic({
    apiKey: options.apiKey,
    baseURL,
    maxRetries: 0, // retry.ts owns retries so that each one is visible and charged (SYN-1)
    logLevel: 'off',
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
}

export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const secrets = [options.apiKey];
  const clock = options.clock ?? systemClock;
  const client = anthropicClient(options);

  const { failureOf, protocolError } = sdkStreamFailures(PROVIDER_ID, { APIError, APIConnectionError }, secrets, clock);

  async function* stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
    const signal = request.signal;
    const reader = new MessageEventReader();
    const open = async (requestSignal: AbortSignal | undefined) => {
      const body = toAnthropicBody(request, options.model, options.thinkingBudgetTokens);
      return (await client.messages.create(
        body,
        requestSignal ? { signal: requestSignal } : {},
      )) as AsyncIterable<RawMessageStreamEvent>;
    };
    if (!(yield* readSdkStream(signal, open, (event) => reader.read(event), failureOf))) return;
    if (!reader.stopped || reader.finish === undefined) {
      yield protocolError('the stream ended before message_stop (connection closed early?)', true);
      return;
    }
    if (reader.sawUsage) yield { type: 'usage', usage: reader.usage };
    yield { type: 'finish', reason: reader.finish };
  }

  return { id: PROVIDER_ID, model: options.model, stream };
}
