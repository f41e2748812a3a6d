/**
 * What one tool batch gives the tools and the model (turn/batch.ts): the preview size each call
 * may show (NAV-5), the result as this turn's preview budget lets the model see it, a tool that
 * throws, and arguments that are empty, not JSON or `null`. Tools here are the real runtime with
 * `execute` replaced where a test needs a given result; the model is the scripted wire-format server.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ToolContext, ToolOutcome, ToolRuntime } from '../../../src/core/session/tool-runtime';
import { of, useHarness } from './harness';

const h = useHarness();
const KIB = 1024;

/** The real tools, with `execute` answered by `reply` and every call's preview limit recorded. */
function scriptedTools(reply: (name: string, args: unknown, ctx: ToolContext) => ToolOutcome | Promise<ToolOutcome>): {
  tools: ToolRuntime;
  limits: number[];
} {
  const real = h.deps().tools;
  const limits: number[] = [];
  return {
    limits,
    tools: {
      definitions: (agent) => real.definitions(agent),
      isolation: () => real.isolation(),
      async execute(name, args, ctx) {
        limits.push(ctx.previewLimit);
        return reply(name, args, ctx);
      },
    },
  };
}

const result = (content: string, extra: Partial<Extract<ToolOutcome, { kind: 'result' }>> = {}): ToolOutcome => ({
  kind: 'result',
  ok: true,
  content,
  class: 'inspection',
  empty: false,
  truncated: false,
  ...extra,
});
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });
const readme = (id: string, extra: Record<string, unknown> = {}) =>
  call(id, 'read_file', { path: 'README.md', ...extra });
const command = (id: string, cmd: string, extra: Record<string, unknown> = {}) =>
  call(id, 'run_command', { command: cmd, ...extra });

test('NAV-5: in plan, an inspection call may show 8 KiB, or the max_preview_bytes it asks for up to 16 KiB; a verification command 32 KiB or what it asks for', async () => {
  const { tools, limits } = scriptedTools(() => result('ok'));
  h.server.enqueue(
    {
      toolCalls: [
        readme('c1'),
        readme('c2', { max_preview_bytes: 12_000 }),
        readme('c3', { max_preview_bytes: 100_000 }),
        readme('c4', { max_preview_bytes: '5000' }),
        command('c5', 'rg -n greet src'),
        command('c6', 'npm test'),
        command('c7', 'npm test', { max_preview_bytes: 2_000 }),
      ],
    },
    { text: 'Done.' },
  );
  const { session } = await h.start('plan', h.deps({ tools }));
  await session.submit('Look around');
  assert.deepEqual(limits, [8 * KIB, 12_000, 16 * KIB, 8 * KIB, 8 * KIB, 32 * KIB, 2_000]);
});

test('NAV-5: in build, an inspection call may show 32 KiB, or the max_preview_bytes it asks for', async () => {
  const { tools, limits } = scriptedTools(() => result('ok'));
  h.server.enqueue({ toolCalls: [readme('c1'), readme('c2', { max_preview_bytes: 40_000 })] }, { text: 'Done.' });
  const { session } = await h.start('build', h.deps({ tools }));
  await session.submit('Look around');
  assert.deepEqual(limits, [32 * KIB, 40_000]);
});

test('NAV-5: a result longer than the max_preview_bytes its call asked for reaches the model cut there, with a note saying so', async () => {
  const { tools } = scriptedTools(() => result('y'.repeat(20_000)));
  h.server.enqueue({ toolCalls: [readme('c1', { max_preview_bytes: 12_000 })] }, { text: 'Done.' });
  const { session, events } = await h.start('plan', h.deps({ tools }));
  await session.submit('Read the README');
  const shown = of(events, 'tool.result')[0]?.content;
  assert.equal(
    shown,
    `${'y'.repeat(12_000)}\n[… output cut at 12000 of 20000 bytes by this turn's preview budget; narrow the request to see more]`,
  );
  assert.equal(h.body(1).messages.find((m) => m.tool_call_id === 'c1')?.content, shown);
});

