import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Message, ModelRequest, StreamChunk, ToolDefinition } from '../../src/core/llm/provider';
import { createVscodeLmProvider, listChatModels, pickChatModel } from '../../src/extension/vscode-lm';

// The scripted model of test/fixtures/scripted-lm-extension, loaded by the harness for this tier.
const VENDOR = 'vtcode-test';

/**
 * Before VS Code 1.104 (the oldest supported, 1.96, included) the scripted model registers through
 * the proposed provider API, and VS Code passes neither the caller's cancellation on to another
 * extension's model nor a LanguageModelError's code back from it. Our side of both holds on every
 * version; these two host hand-overs are asserted where the host makes them.
 */
const hostHandsOverToModels = 'registerLanguageModelChatProvider' in vscode.lm;

type ScriptPart =
  | { text: string }
  | { toolCall: { id: string; name: string; input: object } }
  | { delayMs: number }
  | { error: string; message?: string };

interface LoggedRequest {
  index: number;
  model: string;
  messages: { role: string; parts: unknown[] }[];
  tools: { name: string; description: string; inputSchema: unknown }[];
  toolMode: number | undefined;
}

function scriptPath(): string {
  const path = process.env.VTPLAN_SCRIPTED_LM;
  assert.ok(path, 'VTPLAN_SCRIPTED_LM reaches the extension host');
  return path;
}

/** A fresh script: the requests log is the model's cursor, so it goes too. */
function writeScript(turns: ScriptPart[][]): void {
  const path = scriptPath();
  rmSync(`${path}.requests.jsonl`, { force: true });
  rmSync(`${path}.events.jsonl`, { force: true });
  writeFileSync(path, JSON.stringify(turns));
}

function jsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

const requests = (): LoggedRequest[] => jsonLines(`${scriptPath()}.requests.jsonl`);
const events = (): { index: number; event: string }[] => jsonLines(`${scriptPath()}.events.jsonl`);

async function provider(): Promise<ReturnType<typeof createVscodeLmProvider>> {
  const pick = await pickChatModel('scripted-large', { vendor: VENDOR });
  assert.equal(pick.status, 'picked');
  return createVscodeLmProvider(pick.model);
}

function request(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You are a planner.', messages, tools: [], maxOutputTokens: 1024, ...extra };
}

async function drain(stream: AsyncIterable<StreamChunk>, onChunk?: (c: StreamChunk) => void): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
    onChunk?.(chunk);
  }
  return chunks;
}

function terminalsOf(chunks: StreamChunk[]): StreamChunk[] {
  return chunks.filter((c) => c.type === 'finish' || c.type === 'error' || c.type === 'cancelled');
}

function textOf(chunks: StreamChunk[], type: 'text_delta' | 'reasoning_delta' = 'text_delta'): string {
  return chunks.map((c) => (c.type === type ? c.text : '')).join('');
}

/** The one terminal chunk, checked to be last. */
function terminal(chunks: StreamChunk[]): StreamChunk {
  const ends = terminalsOf(chunks);
  assert.equal(ends.length, 1, `exactly one terminal chunk: ${JSON.stringify(chunks)}`);
  assert.equal(chunks.at(-1), ends[0], 'the terminal chunk comes last');
  return ends[0] as StreamChunk;
}

