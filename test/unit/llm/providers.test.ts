import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectStream, streamWithRetry, type StreamChunk } from '../../../src/core/llm';
import { splitEvery, startModelServer, type ModelServer } from '../../fixtures/model-server';
import { API_KEY, deltas, drain, PROVIDERS, READ_FILE_TOOL, recordingSleep, request } from './helpers';

let server: ModelServer;
before(async () => {
  server = await startModelServer([], { apiKey: API_KEY });
});
after(() => server.close());
beforeEach(() => {
  assert.equal(server.pending(), 0, 'a previous test left scripted turns unconsumed');
  server.requests.length = 0;
});

for (const p of PROVIDERS) {
  describe(`${p.name} provider`, () => {
    test(`ADD-1: ${p.name} streams text deltas in order and finishes with stop`, async () => {
      server.enqueue({ text: ['Looking ', 'at the ', 'repository.'], usage: { input: 42, output: 7 } });
      const chunks = await drain(p.make(server).stream(request()));
      assert.deepEqual(deltas(chunks, 'text_delta'), ['Looking ', 'at the ', 'repository.']);
      assert.deepEqual(chunks.at(-1), { type: 'finish', reason: 'stop' });
      const usage = chunks.find((c) => c.type === 'usage');
      assert.ok(usage && usage.type === 'usage');
      assert.equal(usage.usage.inputTokens, 42);
      assert.equal(usage.usage.outputTokens, 7);
    });

    test(`ADD-1: ${p.name} keeps a <proposed_plan> tag split across deltas intact`, async () => {
      const text = 'Done.\n<proposed_plan>\n# Plan\n</proposed_plan>\n';
      server.enqueue({ text: splitEvery(text, 3) });
      const outcome = await collectStream(p.make(server).stream(request()));
      assert.equal(outcome.status, 'completed');
      assert.equal(outcome.response.text, text);
    });

    test(`ADD-1: ${p.name} joins fragmented tool-call arguments and emits complete calls`, async () => {
      server.enqueue({
        text: 'Reading two files.',
        toolCalls: [
          { id: 'call_a', name: 'read_file', arguments: ['{"pa', 'th": "src/', 'a.ts"}'] },
          { id: 'call_b', name: 'read_file', arguments: ['{', '"path":', '"src/b.ts"', '}'] },
        ],
      });
      const chunks = await drain(p.make(server).stream(request()));
      const calls = chunks.flatMap((c) => (c.type === 'tool_call' ? [c.call] : []));
      assert.deepEqual(calls, [
        { id: 'call_a', name: 'read_file', arguments: '{"path": "src/a.ts"}' },
        { id: 'call_b', name: 'read_file', arguments: '{"path":"src/b.ts"}' },
      ]);
      assert.deepEqual(chunks.at(-1), { type: 'finish', reason: 'tool_calls' });
    });

    test(`SYN-2: ${p.name} reasoning arrives as reasoning deltas and never as text`, async () => {
      server.enqueue({ reasoning: ['Let me ', 'think.'], text: 'Answer.' });
      const outcome = await collectStream(p.make(server).stream(request()));
      assert.equal(outcome.status, 'completed');
      assert.equal(outcome.response.reasoning, 'Let me think.');
      assert.equal(outcome.response.text, 'Answer.');
    });

    test(`SYN-1: ${p.name} finish reason length is reported as truncation`, async () => {
      server.enqueue({ text: '<proposed_plan>\n# Half a pl', finishReason: 'length' });
      const outcome = await collectStream(p.make(server).stream(request()));
      assert.equal(outcome.status, 'completed');
      assert.equal(outcome.status === 'completed' && outcome.finishReason, 'length');
    });

    test(`SYN-1: ${p.name} 500 then success is retried once and the retry is reported`, async () => {
      server.enqueue({ status: 500 }, { text: 'Recovered.' });
      const notices: number[] = [];
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request(), {
          baseDelayMs: 1,
          onRetry: (n) => notices.push(n.failure.status ?? -1),
        }),
      );
      assert.equal(outcome.status, 'completed');
      assert.equal(outcome.response.text, 'Recovered.');
      assert.deepEqual(notices, [500]);
      assert.equal(server.requests.length, 2);
    });

    test(`SYN-1: ${p.name} 429 honours retry-after (seconds and milliseconds)`, async () => {
      server.enqueue(
        { status: 429, headers: { 'retry-after': '2' } },
        { status: 429, headers: { 'retry-after-ms': '35' } },
        { text: 'ok' },
      );
      const { waits, sleep } = recordingSleep();
      const outcome = await collectStream(streamWithRetry(p.make(server), request(), { sleep, baseDelayMs: 1 }));
      assert.equal(outcome.status, 'completed');
      assert.deepEqual(waits, [2000, 35]);
    });

    test(`SYN-1: ${p.name} exhausted retries end in a typed failure with the attempt count`, async () => {
      server.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
      const notices: number[] = [];
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request(), {
          maxRetries: 2,
          baseDelayMs: 1,
          onRetry: (n) => notices.push(n.retry),
        }),
      );
      assert.equal(outcome.status, 'failed');
      assert.ok(outcome.status === 'failed');
      assert.equal(outcome.failure.kind, 'http');
      assert.equal(outcome.failure.status, 503);
      assert.equal(outcome.failure.retryable, true);
      assert.equal(outcome.failure.attempts, 3);
      assert.equal(outcome.failure.provider, p.name);
      assert.deepEqual(notices, [1, 2]);
    });

    test(`SYN-1: ${p.name} a 400 is not retried`, async () => {
      server.enqueue({ status: 400, errorMessage: 'context length exceeded' });
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request(), { baseDelayMs: 1, onRetry: () => assert.fail('retried') }),
      );
      assert.ok(outcome.status === 'failed');
      assert.equal(outcome.failure.status, 400);
      assert.equal(outcome.failure.retryable, false);
      assert.match(outcome.failure.message, /context length exceeded/);
      assert.equal(server.requests.length, 1);
    });

    test(`SYN-1: ${p.name} a retry-after beyond the cap is not waited for`, async () => {
      server.enqueue({ status: 429, headers: { 'retry-after': '3600' } });
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request(), { onRetry: () => assert.fail('retried') }),
      );
      assert.ok(outcome.status === 'failed');
      assert.equal(outcome.failure.retryAfterMs, 3_600_000);
    });

    test(`SYN-1: ${p.name} an in-stream error before any content is retried`, async () => {
      const type = p.name === 'anthropic' ? 'overloaded_error' : 'server_error';
      server.enqueue({ streamError: { type, message: 'Overloaded' } }, { text: 'second try' });
      let retries = 0;
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request(), { baseDelayMs: 1, onRetry: () => retries++ }),
      );
      assert.equal(outcome.status, 'completed');
      assert.equal(outcome.response.text, 'second try');
      assert.equal(retries, 1);
    });

    test(`SYN-1: ${p.name} a failure after content was streamed is returned, not replayed`, async () => {
      server.enqueue({ text: ['partial ', 'answer'], dropConnection: true });
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request(), { baseDelayMs: 1, onRetry: () => assert.fail('retried') }),
      );
      assert.ok(outcome.status === 'failed');
      assert.equal(outcome.response.text, 'partial answer');
      assert.equal(outcome.failure.attempts, 1);
      assert.equal(server.requests.length, 1);
    });

    test(`EXEC-5: ${p.name} aborting mid-stream yields cancelled and closes the connection`, async () => {
      server.enqueue({ text: ['first ', 'second '], hang: true });
      const controller = new AbortController();
      const seen: StreamChunk[] = [];
      for await (const chunk of streamWithRetry(p.make(server), request({ signal: controller.signal }))) {
        seen.push(chunk);
        if (deltas(seen, 'text_delta').join('') === 'first second ') controller.abort();
      }
      assert.deepEqual(seen.at(-1), { type: 'cancelled' });
      assert.equal(seen.filter((c) => c.type === 'error').length, 0);
      await waitFor(() => server.requests[0]?.clientClosedEarly === true);
    });

    test(`EXEC-5: ${p.name} "Interrupted by user" from the provider is a failure, not a cancellation`, async () => {
      server.enqueue({
        text: 'working',
        streamError: { type: 'invalid_request_error', message: 'Interrupted by user' },
      });
      const outcome = await collectStream(streamWithRetry(p.make(server), request(), { baseDelayMs: 1 }));
      assert.equal(outcome.status, 'failed');
      assert.ok(outcome.status === 'failed');
      assert.match(outcome.failure.message, /Interrupted by user/);
    });

    test(`EXEC-5: ${p.name} aborting during a retry wait cancels without another request`, async () => {
      server.enqueue({ status: 502 });
      const controller = new AbortController();
      const outcome = await collectStream(
        streamWithRetry(p.make(server), request({ signal: controller.signal }), {
          baseDelayMs: 60_000,
          maxDelayMs: 60_000,
          onRetry: () => setTimeout(() => controller.abort(), 5),
        }),
      );
      assert.equal(outcome.status, 'cancelled');
      assert.equal(server.requests.length, 1);
    });

    test(`EXEC-5: ${p.name} an already aborted signal sends no request`, async () => {
      const controller = new AbortController();
      controller.abort();
      const chunks = await drain(p.make(server).stream(request({ signal: controller.signal })));
      assert.deepEqual(chunks, [{ type: 'cancelled' }]);
      assert.equal(server.requests.length, 0);
    });

    test(`ADD-1: ${p.name} a wrong key fails with 401 and the key appears in no message, header or log`, async () => {
      const wrongKey = 'sk-wrong-key-9876543210';
      server.enqueue();
      const logged: string[] = [];
      const original = {
        error: console.error,
        warn: console.warn,
        log: console.log,
        info: console.info,
        debug: console.debug,
      };
      for (const name of ['error', 'warn', 'log', 'info', 'debug'] as const) {
        console[name] = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
      }
      let outcome;
      try {
        outcome = await collectStream(streamWithRetry(p.make(server, wrongKey), request(), { baseDelayMs: 1 }));
      } finally {
        Object.assign(console, original);
      }
      assert.ok(outcome.status === 'failed');
      assert.equal(outcome.failure.status, 401);
      assert.equal(outcome.failure.retryable, false);
      assert.match(outcome.failure.message, /Incorrect API key provided/);
      const everything = JSON.stringify({ outcome, logged, requests: server.requests });
      assert.ok(!everything.includes(wrongKey), 'the wrong key leaked');
      assert.ok(!everything.includes(API_KEY), 'the configured key leaked');
      assert.equal(server.requests[0]?.authorized, false);
    });
  });
}

