import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listDirTool, readFileTool } from '../../../src/core/tools';
import { ctxFor, makeWorkspace, type Workspace } from './helpers';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

test('read_file returns numbered lines and the range it showed', async () => {
  ws.write('src/a.ts', 'const a = 1;\r\nconst b = 2;\n');
  const r = await readFileTool.run({ path: 'src/a.ts' }, ctxFor(ws));
  assert.ok(r.ok);
  assert.equal(r.content, '1\tconst a = 1;\n2\tconst b = 2;\n[src/a.ts: all 2 lines]');
  assert.equal(r.summary, 'read src/a.ts (lines 1-2)');
  assert.equal(r.target, 'src/a.ts');
});

test('read_file reads a range by start_line/end_line and by offset/limit, padding numbers', async () => {
  ws.write('f.txt', numbered(120));
  const a = await readFileTool.run({ path: 'f.txt', start_line: 98, end_line: 101 }, ctxFor(ws));
  assert.equal(
    a.content.split('\n').slice(0, 4).join('\n'),
    ' 98\tline 98\n 99\tline 99\n100\tline 100\n101\tline 101',
  );
  assert.match(a.content, /\[f\.txt: lines 98-101 of 120\]$/);
  const b = await readFileTool.run({ path: 'f.txt', offset: 10, limit: 2 }, ctxFor(ws));
  assert.equal(b.content, '10\tline 10\n11\tline 11\n[f.txt: lines 10-11 of 120]');
  assert.equal(b.summary, 'read f.txt (lines 10-11)');
});

test('read_file: bad ranges are argument errors naming the field', async () => {
  ws.write('f.txt', numbered(5));
  const past = await readFileTool.run({ path: 'f.txt', start_line: 9 }, ctxFor(ws));
  assert.equal(past.error?.code, 'invalid_args');
  assert.match(past.content, /start_line 9 is past the end of `f\.txt`, which has 5 lines/);
  const reversed = await readFileTool.run({ path: 'f.txt', start_line: 4, end_line: 2 }, ctxFor(ws));
  assert.match(reversed.content, /`end_line`: end_line \(2\) is before start_line \(4\)/);
  const mixed = await readFileTool.run({ path: 'f.txt', start_line: 1, limit: 2 }, ctxFor(ws));
  assert.match(mixed.content, /`offset`: use either start_line\/end_line or offset\/limit/);
  const zero = await readFileTool.run({ path: 'f.txt', start_line: 0 }, ctxFor(ws));
  assert.match(zero.content, /`start_line`: Too small/);
  const missingPath = await readFileTool.run({}, ctxFor(ws));
  assert.match(missingPath.content, /^Invalid arguments for read_file: `path`: /);
  const notJson = await readFileTool.run('{"path": ', ctxFor(ws));
  assert.match(notJson.content, /^Invalid arguments for read_file: not valid JSON/);
});

test('NAV-5: read_file cuts at the preview limit on a line and names the start_line to continue from', async () => {
  ws.write('big.txt', numbered(2000));
  const r = await readFileTool.run({ path: 'big.txt' }, ctxFor(ws, { previewBytes: 1024 }));
  assert.ok(r.ok);
  assert.ok(Buffer.byteLength(r.content) <= 1024, `content is ${Buffer.byteLength(r.content)} bytes`);
  const m = /Lines 1-(\d+) of 2000 shown; continue with start_line=(\d+)\./.exec(r.content);
  assert.ok(m, r.content.slice(-300));
  const last = Number(m[1]);
  assert.equal(Number(m[2]), last + 1);
  assert.ok(r.content.includes(`${last}\tline ${last}\n`));
  assert.ok(!r.content.includes(`\tline ${last + 1}\n`));
  assert.match(r.content, /showed \d+ of \d+ bytes/);
  assert.ok(r.truncated && r.truncated.shownBytes < r.truncated.totalBytes);
  const next = await readFileTool.run({ path: 'big.txt', start_line: last + 1 }, ctxFor(ws, { previewBytes: 1024 }));
  assert.match(next.content, new RegExp(`^ *${last + 1}\tline ${last + 1}\n`));
});

