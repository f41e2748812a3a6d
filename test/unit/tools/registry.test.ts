import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ALL_TOOLS, createToolRuntime, findTool, toolDefinitions, toolsForMode } from '../../../src/core/tools';
import { KNOWN_TOOLS } from '../../../src/core/policy';
import { nodeFileSystem } from '../../../src/node/fs';
import { jsSearch } from '../../../src/node/search';
import { nodeShell } from '../../../src/node/shell';
import { nodeWriter } from '../../../src/node/writer';
import { makeWorkspace } from './helpers';

const COMMANDS = { timeoutMs: 5000, network: 'default' } as const;
const READ_ONLY = ['read_file', 'list_dir', 'find_files', 'grep', 'run_command', 'request_user_input', 'task_tracker'];

test('RO-1: plan mode offers only read, search, policy-checked shell, the interview and the tracker', () => {
  assert.deepEqual(
    toolsForMode('plan').map((t) => t.name),
    READ_ONLY,
  );
  assert.ok(toolsForMode('plan').every((t) => !t.mutates || t.name === 'run_command'));
});

test('MODE-1: build and auto share one catalog: the plan tools plus write_file, edit_file, start_planning', () => {
  const build = toolsForMode('build').map((t) => t.name);
  assert.deepEqual(build, [...READ_ONLY, 'write_file', 'edit_file', 'start_planning']);
  assert.deepEqual(
    toolsForMode('auto').map((t) => t.name),
    build,
  );
});

test('RO-1: the registry and the dispatch gate know the same tools', () => {
  assert.deepEqual(ALL_TOOLS.map((t) => t.name).sort(), [...KNOWN_TOOLS].sort());
  for (const name of KNOWN_TOOLS) assert.equal(findTool(name)?.name, name);
  assert.equal(findTool('delete_everything'), undefined);
});

const REQUIRED: Record<string, string[]> = {
  read_file: ['path'],
  list_dir: [],
  find_files: ['glob'],
  grep: ['pattern'],
  run_command: ['command'],
  request_user_input: ['questions'],
  task_tracker: ['action'],
  write_file: ['path', 'content'],
  edit_file: ['path', 'old_string', 'new_string'],
  start_planning: ['reason'],
};

test('every tool definition is an object JSON Schema with its required fields and no extra properties', () => {
  for (const def of toolDefinitions('build')) {
    const schema = def.parameters as {
      type?: string;
      required?: string[];
      properties?: Record<string, unknown>;
      additionalProperties?: boolean;
    };
    assert.equal(schema.type, 'object', def.name);
    assert.deepEqual([...(schema.required ?? [])].sort(), [...(REQUIRED[def.name] ?? ['?'])].sort(), def.name);
    for (const key of schema.required ?? [])
      assert.ok(schema.properties && key in schema.properties, `${def.name}.${key}`);
    assert.equal(schema.additionalProperties, false, def.name);
    assert.ok(def.description.length > 60, `${def.name} has a description written for the model`);
  }
});

