import {
  createAnthropicProvider,
  createOpenAIProvider,
  type ModelProvider,
  type ModelRequest,
  type StreamChunk,
} from '../../../src/core/llm';
import type { ModelServer } from '../../fixtures/model-server';

export const API_KEY = 'sk-test-0123456789abcdef';

export interface ProviderCase {
  name: 'openai' | 'anthropic';
  make(server: ModelServer, apiKey?: string): ModelProvider;
}

export const PROVIDERS: ProviderCase[] = [
  {
    name: 'openai',
    make: (server, apiKey = API_KEY) =>
      createOpenAIProvider({ model: 'scripted-model', baseUrl: server.openaiBaseUrl, apiKey }),
  },
  {
    name: 'anthropic',
    make: (server, apiKey = API_KEY) =>
      createAnthropicProvider({ model: 'scripted-model', baseUrl: server.anthropicBaseUrl, apiKey }),
  },
];

export const READ_FILE_TOOL = {
  name: 'read_file',
  description: 'Read a file of the workspace.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
};

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are the planning agent.',
    messages: [{ role: 'user', content: 'Plan the change.' }],
    tools: [READ_FILE_TOOL],
    maxOutputTokens: 512,
    ...overrides,
  };
}

export async function drain(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

export function deltas(chunks: StreamChunk[], type: 'text_delta' | 'reasoning_delta'): string[] {
  return chunks.flatMap((c) => (c.type === type ? [c.text] : []));
}

/** Records requested waits without waiting. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}
