import type { FinishReason, Message, ProviderFailure, ReasoningBlock, StreamChunk, ToolCall, Usage } from './provider';

/** Everything one model response produced, kept apart: text is the answer, reasoning is private (SYN-2). */
export interface ModelResponse {
  text: string;
  reasoning: string;
  reasoningBlocks: ReasoningBlock[];
  toolCalls: ToolCall[];
  usage?: Usage;
}

export type StreamOutcome =
  | { status: 'completed'; finishReason: FinishReason; response: ModelResponse }
  /** `response` holds whatever arrived before the failure. */
  | { status: 'failed'; failure: ProviderFailure; response: ModelResponse }
  | { status: 'cancelled'; response: ModelResponse };

function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  const sum: Usage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  }
  return sum;
}

/**
 * Drains a stream into one outcome, handing every chunk to `onChunk` first (the runloop turns
 * deltas into events there). A stream that ends without a terminal chunk is a protocol failure.
 */
export async function collectStream(
  stream: AsyncIterable<StreamChunk>,
  onChunk?: (chunk: StreamChunk) => void | Promise<void>,
): Promise<StreamOutcome> {
  const response: ModelResponse = { text: '', reasoning: '', reasoningBlocks: [], toolCalls: [] };
  for await (const chunk of stream) {
    await onChunk?.(chunk);
    switch (chunk.type) {
      case 'text_delta':
        response.text += chunk.text;
        break;
      case 'reasoning_delta':
        response.reasoning += chunk.text;
        break;
      case 'reasoning_block':
        response.reasoningBlocks.push(chunk.block);
        break;
      case 'tool_call':
        response.toolCalls.push(chunk.call);
        break;
      case 'usage':
        response.usage = addUsage(response.usage, chunk.usage);
        break;
      case 'finish':
        return { status: 'completed', finishReason: chunk.reason, response };
      case 'error':
        return { status: 'failed', failure: chunk.failure, response };
      case 'cancelled':
        return { status: 'cancelled', response };
    }
  }
  return {
    status: 'failed',
    failure: {
      kind: 'protocol',
      provider: 'unknown',
      retryable: false,
      message: 'the stream ended without a terminal chunk',
    },
    response,
  };
}

/** The history entry for a response: answer text and tool calls, plus reasoning blocks a provider must get back. */
export function assistantMessage(response: ModelResponse): Message {
  const message: Message = { role: 'assistant', content: response.text };
  if (response.toolCalls.length > 0) message.toolCalls = [...response.toolCalls];
  if (response.reasoningBlocks.length > 0) message.reasoning = [...response.reasoningBlocks];
  return message;
}
