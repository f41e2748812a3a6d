/**
 * A session without a model or tools worth the name, for figures about the runtime around them:
 * a model that answers at once from a script and tools that do no work.
 */
import type { ModelProvider, ModelRequest, StreamChunk, ToolCall } from '../../src/core/llm';
import type { PromptTemplates } from '../../src/core/session/prompts';
import type { ToolRuntime } from '../../src/core/session/tool-runtime';
import type { TurnSettings } from '../../src/core/session/turn-settings';

export const PROMPTS: PromptTemplates = {
  plan: 'plan {{workspace}}',
  build: 'build {{workspace}} {{agent}} {{confirmation}}',
  synthesis: 'synthesise: {{reason}}',
  recovery: 'recover: {{reason}}',
  condense: 'condense',
};

export const UNLIMITED: TurnSettings = {
  limits: {
    maxConsecutiveBlocked: 8,
    toolCallsPerTurn: 0,
    loopsPerTurn: 0,
    maxOutputTokens: 4096,
    sessionToolCalls: 0,
  },
  commands: { timeoutMs: 10_000, network: 'default' },
  planConfirmation: 'required',
};

/** Answers instantly: `batches` responses of `perBatch` tool calls, then one plain answer, per turn. */
export class ScriptedModel implements ModelProvider {
  readonly id = 'scripted';
  readonly model = 'zero-latency';
  private step = 0;
  private next = 0;
  constructor(
    private readonly batches: number,
    private readonly perBatch: number,
    /** Text streamed before each batch and as the answer, in `chunks` deltas. */
    private readonly text = { before: 'Looking.', answer: 'Done.', chunks: 1 },
  ) {}

  private *deltas(text: string): Iterable<StreamChunk> {
    const size = Math.ceil(text.length / this.text.chunks);
    for (let i = 0; i < text.length; i += size) yield { type: 'text_delta', text: text.slice(i, i + size) };
  }

  async *stream(_request: ModelRequest): AsyncIterable<StreamChunk> {
    if (this.step < this.batches) {
      this.step += 1;
      yield* this.deltas(this.text.before);
      for (let i = 0; i < this.perBatch; i++) {
        const call: ToolCall = { id: `c${this.next++}`, name: 'read_file', arguments: `{"path":"src/f${i}.ts"}` };
        yield { type: 'tool_call', call };
      }
      yield { type: 'finish', reason: 'tool_calls' };
      return;
    }
    this.step = 0;
    yield* this.deltas(this.text.answer);
    yield { type: 'finish', reason: 'stop' };
  }
}

/** Tools that do no work and return `content`, so what is measured is the runtime around them. */
export function trivialTools(content = 'ok'): ToolRuntime {
  return {
    definitions: () => [
      {
        name: 'read_file',
        description: 'read',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ],
    execute: async () => ({ kind: 'result', ok: true, content, class: 'inspection', empty: false, truncated: false }),
    isolation: async () => ({ sandboxed: true, summary: 'sandbox: not used by this bench' }),
  };
}