describe('recorded requests', () => {
  const history = request({
    messages: [
      { role: 'user', content: 'Plan the cache.' },
      {
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
          { id: 'call_2', name: 'read_file', arguments: '{"path":"b.ts"}' },
        ],
      },
      { role: 'tool', toolCallId: 'call_2', name: 'read_file', content: 'B' },
      { role: 'tool', toolCallId: 'call_1', name: 'read_file', content: 'A' },
      { role: 'user', content: 'Directive: synthesize now.' },
    ],
    toolChoice: 'none',
  });

  test('ADD-1, EXEC-2: openai wire carries system first, tools as functions, results on their call ids', async () => {
    server.enqueue({ text: 'ok' });
    const p = PROVIDERS[0];
    assert.ok(p);
    await drain(p.make(server).stream(history));
    const body = server.requests[0]?.body as Record<string, unknown>;
    assert.equal(server.requests[0]?.authorized, true);
    assert.equal(body['model'], 'scripted-model');
    assert.equal(body['stream'], true);
    assert.equal(body['max_tokens'], 512);
    assert.equal(body['tool_choice'], 'none');
    assert.deepEqual(body['tools'], [
      {
        type: 'function',
        function: { name: 'read_file', description: READ_FILE_TOOL.description, parameters: READ_FILE_TOOL.parameters },
      },
    ]);
    assert.deepEqual(body['messages'], [
      { role: 'system', content: 'You are the planning agent.' },
      { role: 'user', content: 'Plan the cache.' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
          { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'A' },
      { role: 'tool', tool_call_id: 'call_2', content: 'B' },
      { role: 'user', content: 'Directive: synthesize now.' },
    ]);
  });

  test('ADD-1, EXEC-2: anthropic wire carries a top-level system, tool_result blocks then the directive', async () => {
    server.enqueue({ text: 'ok' });
    const p = PROVIDERS[1];
    assert.ok(p);
    await drain(p.make(server).stream(history));
    const body = server.requests[0]?.body as Record<string, unknown>;
    assert.deepEqual(body['system'], [{ type: 'text', text: 'You are the planning agent.' }]);
    assert.equal(body['max_tokens'], 512);
    assert.deepEqual(body['tool_choice'], { type: 'none' });
    assert.deepEqual(body['tools'], [
      { name: 'read_file', description: READ_FILE_TOOL.description, input_schema: READ_FILE_TOOL.parameters },
    ]);
    assert.deepEqual(body['messages'], [
      { role: 'user', content: [{ type: 'text', text: 'Plan the cache.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'call_2', name: 'read_file', input: { path: 'b.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'A' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'B' },
          { type: 'text', text: 'Directive: synthesize now.' },
        ],
      },
    ]);
  });

  test('SYN-2: anthropic thinking blocks come back signed on the next request', async () => {
    server.enqueue(
      { reasoning: 'private', toolCalls: [{ name: 'read_file', arguments: '{"path":"x"}' }] },
      { text: 'done' },
    );
    const p = PROVIDERS[1];
    assert.ok(p);
    const provider = p.make(server);
    const first = await collectStream(provider.stream(request()));
    assert.ok(first.status === 'completed');
    assert.deepEqual(first.response.reasoningBlocks, [{ kind: 'thinking', text: 'private', signature: 'sig-1' }]);
    const { assistantMessage } = await import('../../../src/core/llm');
    const call = first.response.toolCalls[0];
    assert.ok(call);
    await drain(
      provider.stream(
        request({
          messages: [
            { role: 'user', content: 'go' },
            assistantMessage(first.response),
            { role: 'tool', toolCallId: call.id, name: call.name, content: 'X' },
          ],
        }),
      ),
    );
    const messages = (server.requests[1]?.body as { messages: { content: { type: string }[] }[] }).messages;
    assert.deepEqual(messages[1]?.content[0], { type: 'thinking', thinking: 'private', signature: 'sig-1' });
    // The private reasoning is not answer text.
    assert.equal(
      messages[1]?.content.some((b) => b.type === 'text'),
      false,
    );
  });

  test('SYN-2: openai reasoning in the `reasoning` field (Ollama, OpenRouter) and in <think> tags is reasoning', async () => {
    server.enqueue(
      { reasoning: 'field reasoning', reasoningField: 'reasoning', text: 'Answer one.' },
      { text: ['<thi', 'nk>tagged ', 'reasoning</th', 'ink>\n\nAnswer two.'] },
    );
    const p = PROVIDERS[0];
    assert.ok(p);
    const one = await collectStream(p.make(server).stream(request()));
    const two = await collectStream(p.make(server).stream(request()));
    assert.deepEqual([one.response.reasoning, one.response.text], ['field reasoning', 'Answer one.']);
    assert.deepEqual([two.response.reasoning, two.response.text], ['tagged reasoning', 'Answer two.']);
  });

  test('ADD-1: openai uses max_completion_tokens for api.openai.com and max_tokens elsewhere unless configured', async () => {
    const { toOpenAIBody } = await import('../../../src/core/llm/openai');
    assert.equal(toOpenAIBody(request(), 'm', 'max_completion_tokens').max_completion_tokens, 512);
    server.enqueue({ text: 'ok' });
    const { createOpenAIProvider } = await import('../../../src/core/llm');
    await drain(
      createOpenAIProvider({
        model: 'm',
        baseUrl: server.openaiBaseUrl,
        apiKey: API_KEY,
        maxTokensField: 'max_completion_tokens',
      }).stream(request({ tools: [] })),
    );
    const body = server.requests[0]?.body as Record<string, unknown>;
    assert.equal(body['max_completion_tokens'], 512);
    assert.equal('max_tokens' in body, false);
    assert.equal('tools' in body, false, 'an empty tool list is not sent');
  });
});

