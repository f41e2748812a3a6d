import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import { readFileTool, resolveWorkspacePath, ToolFailure, writeFileTool } from '../../../src/core/tools';
import { ctxFor, makeWorkspace, type Workspace } from './helpers';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write('src/a.ts', 'export const a = 1;\n');
  fs.writeFileSync(path.join(ws.outside, 'secret.txt'), 'secret\n');
});
afterEach(() => ws.cleanup());

async function refusal(given: string): Promise<ToolFailure> {
  try {
    await resolveWorkspacePath(nodeFileSystem, ws.root, given);
  } catch (err) {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure for ${given}, got ${String(err)}`);
    return err;
  }
  assert.fail(`${given} was accepted`);
}

test('RO-1: relative, ./ and absolute-inside paths resolve to the same workspace file', async () => {
  for (const given of ['src/a.ts', './src/a.ts', 'src/../src/a.ts', path.join(ws.root, 'src/a.ts')]) {
    const p = await resolveWorkspacePath(nodeFileSystem, ws.root, given);
    assert.equal(p.relative, 'src/a.ts', given);
    assert.equal(p.real, path.join(ws.root, 'src/a.ts'));
    assert.equal(p.stat?.kind, 'file');
  }
  const rootItself = await resolveWorkspacePath(nodeFileSystem, ws.root, '.');
  assert.equal(rootItself.relative, '.');
});

test('RO-1: `..` escapes are refused in plain words naming the path and the workspace', async () => {
  for (const given of ['..', '../outside/secret.txt', 'src/../../outside/secret.txt']) {
    const err = await refusal(given);
    assert.equal(err.code, 'outside_workspace');
    assert.match(err.message, /climbs out with `\.\.`/);
    assert.ok(err.message.includes(ws.root));
  }
});

test('RO-1: absolute paths outside the workspace are refused, also a sibling sharing the prefix', async () => {
  fs.mkdirSync(`${ws.root}-sibling`);
  for (const given of ['/etc/passwd', path.join(ws.outside, 'secret.txt'), `${ws.root}-sibling/x`]) {
    const err = await refusal(given);
    assert.equal(err.code, 'outside_workspace', given);
    assert.match(err.message, /is an absolute path, which is outside the workspace/);
  }
  fs.rmSync(`${ws.root}-sibling`, { recursive: true });
});

test('RO-1: a symlink leading out of the workspace is refused, for the file and for a folder on the way', async () => {
  fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
  fs.symlinkSync(ws.outside, path.join(ws.root, 'out'));
  for (const given of ['link.txt', 'out/secret.txt', 'out/new-file.txt']) {
    const err = await refusal(given);
    assert.equal(err.code, 'outside_workspace', given);
    assert.match(err.message, /resolves through a symbolic link to `.*outside/);
  }
  const r = await readFileTool.run({ path: 'link.txt' }, ctxFor(ws));
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'outside_workspace');
  assert.ok(!r.content.includes('secret\n'));
});

test('RO-1: a dangling symlink is not followed by a write', async () => {
  fs.symlinkSync(path.join(ws.outside, 'created-by-agent.txt'), path.join(ws.root, 'dangling.txt'));
  const r = await writeFileTool.run({ path: 'dangling.txt', content: 'x' }, ctxFor(ws, { mode: 'build' }));
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'outside_workspace');
  assert.ok(!fs.existsSync(path.join(ws.outside, 'created-by-agent.txt')));
});

test('RO-1: a symlink that stays inside the workspace is followed', async () => {
  fs.symlinkSync(path.join(ws.root, 'src'), path.join(ws.root, 'alias'));
  const p = await resolveWorkspacePath(nodeFileSystem, ws.root, 'alias/a.ts');
  assert.equal(p.relative, 'alias/a.ts');
  assert.equal(p.real, path.join(ws.root, 'src/a.ts'));
  const r = await readFileTool.run({ path: 'alias/a.ts' }, ctxFor(ws));
  assert.ok(r.ok);
  assert.match(r.content, /export const a = 1;/);
});

test('RO-1: a workspace opened through a symlinked folder accepts paths under either spelling', async () => {
  const linkedRoot = path.join(ws.base, 'linked-ws');
  fs.symlinkSync(ws.root, linkedRoot);
  const viaLink = await resolveWorkspacePath(nodeFileSystem, linkedRoot, path.join(ws.root, 'src/a.ts'));
  assert.equal(viaLink.relative, 'src/a.ts');
  const relative = await resolveWorkspacePath(nodeFileSystem, linkedRoot, 'src/a.ts');
  assert.equal(relative.real, path.join(ws.root, 'src/a.ts'));
});

test('RO-1: missing files resolve (for creation) with stat null; home paths and NUL bytes are refused', async () => {
  const p = await resolveWorkspacePath(nodeFileSystem, ws.root, 'new/dir/file.ts');
  assert.equal(p.stat, null);
  assert.equal(p.real, path.join(ws.root, 'new/dir/file.ts'));
  assert.equal((await refusal('~/.ssh/id_rsa')).code, 'outside_workspace');
  assert.equal((await refusal('a\0b')).code, 'invalid_args');
});