test('the runtime adapter maps results, classes and outcomes for the runloop and refuses tools outside the mode', async () => {
  const ws = makeWorkspace();
  try {
    ws.write('a.txt', 'hello\n');
    const runtime = createToolRuntime({
      root: ws.root,
      ports: { fs: nodeFileSystem, shell: nodeShell, search: jsSearch, writer: nodeWriter },
    });
    const signal = new AbortController().signal;
    assert.deepEqual(
      runtime.definitions('plan').map((d) => d.name),
      READ_ONLY,
    );
    const read = await runtime.execute(
      'read_file',
      { path: 'a.txt' },
      { agent: 'plan', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.deepEqual(read, {
      kind: 'result',
      ok: true,
      content: '1\thello\n[a.txt: all 1 lines]',
      class: 'inspection',
      empty: false,
      truncated: false,
      target: 'a.txt',
    });
    const nothing = await runtime.execute(
      'grep',
      { pattern: 'absent' },
      { agent: 'plan', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(nothing.kind === 'result' && nothing.empty, true);
    const verify = await runtime.execute(
      'run_command',
      { command: 'npm test' },
      { agent: 'plan', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(verify.kind === 'result' && verify.class, 'verification');
    const write = await runtime.execute(
      'write_file',
      { path: 'b.txt', content: 'b' },
      { agent: 'plan', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(write.kind === 'result' && write.ok, false);
    assert.match(
      write.kind === 'result' ? write.content : '',
      /^Unknown tool `write_file` for the plan agent; available: read_file, /,
    );
    assert.equal(ws.exists('b.txt'), false);
    const wrote = await runtime.execute(
      'write_file',
      { path: 'b.txt', content: 'b' },
      { agent: 'auto', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(wrote.kind === 'result' && wrote.class, 'mutation');
    const asked = await runtime.execute(
      'request_user_input',
      { questions: [{ question: 'Q?', options: [{ label: 'A' }, { label: 'B' }] }] },
      { agent: 'plan', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(asked.kind, 'interview');
    const suggested = await runtime.execute(
      'start_planning',
      { reason: 'big' },
      { agent: 'build', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.deepEqual(suggested, { kind: 'planning_suggested', reason: 'big' });
  } finally {
    ws.cleanup();
  }
});

test('TRK-1: task_tracker runs through the common contract with the tracker location from the runtime', async () => {
  const ws = makeWorkspace();
  try {
    const runtime = createToolRuntime({
      root: ws.root,
      ports: { fs: nodeFileSystem, shell: nodeShell, search: jsSearch, writer: nodeWriter },
    });
    const signal = new AbortController().signal;
    const created = await runtime.execute(
      'task_tracker',
      { action: 'create', title: 'T', items: ['[x] A', 'B'] },
      { agent: 'build', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(created.kind === 'result' && created.ok, true);
    const body = JSON.parse(created.kind === 'result' ? created.content : '{}') as {
      status: string;
      checklist: { total: number };
    };
    assert.equal(body.status, 'created');
    assert.equal(body.checklist.total, 2);
    const bad = await runtime.execute(
      'task_tracker',
      { action: 'explode' },
      { agent: 'build', signal, previewLimit: 8192, commands: COMMANDS },
    );
    assert.equal(bad.kind === 'result' && bad.ok, false);
    assert.match(bad.kind === 'result' ? bad.content : '', /invalid_args/);
  } finally {
    ws.cleanup();
  }
});

test('quality bar (keys are never printed): the provider key is masked in every tool result, target included, before the model or the events see it', async () => {
  const ws = makeWorkspace();
  const key = 'sk-live-provider-key-0123456789abcdef';
  try {
    ws.write('.env', `OPENAI_API_KEY=${key}\n`);
    ws.write(`notes-${key}.txt`, 'x\n');
    const runtime = createToolRuntime({
      root: ws.root,
      ports: { fs: nodeFileSystem, shell: nodeShell, search: jsSearch, writer: nodeWriter },
      secrets: [key],
    });
    const ctx = {
      agent: 'plan' as const,
      signal: new AbortController().signal,
      previewLimit: 8192,
      commands: COMMANDS,
    };
    for (const [name, args] of [
      ['read_file', { path: '.env' }],
      ['grep', { pattern: 'OPENAI' }],
      ['run_command', { command: 'cat .env; ls' }],
      ['list_dir', {}],
    ] as const) {
      const r = await runtime.execute(name, args, ctx);
      assert.equal(r.kind, 'result');
      if (r.kind !== 'result') continue;
      assert.doesNotMatch(r.content, /sk-live-provider-key/, name);
      assert.match(r.content, /\[redacted\]/, name);
    }
    const named = await runtime.execute('read_file', { path: `notes-${key}.txt` }, ctx);
    assert.ok(named.kind === 'result' && named.target === 'notes-[redacted].txt', JSON.stringify(named));
    // Other key-shaped text in files is left alone: the model may need to read and edit it exactly.
    ws.write('fixture.txt', 'sk-not-our-key-but-key-shaped\n');
    const other = await runtime.execute('read_file', { path: 'fixture.txt' }, ctx);
    assert.ok(other.kind === 'result' && other.content.includes('sk-not-our-key-but-key-shaped'));
  } finally {
    ws.cleanup();
  }
});
