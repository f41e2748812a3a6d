/**
 * EXEC-2, ADD-1: histories the session really builds (an empty assistant turn, a call whose result
 * never came, an orphaned result, a directive inside a tool batch) reach each provider in a shape
 * its real endpoint accepts; the scripted server refuses any other shape with the provider's 400.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../../src/core/llm';
import { startModelServer } from '../../fixtures/model-server';
import { API_KEY, deltas, drain, PROVIDERS, request, type ProviderCase } from './helpers';

/** The answer text of one request carrying `messages`, on a server of its own: a refused request
 * leaves its turn queued, which must not spill into the next case. */
async function answer(provider: ProviderCase, messages: Message[]): Promise<string[]> {
  const server = await startModelServer([{ text: 'accepted' }], { apiKey: API_KEY });
  try {
    const chunks = await drain(provider.make(server).stream(request({ messages })));
    assert.deepEqual(
      chunks.filter((c) => c.type === 'error'),
      [],
    );
    return deltas(chunks, 'text_delta');
  } finally {
    await server.close();
  }
}

const CALL = { id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' };

const HISTORIES: { name: string; messages: Message[] }[] = [
  {
    name: 'an empty assistant turn between two user messages',
    messages: [
      { role: 'user', content: 'Plan the change.' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'Go on.' },
    ],
  },
  {
    name: 'a tool call whose result never came',
    messages: [
      { role: 'user', content: 'Plan the change.' },
      { role: 'assistant', content: 'Reading.', toolCalls: [CALL] },
      { role: 'user', content: 'Go on.' },
    ],
  },
  {
    name: 'a result answering no call',
    messages: [
      { role: 'user', content: 'Plan the change.' },
      { role: 'tool', toolCallId: 'call_gone', name: 'read_file', content: 'x' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Go on.' },
    ],
  },
  {
    name: 'a directive landing inside a tool batch, and an assistant turn with calls but no text',
    messages: [
      { role: 'user', content: 'Plan the change.' },
      { role: 'assistant', content: '', toolCalls: [CALL, { ...CALL, id: 'call_2' }] },
      { role: 'user', content: 'Synthesise now.' },
      { role: 'tool', toolCallId: 'call_2', name: 'read_file', content: 'two' },
      { role: 'tool', toolCallId: 'call_1', name: 'read_file', content: 'one', isError: true },
    ],
  },
];

for (const p of PROVIDERS) {
  describe(`${p.name} history`, () => {
    for (const h of HISTORIES) {
      test(`EXEC-2: ${p.name} sends ${h.name} in a shape the endpoint accepts`, async () => {
        assert.deepEqual(await answer(p, h.messages), ['accepted']);
      });
    }
  });
}
