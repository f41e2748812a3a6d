import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import { TASK_TRACKER_TOOL, handleTaskTracker, parseTaskTrackerArgs } from '../../../src/core/tools/task-tracker';
import { runCli } from '../../../src/cli/run';
import { captureIO } from '../../fixtures/cli';

let root = '';
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vtplan-tool-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

test('TRK-1: the tool definition exposes a JSON Schema derived from the zod schema', () => {
  assert.equal(TASK_TRACKER_TOOL.name, 'task_tracker');
  const schema = TASK_TRACKER_TOOL.parameters as {
    type: string;
    properties: Record<string, unknown>;
    required: string[];
    additionalProperties: boolean;
  };
  assert.equal(schema.type, 'object');
  assert.deepEqual(schema.required, ['action']);
  assert.equal(schema.additionalProperties, false);
  for (const key of [
    'action',
    'items',
    'index',
    'index_path',
    'status',
    'parent_index_path',
    'files',
    'outcome',
    'verify',
  ]) {
    assert.ok(key in schema.properties, key);
  }
});

test('TRK-3: items sent as a JSON-encoded string is refused with its own error', () => {
  const r = parseTaskTrackerArgs({ action: 'update', items: '["[x] a"]' });
  assert.equal(!r.ok && !r.result.ok && r.result.error.code, 'json_string');
  const whole = parseTaskTrackerArgs(JSON.stringify(JSON.stringify({ action: 'list' })));
  assert.equal(!whole.ok && !whole.result.ok && whole.result.error.code, 'json_string');
});

test('TRK-1: unknown fields, bad statuses and negative indices are invalid arguments', () => {
  for (const bad of [
    { action: 'update', index: 1, status: 'done' },
    { action: 'list', extra: 1 },
    { action: 'update', index: -1, status: 'completed' },
    { action: 'remove' },
  ]) {
    const r = parseTaskTrackerArgs(bad);
    assert.equal(!r.ok && !r.result.ok && r.result.error.code, 'invalid_args', JSON.stringify(bad));
  }
  const text = parseTaskTrackerArgs(
    '{"action":"update","index":1,"status":"completed","verify":"npm test, rg -n \'a,b\' src"}',
  );
  assert.ok(text.ok);
  assert.deepEqual(text.ok && text.call.verify, ['npm test', "rg -n 'a,b' src"]);
});

test('TRK-5: the handler returns the view for the display mode', async () => {
  const ctx = { fs: nodeFileSystem, root };
  const r = await handleTaskTracker(ctx, { action: 'create', title: 'T', items: ['[x] A', 'B'] });
  assert.ok(r.ok);
  assert.equal(r.ok && r.view, 'T — 1/2 done\n» B');
  const e = await handleTaskTracker({ ...ctx, display: 'expanded' }, { action: 'list' });
  assert.equal(e.ok && e.view, 'T — 1/2 done\n├ ✔ A\n└ » ○ B');
});

const capture = () => captureIO({ cwd: os.tmpdir(), stdin: '{"action":"list"}' });

test('ADD-2: vtplan tool task_tracker prints the result object (--json) and exits 0', async () => {
  const io = capture();
  const code = await runCli(
    [
      'tool',
      'task_tracker',
      '--workspace',
      root,
      '--plan-file',
      '.vtcode/plans/x.md',
      '--args',
      '{"action":"create","title":"X","items":["A","B"]}',
      '--json',
    ],
    io,
  );
  assert.equal(code, 0, io.err);
  const result = JSON.parse(io.out) as { ok: boolean; status: string; checklist: { total: number } };
  assert.equal(result.ok, true);
  assert.equal(result.status, 'created');
  assert.equal(result.checklist.total, 2);
  assert.ok(fs.existsSync(path.join(root, '.vtcode/plans/x.tasks.md')));
  assert.ok(fs.existsSync(path.join(root, '.vtcode/tasks/current_task.md')));
  const io2 = capture();
  assert.equal(await runCli(['tool', 'task_tracker', '--workspace', root, '--args', '-'], io2), 0);
  assert.match(io2.out, /^ok: Current checklist\.\nX — 0\/2 done\n/);
});

test('ADD-2: a tool error exits 1 with the error; usage mistakes exit 2', async () => {
  const io = capture();
  assert.equal(
    await runCli(
      [
        'tool',
        'task_tracker',
        '--workspace',
        root,
        '--args',
        '{"action":"update","index":1,"status":"completed"}',
        '--json',
      ],
      io,
    ),
    1,
  );
  assert.equal((JSON.parse(io.out) as { error: { code: string } }).error.code, 'no_checklist');
  const usage: string[][] = [
    ['tool'],
    ['tool', 'nope', '--workspace', root, '--args', '{}'],
    ['tool', 'task_tracker', '--args', '{"action":"list"}'],
    ['tool', 'task_tracker', '--workspace', root],
    ['tool', 'task_tracker', '--workspace', root, '--args', '{'],
    ['tool', 'task_tracker', '--workspace', root, '--args', '{}', '--bogus'],
    ['tool', 'task_tracker', '--workspace', path.join(root, 'missing'), '--args', '{"action":"list"}'],
  ];
  for (const argv of usage) {
    const u = capture();
    assert.equal(await runCli(argv, u), 2, argv.join(' '));
    assert.notEqual(u.err, '');
  }
});