const READ_FILE: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file of the workspace.',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
};
const LIST_DIR: ToolDefinition = {
  name: 'list_dir',
  description: 'List a directory.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

suite('vscode.lm provider (ADD-1, EXEC-2, EXEC-5, SYN-2)', () => {
  teardown(() => writeScript([]));

  test('ADD-1: selectChatModels finds the scripted models and listChatModels describes them', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.deepEqual(models.map((m) => m.id).sort(), ['scripted-large', 'scripted-small']);
    assert.deepEqual(
      (await listChatModels({ vendor: VENDOR })).find((m) => m.id === 'scripted-small'),
      {
        id: 'scripted-small',
        name: 'Scripted Small',
        vendor: VENDOR,
        family: 'scripted-mini',
        version: '1',
        maxInputTokens: 128000,
      },
    );
  });

  test('ADD-1: pickChatModel matches vtplan.model by id, family, then name; empty takes the first; unknown is reported', async () => {
    const picked = async (preference: string): Promise<[string, string] | string> => {
      const p = await pickChatModel(preference, { vendor: VENDOR });
      return p.status === 'picked' ? [p.model.id, p.matchedBy] : p.status;
    };
    assert.deepEqual(await picked('scripted-small'), ['scripted-small', 'id']);
    assert.deepEqual(await picked(' SCRIPTED-MINI '), ['scripted-small', 'family']);
    assert.deepEqual(await picked('scripted large'), ['scripted-large', 'name']);
    const first = (await vscode.lm.selectChatModels({ vendor: VENDOR }))[0]?.id;
    assert.deepEqual(await picked(''), [first, 'first']);
    const unknown = await pickChatModel('gpt-9', { vendor: VENDOR });
    assert.equal(unknown.status, 'not_found');
    assert.deepEqual(unknown.status === 'not_found' && unknown.available.map((m) => m.id).sort(), [
      'scripted-large',
      'scripted-small',
    ]);
    assert.equal((await pickChatModel('', { vendor: 'nobody-offers-this' })).status, 'no_models');
  });

  test('ADD-1: streams text and finishes with stop; the system prompt goes first as a user message', async () => {
    writeScript([[{ text: 'Hello ' }, { text: 'world' }]]);
    const lm = await provider();
    assert.equal(lm.id, 'vscode-lm');
    assert.equal(lm.model, 'scripted-large');
    const chunks = await drain(lm.stream(request([{ role: 'user', content: 'hi there' }])));
    assert.equal(textOf(chunks), 'Hello world');
    assert.deepEqual(terminal(chunks), { type: 'finish', reason: 'stop' });
    // The scripted model counts ceil(chars / 4) per message: 'You are a planner.' 5 + 'hi there' 2.
    assert.deepEqual(
      chunks.find((c) => c.type === 'usage'),
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3 } },
    );
    const [sent] = requests();
    assert.deepEqual(sent?.messages, [
      { role: 'user', parts: [{ text: 'You are a planner.' }] },
      { role: 'user', parts: [{ text: 'hi there' }] },
    ]);
    assert.equal(sent?.model, 'scripted-large');
    assert.deepEqual(sent?.tools, []);
  });

  test('EXEC-2: tool calls round-trip; results go back attached to their callIds, in call order, before directives', async () => {
    writeScript([
      [
        { text: 'Let me look.' },
        { toolCall: { id: 'call-1', name: 'read_file', input: { path: 'src/a.ts' } } },
        { toolCall: { id: 'call-2', name: 'list_dir', input: { path: 'src' } } },
      ],
      [{ text: 'Both read.' }],
    ]);
    const lm = await provider();
    const history: Message[] = [{ role: 'user', content: 'plan the change' }];
    const first = await drain(lm.stream(request(history, { tools: [READ_FILE, LIST_DIR], toolChoice: 'auto' })));
    assert.deepEqual(terminal(first), { type: 'finish', reason: 'tool_calls' });
    const calls = first.flatMap((c) => (c.type === 'tool_call' ? [c.call] : []));
    assert.deepEqual(
      calls.map((c) => [c.id, c.name, JSON.parse(c.arguments) as unknown]),
      [
        ['call-1', 'read_file', { path: 'src/a.ts' }],
        ['call-2', 'list_dir', { path: 'src' }],
      ],
    );

    // History as the runloop may hold it: a directive typed mid-batch and results out of order.
    history.push(
      { role: 'assistant', content: textOf(first), toolCalls: calls },
      { role: 'tool', toolCallId: 'call-2', name: 'list_dir', content: 'a.ts\nb.ts' },
      { role: 'user', content: 'also check tests' },
      { role: 'tool', toolCallId: 'call-1', name: 'read_file', content: 'export const a = 1;' },
    );
    const second = await drain(lm.stream(request(history, { tools: [READ_FILE, LIST_DIR], toolChoice: 'auto' })));
    assert.equal(textOf(second), 'Both read.');
    assert.deepEqual(terminal(second), { type: 'finish', reason: 'stop' });

    const [offered, followUp] = requests();
    assert.deepEqual(offered?.tools, [
      {
        name: 'read_file',
        description: 'Read a file of the workspace.',
        inputSchema: {
          type: 'object',
          properties: { path: { type: 'string' } },
          required: ['path'],
          additionalProperties: false,
        },
      },
      { name: 'list_dir', description: 'List a directory.', inputSchema: LIST_DIR.parameters },
    ]);
    assert.equal(offered?.toolMode, vscode.LanguageModelChatToolMode.Auto);
    assert.deepEqual(followUp?.messages, [
      { role: 'user', parts: [{ text: 'You are a planner.' }] },
      { role: 'user', parts: [{ text: 'plan the change' }] },
      {
        role: 'assistant',
        parts: [
          { text: 'Let me look.' },
          { toolCall: { id: 'call-1', name: 'read_file', input: { path: 'src/a.ts' } } },
          { toolCall: { id: 'call-2', name: 'list_dir', input: { path: 'src' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { toolResult: { callId: 'call-1', content: ['export const a = 1;'] } },
          { toolResult: { callId: 'call-2', content: ['a.ts\nb.ts'] } },
        ],
      },
      { role: 'user', parts: [{ text: 'also check tests' }] },
    ]);
  });

  test('ADD-1: toolChoice required becomes toolMode Required; an exhausted script still answers', async () => {
    writeScript([]);
    const chunks = await drain(
      (await provider()).stream(
        request([{ role: 'user', content: 'go' }], { tools: [LIST_DIR], toolChoice: 'required' }),
      ),
    );
    assert.equal(textOf(chunks), 'script exhausted');
    assert.deepEqual(terminal(chunks), { type: 'finish', reason: 'stop' });
    assert.equal(requests()[0]?.toolMode, vscode.LanguageModelChatToolMode.Required);
  });

  test('EXEC-5: aborting our signal mid-stream yields cancelled and cancels the model request', async () => {
    writeScript([[{ text: 'partial' }, { delayMs: 20_000 }, { text: 'never shown' }]]);
    const lm = await provider();
    const controller = new AbortController();
    const started = Date.now();
    const chunks = await drain(
      lm.stream(request([{ role: 'user', content: 'hi' }], { signal: controller.signal })),
      (c) => {
        if (c.type === 'text_delta') controller.abort();
      },
    );
    assert.ok(Date.now() - started < 10_000, 'the stream ended without waiting for the model');
    assert.equal(textOf(chunks), 'partial');
    assert.deepEqual(terminal(chunks), { type: 'cancelled' });
    if (!hostHandsOverToModels) return;
    for (let i = 0; i < 50 && events().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(events(), [{ index: 0, event: 'cancelled' }], 'the model saw the cancellation through its token');
  });

  test('EXEC-5: a signal aborted before the request yields only cancelled and sends nothing', async () => {
    writeScript([[{ text: 'unused' }]]);
    const controller = new AbortController();
    controller.abort();
    const chunks = await drain(
      (await provider()).stream(request([{ role: 'user', content: 'hi' }], { signal: controller.signal })),
    );
    assert.deepEqual(chunks, [{ type: 'cancelled' }]);
    assert.deepEqual(requests(), []);
  });

  test('EXEC-5: "Interrupted by user" or a cancellation from the model without our stop is a failure, not a cancellation', async () => {
    writeScript([[{ text: 'partial' }, { error: 'plain', message: 'Interrupted by user' }], [{ error: 'Canceled' }]]);
    const lm = await provider();
    const signal = new AbortController().signal;
    const interrupted = terminal(await drain(lm.stream(request([{ role: 'user', content: 'hi' }], { signal }))));
    assert.equal(interrupted.type, 'error');
    assert.match(interrupted.type === 'error' ? interrupted.failure.message : '', /Interrupted by user/);
    const cancelledByModel = terminal(await drain(lm.stream(request([{ role: 'user', content: 'hi' }], { signal }))));
    assert.equal(cancelledByModel.type, 'error');
  });

  test('ADD-1: LanguageModelError codes become non-retryable failures; transient errors are retryable', async () => {
    writeScript([
      [{ error: 'Blocked', message: 'quota exceeded' }],
      [{ error: 'NoPermissions', message: 'no consent' }],
      [{ error: 'NotFound', message: 'model removed' }],
      [{ error: 'plain', message: 'fetch failed: ECONNRESET' }],
      [{ error: 'plain', message: 'invalid request: tools[0].name' }],
    ]);
    const lm = await provider();
    const failures = [];
    for (let i = 0; i < 5; i++) {
      const end = terminal(await drain(lm.stream(request([{ role: 'user', content: 'hi' }]))));
      assert.equal(end.type, 'error', JSON.stringify(end));
      if (end.type === 'error') failures.push(end.failure);
    }
    const [blocked, noPermissions, notFound, transient, invalid] = failures;
    assert.deepEqual([blocked?.provider, blocked?.kind, blocked?.retryable], ['vscode-lm', 'http', false]);
    assert.deepEqual([noPermissions?.kind, noPermissions?.retryable], ['http', false]);
    assert.deepEqual([notFound?.kind, notFound?.retryable], ['http', false]);
    if (hostHandsOverToModels) {
      assert.match(blocked?.message ?? '', /^Blocked: .*quota exceeded/);
      assert.match(noPermissions?.message ?? '', /^NoPermissions: .*Manage Language Model Access.*no consent/);
      assert.match(notFound?.message ?? '', /^NotFound: .*Select Model.*model removed/);
    } else {
      assert.deepEqual(
        [blocked?.message, noPermissions?.message, notFound?.message],
        ['quota exceeded', 'no consent', 'model removed'],
      );
    }
    assert.deepEqual([transient?.kind, transient?.retryable], ['transport', true]);
    assert.deepEqual([invalid?.kind, invalid?.retryable], ['http', false]);
  });

  test('EXEC-2: a tool call without an id gets a unique one; a nameless tool call is a protocol failure', async () => {
    writeScript([
      [{ toolCall: { id: '', name: 'list_dir', input: { path: '.' } } }],
      [{ toolCall: { id: '', name: 'list_dir', input: { path: '.' } } }],
      [{ text: 'calling' }, { toolCall: { id: 'call-9', name: '', input: {} } }],
    ]);
    const lm = await provider();
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const chunks = await drain(lm.stream(request([{ role: 'user', content: 'go' }], { tools: [LIST_DIR] })));
      assert.deepEqual(terminal(chunks), { type: 'finish', reason: 'tool_calls' });
      ids.push(chunks.flatMap((c) => (c.type === 'tool_call' ? [c.call.id] : [])));
    }
    assert.match(ids[0]?.[0] ?? '', /^call_./);
    assert.notEqual(ids[0]?.[0], ids[1]?.[0]);
    const nameless = terminal(
      await drain(lm.stream(request([{ role: 'user', content: 'go' }], { tools: [LIST_DIR] }))),
    );
    assert.equal(nameless.type, 'error');
    assert.deepEqual(nameless.type === 'error' && [nameless.failure.kind, nameless.failure.retryable], [
      'protocol',
      false,
    ]);
  });

  test('SYN-2: a leading <think> block from the model is reasoning, never answer text', async () => {
    writeScript([
      [{ text: '<think>private chain' }, { text: ' of thought</think>\n\n' }, { text: '<proposed_plan>\n# Plan' }],
    ]);
    const chunks = await drain((await provider()).stream(request([{ role: 'user', content: 'plan it' }])));
    assert.equal(textOf(chunks), '<proposed_plan>\n# Plan');
    assert.equal(textOf(chunks, 'reasoning_delta'), 'private chain of thought');
    assert.deepEqual(terminal(chunks), { type: 'finish', reason: 'stop' });
  });
});
