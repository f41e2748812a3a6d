import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { editFileTool, readFileTool, writeFileTool } from '../../../src/core/tools';
import type { Writer } from '../../../src/core/ports';
import { ctxFor, makeWorkspace, type Workspace } from './helpers';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const build = (): ReturnType<typeof ctxFor> => ctxFor(ws, { mode: 'build' });

test('write_file creates a file and its missing folders, then replaces it; identical content is not rewritten', async () => {
  const created = await writeFileTool.run({ path: 'src/new/mod.ts', content: 'export {};\n' }, build());
  assert.ok(created.ok, created.content);
  assert.equal(created.content, 'Created `src/new/mod.ts` (1 line, 11 bytes).');
  assert.equal(created.summary, 'created src/new/mod.ts (1 line, 11 bytes)');
  assert.equal(ws.read('src/new/mod.ts'), 'export {};\n');
  const replaced = await writeFileTool.run({ path: 'src/new/mod.ts', content: 'a\nb\n' }, build());
  assert.equal(replaced.content, 'Replaced `src/new/mod.ts` (2 lines, 4 bytes).');
  const mtime = fs.statSync(path.join(ws.root, 'src/new/mod.ts')).mtimeMs;
  const same = await writeFileTool.run({ path: 'src/new/mod.ts', content: 'a\nb\n' }, build());
  assert.match(same.content, /already has exactly this content; nothing was written/);
  assert.equal(fs.statSync(path.join(ws.root, 'src/new/mod.ts')).mtimeMs, mtime);
  assert.deepEqual(fs.readdirSync(path.join(ws.root, 'src/new')), ['mod.ts']);
});

test('write_file keeps the permission bits of an existing file (a script stays executable, a 0666 file stays 0666); a new one gets the umask default', async () => {
  const p = ws.write('run.sh', '#!/bin/sh\n');
  fs.chmodSync(p, 0o755);
  await writeFileTool.run({ path: 'run.sh', content: '#!/bin/sh\necho hi\n' }, build());
  assert.equal(fs.statSync(p).mode & 0o777, 0o755);
  // 0666 is exactly what open() asks for; the umask must not narrow an existing file's bits.
  const shared = ws.write('shared.txt', 'x\n');
  fs.chmodSync(shared, 0o666);
  await writeFileTool.run({ path: 'shared.txt', content: 'y\n' }, build());
  assert.equal(fs.statSync(shared).mode & 0o777, 0o666);
  // A new file gets what any new file gets here: 0666 less the umask.
  const plain = ws.write('plain.txt', '');
  await writeFileTool.run({ path: 'fresh.txt', content: 'z\n' }, build());
  assert.equal(fs.statSync(path.join(ws.root, 'fresh.txt')).mode & 0o777, fs.statSync(plain).mode & 0o777);
});

test('RO-1: write_file and edit_file are refused in plan mode and touch nothing', async () => {
  ws.write('a.txt', 'old\n');
  const w = await writeFileTool.run({ path: 'b.txt', content: 'x' }, ctxFor(ws));
  assert.equal(w.error?.code, 'refused');
  assert.match(w.content, /^Mutation blocked: `write_file` is not available in plan mode/);
  const e = await editFileTool.run({ path: 'a.txt', old_string: 'old', new_string: 'new' }, ctxFor(ws));
  assert.equal(e.error?.code, 'refused');
  assert.equal(ws.exists('b.txt'), false);
  assert.equal(ws.read('a.txt'), 'old\n');
});

test('write_file is confined to the workspace and refuses folders', async () => {
  const out = await writeFileTool.run({ path: '../outside/x.txt', content: 'x' }, build());
  assert.equal(out.error?.code, 'outside_workspace');
  assert.equal(fs.existsSync(path.join(ws.outside, 'x.txt')), false);
  fs.mkdirSync(path.join(ws.root, 'dir'));
  const dir = await writeFileTool.run({ path: 'dir', content: 'x' }, build());
  assert.equal(dir.error?.code, 'not_a_file');
  assert.match(dir.content, /`dir` is a folder/);
});