describe('server quirks', () => {
  test('ADD-1: openai-compatible servers that put parallel calls at index 0 and repeat names still yield clean calls', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'c1', name: 'read_file', arguments: ['{"path":', '"a"}'] },
        { id: 'c2', name: 'list_dir', arguments: ['{"path":', '"src"}'] },
      ],
      toolCallQuirks: { allAtIndexZero: true, repeatName: true },
    });
    const p = PROVIDERS[0];
    assert.ok(p);
    const outcome = await collectStream(p.make(server).stream(request()));
    assert.ok(outcome.status === 'completed');
    assert.deepEqual(outcome.response.toolCalls, [
      { id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'c2', name: 'list_dir', arguments: '{"path":"src"}' },
    ]);
  });

  test('ADD-1: a zod-derived tool schema goes on the wire without its $schema key', async () => {
    const { z } = await import('zod');
    const parameters = z.toJSONSchema(z.object({ path: z.string() })) as Record<string, unknown>;
    assert.ok('$schema' in parameters);
    server.enqueue({ text: 'a' }, { text: 'b' });
    for (const p of PROVIDERS) {
      await drain(p.make(server).stream(request({ tools: [{ name: 'read_file', description: 'd', parameters }] })));
    }
    const [openaiBody, anthropicBody] = server.requests.map((r) => JSON.stringify(r.body));
    assert.ok(openaiBody && !openaiBody.includes('$schema'));
    assert.ok(anthropicBody && !anthropicBody.includes('$schema'));
    assert.match(openaiBody, /"required":\["path"\]/);
  });

  for (const p of PROVIDERS) {
    test(
      `EXEC-5: ${p.name} aborting while waiting for the response head is a cancellation`,
      { timeout: 60_000 },
      async () => {
        // The head would come after 10 minutes, past this test's deadline: only the abort can end
        // the wait (the server ends its delay when the client goes away).
        server.enqueue({ delayMs: 600_000, text: 'late' });
        const controller = new AbortController();
        const pending = drain(streamWithRetry(p.make(server), request({ signal: controller.signal })));
        await waitFor(() => server.requests.length === 1, 60_000);
        controller.abort();
        assert.deepEqual(await pending, [{ type: 'cancelled' }]);
        await waitFor(() => server.requests[0]?.clientClosedEarly === true, 60_000);
      },
    );
  }
});

