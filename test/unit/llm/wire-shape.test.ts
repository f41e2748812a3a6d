/**
 * ADD-1: the scripted model server refuses, as the real OpenAI and Anthropic endpoints do, a
 * conversation whose shape they refuse, with their 400 invalid_request_error, so the real SDK raises
 * its BadRequestError. Each case goes through the real SDK over HTTP.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(() => server.close());
beforeEach(() => {
  server.enqueue({ text: 'scripted answer' });
});

const CALL = { id: 'call_1', type: 'function' as const, function: { name: 'read_file', arguments: '{}' } };
const USE = { type: 'tool_use' as const, id: 'toolu_1', name: 'read_file', input: {} };
const RESULT = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'file text' };

function openai(): OpenAI {
  return new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'k', maxRetries: 0 });
}

function anthropic(): Anthropic {
  return new Anthropic({ baseURL: server.anthropicBaseUrl, apiKey: 'k', maxRetries: 0 });
}

async function openAIText(messages: ChatCompletionMessageParam[]): Promise<string> {
  let text = '';
  const stream = await openai().chat.completions.create({ model: 'm', messages, stream: true });
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

async function anthropicText(messages: MessageParam[]): Promise<string> {
  let text = '';
  const stream = await anthropic().messages.create({ model: 'm', max_tokens: 64, messages, stream: true });
  for await (const event of stream) {
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
  }
  return text;
}

/** The SDK's own 400 error carrying the provider's message; the scripted turn stays unconsumed. */
async function assertRefused(
  attempt: Promise<unknown>,
  ErrorClass: typeof OpenAI.BadRequestError | typeof Anthropic.BadRequestError,
  message: RegExp,
): Promise<void> {
  await assert.rejects(attempt, (err: unknown) => {
    assert.ok(err instanceof ErrorClass, `a ${ErrorClass.name}, got ${String(err)}`);
    assert.equal(err.status, 400);
    assert.match(JSON.stringify(err.error), /"invalid_request_error"/);
    assert.match(err.message, message);
    return true;
  });
  assert.equal(server.pending(), 1, 'a refused request consumes no scripted turn');
  assert.equal(await openAIText([{ role: 'user', content: 'drain' }]), 'scripted answer');
}

const OPENAI_REFUSED: { name: string; messages: unknown[]; message: RegExp }[] = [
  {
    name: 'a tool message with no assistant tool_calls before it',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'call_1', content: 'x' },
    ],
    message: /messages with role 'tool' must be a response to a preceeding message with 'tool_calls'/,
  },
  {
    name: 'a tool message answering an id the assistant never called',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [CALL] },
      { role: 'tool', tool_call_id: 'call_other', content: 'x' },
    ],
    message: /must be a response to a preceeding message with 'tool_calls'/,
  },
  {
    name: 'a tool message separated from its call by a user message',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [CALL] },
      { role: 'tool', tool_call_id: 'call_1', content: 'x' },
      { role: 'user', content: 'more' },
      { role: 'tool', tool_call_id: 'call_1', content: 'again' },
    ],
    message: /must be a response to a preceeding message with 'tool_calls'/,
  },
  {
    name: 'a tool call left unanswered',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [CALL, { ...CALL, id: 'call_2' }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'x' },
      { role: 'user', content: 'next' },
    ],
    message: /The following tool_call_ids did not have response messages: call_2/,
  },
  {
    name: 'a user message with content undefined',
    messages: [{ role: 'user', content: undefined }],
    message: /Missing required parameter: 'messages\[0\]\.content'/,
  },
  {
    name: 'an assistant message with null content and no tool_calls',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'again' },
    ],
    message: /expected a string, got null/,
  },
  {
    name: 'an empty tool_calls array',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'x', tool_calls: [] },
    ],
    message: /tool_calls': empty array/,
  },
  { name: 'no messages', messages: [], message: /\[\] is too short - 'messages'/ },
];

describe('OpenAI chat completions wire', () => {
  for (const c of OPENAI_REFUSED) {
    test(`ADD-1: refuses ${c.name} with a 400 BadRequestError`, async () => {
      await assertRefused(openAIText(c.messages as ChatCompletionMessageParam[]), OpenAI.BadRequestError, c.message);
    });
  }

  test('ADD-1: accepts a full tool round (system, user, calls, answers, text, user)', async () => {
    const text = await openAIText([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [CALL, { ...CALL, id: 'call_2' }] },
      { role: 'tool', tool_call_id: 'call_2', content: '' },
      { role: 'tool', tool_call_id: 'call_1', content: 'x' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: '' },
    ]);
    assert.equal(text, 'scripted answer');
  });
});

const ANTHROPIC_REFUSED: { name: string; messages: unknown[]; message: RegExp }[] = [
  {
    name: 'a tool_result with no tool_use in the previous message',
    messages: [{ role: 'user', content: [RESULT] }],
    message: /unexpected `tool_use_id` found in `tool_result` blocks: toolu_1/,
  },
  {
    name: 'a tool_result answering a tool_use two messages back',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [USE] },
      { role: 'user', content: [RESULT] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ ...RESULT, content: 'again' }] },
    ],
    message: /messages\.4\.content\.0: unexpected `tool_use_id`/,
  },
  {
    name: 'a tool_use with no tool_result right after',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [USE] },
      { role: 'user', content: 'go on' },
    ],
    message: /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
  },
  {
    name: 'a tool_result behind a text block',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [USE] },
      { role: 'user', content: [{ type: 'text', text: 'first' }, RESULT] },
    ],
    message: /without `tool_result` blocks immediately after/,
  },
  {
    name: 'an assistant first message',
    messages: [{ role: 'assistant', content: 'hello' }],
    message: /first message must use the .{0,2}user.{0,2} role/,
  },
  {
    name: 'two user messages in a row',
    messages: [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ],
    message: /roles must alternate/,
  },
  {
    name: 'an empty user message',
    messages: [{ role: 'user', content: '' }],
    message: /all messages must have non-empty content except for the optional final assistant message/,
  },
  {
    name: 'an empty assistant message before the last',
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [] },
      { role: 'user', content: 'b' },
    ],
    message: /messages\.1: all messages must have non-empty content/,
  },
  {
    name: 'an empty text block',
    messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }],
    message: /text content blocks must be non-empty/,
  },
  {
    name: 'a whitespace-only text block',
    messages: [{ role: 'user', content: [{ type: 'text', text: ' \n' }] }],
    message: /text content blocks must contain non-whitespace text/,
  },
  {
    name: 'a message with content undefined',
    messages: [{ role: 'user', content: undefined }],
    message: /messages\.0\.content: Field required/,
  },
  { name: 'no messages', messages: [], message: /at least one message is required/ },
];

describe('Anthropic messages wire', () => {
  for (const c of ANTHROPIC_REFUSED) {
    test(`ADD-1: refuses ${c.name} with a 400 BadRequestError`, async () => {
      await assertRefused(anthropicText(c.messages as MessageParam[]), Anthropic.BadRequestError, c.message);
    });
  }

  test('ADD-1: accepts a full tool round ending in an empty assistant prefill', async () => {
    const text = await anthropicText([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'reading' }, USE] },
      { role: 'user', content: [RESULT, { type: 'text', text: 'and then?' }] },
      { role: 'assistant', content: [] },
    ]);
    assert.equal(text, 'scripted answer');
  });
});