test('write_file goes through the Writer port (a host may route it through its editor)', async () => {
  const writes: Array<[string, string]> = [];
  const writer: Writer = { writeText: async (p, c) => void writes.push([p, c]) };
  const ctx = build();
  ctx.ports = { ...ctx.ports, writer };
  const r = await writeFileTool.run({ path: 'x.md', content: '# x\n' }, ctx);
  assert.ok(r.ok);
  assert.deepEqual(writes, [[path.join(ws.root, 'x.md'), '# x\n']]);
  assert.equal(ws.exists('x.md'), false);
});

test('edit_file replaces one exact occurrence and shows the edited lines', async () => {
  ws.write('src/a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
  const r = await editFileTool.run(
    { path: 'src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' },
    build(),
  );
  assert.ok(r.ok, r.content);
  assert.equal(ws.read('src/a.ts'), 'const a = 1;\nconst b = 20;\nconst c = 3;\n');
  assert.equal(
    r.content,
    'Replaced 1 occurrence in `src/a.ts` (line 2).\n1\tconst a = 1;\n2\tconst b = 20;\n3\tconst c = 3;',
  );
  assert.equal(r.summary, 'edited src/a.ts (1 replacement)');
});

test('edit_file: a missing match is an error with 0 occurrences and the whitespace hint; nothing changes', async () => {
  ws.write('a.py', 'def f():\n    return 1\n');
  const r = await editFileTool.run({ path: 'a.py', old_string: 'return 2', new_string: 'return 3' }, build());
  assert.equal(r.error?.code, 'no_match');
  assert.match(r.content, /^old_string was not found in `a\.py` \(0 occurrences\); nothing was changed\./);
  const loose = await editFileTool.run({ path: 'a.py', old_string: '  return 1  ', new_string: 'return 3' }, build());
  assert.match(loose.content, /apart from leading\/trailing whitespace is at line 2\./);
  assert.equal(ws.read('a.py'), 'def f():\n    return 1\n');
});

test('edit_file: a non-unique match names the count and the lines; replace_all replaces them all', async () => {
  ws.write('a.ts', 'x();\ny();\nx();\nx();\n');
  const r = await editFileTool.run({ path: 'a.ts', old_string: 'x();', new_string: 'z();' }, build());
  assert.equal(r.error?.code, 'not_unique');
  assert.match(
    r.content,
    /^old_string occurs 3 times in `a\.ts` \(lines 1, 3, 4\); nothing was changed\. .*replace_all to true to replace all 3\.$/,
  );
  assert.equal(ws.read('a.ts'), 'x();\ny();\nx();\nx();\n');
  const all = await editFileTool.run(
    { path: 'a.ts', old_string: 'x();', new_string: 'z($1);', replace_all: true },
    build(),
  );
  assert.ok(all.ok);
  assert.equal(ws.read('a.ts'), 'z($1);\ny();\nz($1);\nz($1);\n');
  assert.match(all.content, /^Replaced 3 occurrences in `a\.ts` \(lines 1, 3, 4\)\./);
});

test('edit_file keeps CRLF line endings when the model sends LF', async () => {
  ws.write('w.txt', 'one\r\ntwo\r\nthree\r\n');
  const r = await editFileTool.run({ path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' }, build());
  assert.ok(r.ok, r.content);
  assert.equal(ws.read('w.txt'), 'uno\r\ndos\r\nthree\r\n');
});

test('edit_file: missing file, identical strings and empty old_string are clear errors', async () => {
  const missing = await editFileTool.run({ path: 'nope.ts', old_string: 'a', new_string: 'b' }, build());
  assert.equal(missing.error?.code, 'not_found');
  assert.match(missing.content, /create it with write_file/);
  ws.write('a.ts', 'a');
  const same = await editFileTool.run({ path: 'a.ts', old_string: 'a', new_string: 'a' }, build());
  assert.match(same.content, /`new_string`: is identical to old_string/);
  const empty = await editFileTool.run({ path: 'a.ts', old_string: '', new_string: 'b' }, build());
  assert.match(empty.content, /`old_string`: Too small/);
});

const RUNTIME_FILES =
  /^Mutation blocked: .* inside `\.vtcode\/`, where VT Code keeps its own files \(plans, session logs, checklists\); only the runtime writes them, and `(write_file|edit_file)` cannot\. To change a plan, revise it in plan mode/;

test("STORE-2, MODE-1: write_file and edit_file refuse the runtime's own files under .vtcode/, however the path is written", async () => {
  const log = ws.write('.vtcode/sessions/s1.jsonl', '{"type":"session.started"}\n');
  ws.write('.vtcode/plans/p.md', '# Plan\n');
  ws.write('src/a.ts', 'a\n');
  const given = [
    '.vtcode/sessions/s1.jsonl',
    './.vtcode/sessions/s1.jsonl',
    'src/../.vtcode/sessions/s1.jsonl',
    path.join(ws.root, '.vtcode/sessions/s1.jsonl'),
    '.vtcode/sessions/new.jsonl',
    '.vtcode/plans/p.md',
    '.vtcode/tasks/current_task.md',
    '.vtcode',
    './.vtcode/',
  ];
  for (const p of given) {
    const w = await writeFileTool.run({ path: p, content: 'forged\n' }, build());
    assert.equal(w.error?.code, 'refused', `${p}: ${w.content}`);
    assert.match(w.content, RUNTIME_FILES, p);
  }
  const e = await editFileTool.run(
    { path: './.vtcode/plans/p.md', old_string: '# Plan', new_string: '# Mine' },
    build(),
  );
  assert.equal(e.error?.code, 'refused');
  assert.match(e.content, RUNTIME_FILES);
  assert.equal(fs.readFileSync(log, 'utf8'), '{"type":"session.started"}\n');
  assert.equal(ws.read('.vtcode/plans/p.md'), '# Plan\n');
  assert.equal(ws.exists('.vtcode/sessions/new.jsonl'), false);
  assert.equal(ws.exists('.vtcode/tasks'), false);
  // Auto mode has the same safety gates (MODE-1).
  const auto = await writeFileTool.run({ path: '.vtcode/plans/p.md', content: 'x' }, ctxFor(ws, { mode: 'auto' }));
  assert.equal(auto.error?.code, 'refused');
});

test('STORE-2: a symlink in the workspace that resolves into .vtcode/ is refused, for a file and for a folder', async () => {
  ws.write('.vtcode/sessions/s1.jsonl', 'genuine\n');
  fs.symlinkSync(path.join(ws.root, '.vtcode/sessions/s1.jsonl'), path.join(ws.root, 'log-link'));
  fs.symlinkSync(path.join(ws.root, '.vtcode'), path.join(ws.root, 'state'));
  fs.symlinkSync('.vtcode/sessions', path.join(ws.root, 'src-sessions'));
  for (const p of ['log-link', 'state/sessions/s1.jsonl', 'state/plans/new.md', 'src-sessions/s1.jsonl']) {
    const w = await writeFileTool.run({ path: p, content: 'forged\n' }, build());
    assert.equal(w.error?.code, 'refused', `${p}: ${w.content}`);
    assert.match(w.content, /resolves through a symbolic link to `\.vtcode\//, p);
  }
  const e = await editFileTool.run({ path: 'log-link', old_string: 'genuine', new_string: 'forged' }, build());
  assert.equal(e.error?.code, 'refused');
  assert.equal(ws.read('.vtcode/sessions/s1.jsonl'), 'genuine\n');
  assert.equal(ws.exists('.vtcode/plans/new.md'), false);
});

test("STORE-2: only the workspace's own .vtcode/ is the runtime's: look-alike names and nested folders stay writable, and .vtcode/ stays readable", async () => {
  for (const p of ['.vtcode-notes.md', 'docs/.vtcode/x.md', 'vtcode/plans/p.md']) {
    const w = await writeFileTool.run({ path: p, content: 'ok\n' }, build());
    assert.ok(w.ok, `${p}: ${w.content}`);
  }
  ws.write('.vtcode/plans/p.md', '# Plan\n');
  const r = await readFileTool.run({ path: '.vtcode/plans/p.md' }, ctxFor(ws));
  assert.ok(r.ok, r.content);
});