describe('transport', () => {
  test('SYN-1: a refused connection is a retryable transport failure and every retry is reported', async () => {
    const dead = await startModelServer();
    const url = dead.openaiBaseUrl;
    await dead.close();
    const { createOpenAIProvider } = await import('../../../src/core/llm');
    let retries = 0;
    const outcome = await collectStream(
      streamWithRetry(createOpenAIProvider({ model: 'm', baseUrl: url, apiKey: API_KEY }), request(), {
        maxRetries: 2,
        baseDelayMs: 1,
        onRetry: () => retries++,
      }),
    );
    assert.ok(outcome.status === 'failed');
    assert.equal(outcome.failure.kind, 'transport');
    assert.equal(outcome.failure.retryable, true);
    assert.equal(outcome.failure.attempts, 3);
    assert.equal(retries, 2);
  });

  test('SYN-1: a stream that closes before finishing (no content) is a protocol failure and retried', async () => {
    server.enqueue({ dropConnection: true }, { text: 'fine' });
    const p = PROVIDERS[0];
    assert.ok(p);
    const failures: string[] = [];
    const outcome = await collectStream(
      streamWithRetry(p.make(server), request(), { baseDelayMs: 1, onRetry: (n) => failures.push(n.failure.kind) }),
    );
    assert.equal(outcome.status, 'completed');
    assert.equal(failures.length, 1);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('property', () => {
  test('ADD-1: any text and any tool arguments, split anywhere, arrive intact through both real SDKs', async () => {
    const fc = (await import('fast-check')).default;
    const cut = (text: string, sizes: number[]): string[] => {
      const parts: string[] = [];
      let i = 0;
      for (const size of sizes) {
        if (i >= text.length) break;
        parts.push(text.slice(i, i + size));
        i += size;
      }
      if (i < text.length) parts.push(text.slice(i));
      return parts.length > 0 ? parts : [''];
    };
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
          .filter((t) => !t.trimStart().startsWith('<think>')),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), {
          maxKeys: 4,
        }),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 12 }),
        async (text, args, sizes) => {
          const argsJson = JSON.stringify(args);
          for (const p of PROVIDERS) {
            server.enqueue({
              text: cut(text, sizes),
              toolCalls: [{ id: 'c1', name: 'read_file', arguments: cut(argsJson, sizes) }],
            });
            const outcome = await collectStream(p.make(server).stream(request()));
            assert.ok(outcome.status === 'completed', p.name);
            assert.equal(outcome.response.text, text, p.name);
            assert.deepEqual(
              outcome.response.toolCalls,
              [{ id: 'c1', name: 'read_file', arguments: argsJson }],
              p.name,
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
