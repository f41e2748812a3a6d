import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectStream, createProvider, MissingApiKeyError, ProviderConfigSchema } from '../../../src/core/llm';
import { startModelServer } from '../../fixtures/model-server';
import { API_KEY, request } from './helpers';

test('ADD-1: provider settings are validated; a bad base URL or empty model is refused with the field named', () => {
  assert.equal(
    ProviderConfigSchema.safeParse({ kind: 'openai', model: 'qwen2.5-coder:14b', baseUrl: 'http://localhost:11434/v1' })
      .success,
    true,
  );
  const badUrl = ProviderConfigSchema.safeParse({ kind: 'openai', model: 'm', baseUrl: 'file:///etc/passwd' });
  assert.equal(badUrl.success, false);
  assert.deepEqual(badUrl.error?.issues[0]?.path, ['baseUrl']);
  assert.deepEqual(ProviderConfigSchema.safeParse({ kind: 'anthropic', model: '' }).error?.issues[0]?.path, ['model']);
  assert.equal(ProviderConfigSchema.safeParse({ kind: 'vscode-lm', model: 'x' }).success, false);
});

test('ADD-1: anthropic without a key is refused up front; an OpenAI-compatible local server needs none', async () => {
  assert.throws(() => createProvider({ kind: 'anthropic', model: 'm' }, undefined), MissingApiKeyError);
  const server = await startModelServer([{ text: 'local' }, { text: 'claude' }]);
  try {
    const local = createProvider({ kind: 'openai', model: 'llama', baseUrl: server.openaiBaseUrl }, undefined);
    const outcome = await collectStream(local.stream(request()));
    assert.equal(outcome.response.text, 'local');
    const claude = createProvider({ kind: 'anthropic', model: 'claude', baseUrl: server.anthropicBaseUrl }, API_KEY);
    assert.equal((await collectStream(claude.stream(request()))).response.text, 'claude');
    assert.deepEqual([local.id, claude.id, claude.model], ['openai', 'anthropic', 'claude']);
  } finally {
    await server.close();
  }
});

test('ADD-1: a base URL without http(s) is refused when the provider is built', async () => {
  const { createAnthropicProvider, createOpenAIProvider } = await import('../../../src/core/llm');
  assert.throws(
    () => createOpenAIProvider({ model: 'm', baseUrl: 'localhost:11434/v1' }),
    /invalid base URL "localhost:11434\/v1"/,
  );
  assert.throws(() => createAnthropicProvider({ model: 'm', apiKey: API_KEY, baseUrl: 'ftp://x' }), /invalid base URL/);
});