test('read_file refuses binary files, folders and missing files with what to do instead', async () => {
  ws.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe]));
  ws.write('dir/x.txt', 'x');
  const bin = await readFileTool.run({ path: 'img.png' }, ctxFor(ws));
  assert.equal(bin.error?.code, 'binary');
  assert.match(bin.content, /`img\.png` is a binary file/);
  const dir = await readFileTool.run({ path: 'dir' }, ctxFor(ws));
  assert.equal(dir.error?.code, 'not_a_file');
  assert.match(dir.content, /is a folder; use list_dir/);
  const missing = await readFileTool.run({ path: 'nope.ts' }, ctxFor(ws));
  assert.equal(missing.error?.code, 'not_found');
  assert.match(missing.content, /`nope\.ts` does not exist/);
});

test('read_file of an empty file is ok and marked empty', async () => {
  ws.write('empty.txt', '');
  const r = await readFileTool.run({ path: 'empty.txt' }, ctxFor(ws));
  assert.ok(r.ok);
  assert.equal(r.empty, true);
  assert.match(r.content, /empty \(0 lines\)/);
});

test('list_dir lists one level by default, folders with a trailing slash, sorted', async () => {
  ws.write('src/b.ts', '');
  ws.write('src/a.ts', '');
  ws.write('README.md', '');
  ws.write('src/deep/c.ts', '');
  const r = await listDirTool.run({}, ctxFor(ws));
  assert.ok(r.ok);
  assert.equal(r.content, './\nREADME.md\nsrc/');
  const sub = await listDirTool.run({ path: 'src' }, ctxFor(ws));
  assert.equal(sub.content, 'src/\na.ts\nb.ts\ndeep/');
  assert.equal(sub.summary, 'listed src: 3 entries');
});

test('list_dir depth 2-3 indents subfolders and never expands .git or node_modules; symlinks end in @', async () => {
  ws.write('src/deep/deeper/x.ts', '');
  ws.write('node_modules/pkg/index.js', '');
  ws.write('.git/HEAD', '');
  fs.symlinkSync(path.join(ws.root, 'src'), path.join(ws.root, 'alias'));
  const two = await listDirTool.run({ depth: 2 }, ctxFor(ws));
  assert.equal(two.content, './\n.git/ (not expanded)\nalias@\nnode_modules/ (not expanded)\nsrc/\n  deep/');
  const three = await listDirTool.run({ path: 'src', depth: 3 }, ctxFor(ws));
  assert.equal(three.content, 'src/\ndeep/\n  deeper/\n    x.ts');
  const tooDeep = await listDirTool.run({ depth: 4 }, ctxFor(ws));
  assert.match(tooDeep.content, /`depth`: Too big/);
});

test('list_dir: empty folder, a file instead of a folder, a missing folder', async () => {
  fs.mkdirSync(path.join(ws.root, 'empty'));
  ws.write('f.txt', '');
  const empty = await listDirTool.run({ path: 'empty' }, ctxFor(ws));
  assert.ok(empty.ok);
  assert.equal(empty.empty, true);
  const file = await listDirTool.run({ path: 'f.txt' }, ctxFor(ws));
  assert.equal(file.error?.code, 'not_a_directory');
  const missing = await listDirTool.run({ path: 'gone' }, ctxFor(ws));
  assert.equal(missing.error?.code, 'not_found');
});

test('NAV-5: list_dir output is cut to the preview limit with a hint', async () => {
  for (let i = 0; i < 300; i += 1) ws.write(`many/file-${String(i).padStart(3, '0')}.txt`, '');
  const r = await listDirTool.run({ path: 'many' }, ctxFor(ws, { previewBytes: 1000 }));
  assert.ok(Buffer.byteLength(r.content) <= 1000);
  assert.match(r.content, /List a subfolder, or use a smaller depth\.\]$/);
  assert.ok(r.truncated);
});

test('NAV-5: when list_dir stops at its entry cap and the preview cut hides the last line, the cut note still says how many entries were left out', async () => {
  for (let i = 0; i < 520; i += 1) ws.write(`wide/f-${String(i).padStart(3, '0')}.txt`, '');
  const full = await listDirTool.run({ path: 'wide' }, ctxFor(ws, { previewBytes: 64 * 1024 }));
  assert.match(
    full.content,
    /\n… at least 20 more entries not listed \(the listing stops at 500\); list a subfolder or use find_files\.$/,
  );
  const cut = await listDirTool.run({ path: 'wide' }, ctxFor(ws, { previewBytes: 1000 }));
  assert.ok(cut.truncated);
  assert.match(
    cut.content,
    /\[output cut to the preview limit: showed \d+ of \d+ bytes\. \d+ entries shown, at least 20 more entries not listed \(the listing stops at 500\); list a subfolder or use find_files\.\]$/,
  );
});
