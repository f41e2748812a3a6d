import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startModelServer } from '../../fixtures/model-server';

// The fixture refuses a conversation a real endpoint refuses (see wire-shape.test.ts).
const HELLO = [{ role: 'user', content: 'hello' }];

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

test('ADD-1: the fixture answers non-streaming requests and an empty script with a clear 400, and records them', async () => {
  const server = await startModelServer([{ text: 'x' }]);
  try {
    const nonStream = await post(`${server.openaiBaseUrl}/chat/completions`, { model: 'm', messages: [] });
    assert.equal(nonStream.status, 400);
    assert.match(nonStream.text, /only streaming requests/);
    assert.equal(server.pending(), 1, 'a refused request consumes no turn');
    const first = await post(
      `${server.anthropicBaseUrl}/v1/messages`,
      { stream: true, messages: HELLO },
      { authorization: 'Bearer secret-value-1' },
    );
    assert.equal(first.status, 200);
    assert.match(first.text, /event: message_stop/);
    const empty = await post(`${server.openaiBaseUrl}/chat/completions`, { stream: true, messages: HELLO });
    assert.equal(empty.status, 400);
    assert.match(empty.text, /no scripted turn left/);
    assert.deepEqual(
      server.requests.map((r) => [r.api, r.path]),
      [
        ['openai', '/openai/v1/chat/completions'],
        ['anthropic', '/anthropic/v1/messages'],
        ['openai', '/openai/v1/chat/completions'],
      ],
    );
    assert.ok(!JSON.stringify(server.requests).includes('secret-value-1'), 'authorization is not recorded');
  } finally {
    await server.close();
  }
});

test('ADD-1: the OpenAI wire ends with [DONE] and carries usage only when asked', async () => {
  const server = await startModelServer([{ text: 'a' }, { text: 'b' }]);
  try {
    const withUsage = await post(`${server.openaiBaseUrl}/chat/completions`, {
      stream: true,
      messages: HELLO,
      stream_options: { include_usage: true },
    });
    const without = await post(`${server.openaiBaseUrl}/chat/completions`, { stream: true, messages: HELLO });
    assert.match(withUsage.text, /"usage":\{"prompt_tokens":10/);
    assert.doesNotMatch(without.text, /"usage"/);
    assert.ok(withUsage.text.endsWith('data: [DONE]\n\n'));
  } finally {
    await server.close();
  }
});
