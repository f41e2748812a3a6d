/**
 * A model for tests that need a turn to keep running: it streams one delta, then answers nothing
 * until the request is cancelled (EXEC-5).
 */
import type { ModelProvider, ModelRequest, StreamChunk } from '../../../src/core/llm';

export class HangingModel implements ModelProvider {
  readonly id = 'hanging';
  readonly model = 'hanging';
  async *stream(request: ModelRequest): AsyncIterable<StreamChunk> {
    yield { type: 'text_delta', text: 'Reading the greeter first.' };
    await new Promise<void>((resolve) => {
      if (request.signal?.aborted) resolve();
      request.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    yield { type: 'cancelled' };
  }
}