test('NAV-5, SYN-1: once the plan preview budget is spent, results are cut to what is left (never mid-character), a later result is a stub marked truncated, and a synthesis pass follows', async () => {
  // 3 + 40 960 bytes: the 32 KiB cut falls inside an "é"; the leading U+FFFD is content and stays.
  const accented = `\uFFFD${'é'.repeat(20_480)}`;
  const outputs = [
    result('short', { truncated: true }),
    result(accented, { class: 'verification' }),
    result('x'.repeat(40_960), { class: 'verification' }),
    result('x'.repeat(40_960), { class: 'verification' }),
    result('line 1\nline 2\n', { class: 'verification' }),
  ];
  const { tools } = scriptedTools(() => outputs.shift()!);
  h.server.enqueue(
    {
      toolCalls: [
        readme('c0'),
        command('c1', 'npm test'),
        command('c2', 'npm test'),
        command('c3', 'npm test'),
        command('c4', 'npm test'),
      ],
    },
    { text: 'Here is what the tests showed.' },
  );
  const { session, events } = await h.start('plan', h.deps({ tools }));
  await session.submit('Run the tests');
  const results = of(events, 'tool.result');
  const cut = (bytes: number, of: number) =>
    `\n[… output cut at ${bytes} of ${of} bytes by this turn's preview budget; narrow the request to see more]`;
  assert.deepEqual(
    results.map((r) => ({ id: r.callId, content: r.content, truncated: r.truncated })),
    [
      { id: 'c0', content: 'short', truncated: true },
      { id: 'c1', content: `\uFFFD${'é'.repeat(16_382)}${cut(32_768, 40_963)}`, truncated: undefined },
      { id: 'c2', content: `${'x'.repeat(32_768)}${cut(32_768, 40_960)}`, truncated: undefined },
      // 96 KiB plan budget: 5 + 32 768 + 32 768 already used.
      { id: 'c3', content: `${'x'.repeat(32_763)}${cut(32_763, 40_960)}`, truncated: undefined },
      {
        id: 'c4',
        content: "[run_command: 14 bytes, 3 lines; body omitted because this turn's tool preview budget is used up]",
        truncated: true,
      },
    ],
  );
  const next = h.body(1);
  assert.equal(next.tool_choice, 'none', 'the synthesis pass is tool-free');
  assert.match(String(next.messages.at(-1)?.content), /the preview budget is used up/);
});

test('EXEC-2: a tool that throws gives the model a failed result naming the error, and the turn goes on', async () => {
  const { tools } = scriptedTools(() => {
    throw new Error('disk on fire');
  });
  h.server.enqueue({ toolCalls: [readme('c1')] }, { text: 'The read failed.' });
  const { session, events } = await h.start('build', h.deps({ tools }));
  assert.deepEqual(await session.submit('Read the README'), { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.result').map(({ callId, name, ok, content, truncated }) => ({
      callId,
      name,
      ok,
      content,
      truncated,
    })),
    [{ callId: 'c1', name: 'read_file', ok: false, content: 'Tool failed: disk on fire', truncated: undefined }],
  );
  assert.equal(h.body(1).messages.find((m) => m.tool_call_id === 'c1')?.content, 'Tool failed: disk on fire');
});

test('RO-1: tool arguments that are empty, not JSON or null reach the gate and the tool as they are, each refused with its own reason', async () => {
  h.server.enqueue(
    {
      toolCalls: [
        { id: 'c1', name: 'run_command', arguments: '' },
        { id: 'c2', name: 'run_command', arguments: 'rg greet' },
        { id: 'c3', name: 'read_file', arguments: 'null' },
      ],
    },
    { text: 'Done.' },
  );
  const { session, events } = await h.start('build');
  await session.submit('Look around');
  assert.deepEqual(
    of(events, 'tool.blocked').map((b) => [b.callId, b.reason]),
    [
      ['c1', 'run_command arguments are invalid: command: Invalid input: expected string, received undefined.'],
      ['c2', 'run_command arguments are invalid: arguments: Invalid input: expected object, received string.'],
    ],
  );
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok, r.content]),
    [['c3', false, 'Invalid arguments for read_file: `path`: Invalid input: expected string, received undefined.']],
  );
});

test('INT-1: a question the model asks ends the batch with the turn waiting "for your answer"', async () => {
  h.server.enqueue({
    toolCalls: [
      call('c1', 'request_user_input', {
        questions: [{ id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] }],
      }),
    ],
  });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Make the greeter shout'), { kind: 'ran', status: 'awaiting_input' });
  assert.equal(of(events, 'interview.requested').at(-1)?.interviewId, 'c1');
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual(end && [end.status, end.reason], ['awaiting_input', 'Waiting for your answer.']);
});

test('NAV-2: tools that throw are failures, not fruitless research: six in a row in plan do not close research', async () => {
  const { tools } = scriptedTools(() => {
    throw new Error('disk on fire');
  });
  h.server.enqueue(
    { toolCalls: Array.from({ length: 6 }, (_, i) => readme(`c${i + 1}`)) },
    { text: 'Every read failed.' },
  );
  const { session, events } = await h.start('plan', h.deps({ tools }));
  await session.submit('Read the README');
  assert.equal(of(events, 'tool.result').filter((r) => r.content === 'Tool failed: disk on fire').length, 6);
  assert.deepEqual(of(events, 'directive'), []);
  assert.notEqual(h.body(1).tool_choice, 'none', 'the next request still offers tools');
});
