import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { nodeFileSystem } from '../../../src/node/fs';
import { ensureRuntimeGitignore, RUNTIME_GITIGNORE_CONTENT } from '../../../src/core/store/runtime-gitignore';
import { SessionLog } from '../../../src/core/session/log';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-gitignore-');

test('.vtcode/.gitignore is created once: sessions/ and tasks/ ignored, plans/ not', async () => {
  const root = tempRoot();
  const file = join(root, '.vtcode/.gitignore');
  assert.deepEqual(await ensureRuntimeGitignore(nodeFileSystem, root), { status: 'created', path: file });
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(text, RUNTIME_GITIGNORE_CONTENT);
  const rules = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  assert.deepEqual(rules, ['sessions/', 'tasks/', 'approvals/']);
  assert.equal(fs.statSync(file).mode & 0o777, 0o644);

  const mtime = fs.statSync(file).mtimeMs;
  assert.deepEqual(await ensureRuntimeGitignore(nodeFileSystem, root), { status: 'kept', path: file });
  assert.equal(fs.statSync(file).mtimeMs, mtime, 'the second call does not touch the file');
});

test("a user's own .vtcode/.gitignore is kept as it is", async () => {
  const root = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  fs.writeFileSync(join(root, '.vtcode/.gitignore'), '# we commit session logs\n');
  const r = await ensureRuntimeGitignore(nodeFileSystem, root);
  assert.equal(r.status, 'kept');
  assert.equal(fs.readFileSync(join(root, '.vtcode/.gitignore'), 'utf8'), '# we commit session logs\n');
});

test('a symlink at .vtcode/.gitignore is refused and never written through (dangling or not)', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  const victim = join(outside, 'victim');
  fs.symlinkSync(victim, join(root, '.vtcode/.gitignore'));
  assert.deepEqual(await ensureRuntimeGitignore(nodeFileSystem, root), {
    status: 'refused',
    path: join(root, '.vtcode/.gitignore'),
    found: 'symlink',
  });
  assert.equal(fs.existsSync(victim), false, 'the dangling target was not created');

  fs.writeFileSync(victim, 'precious');
  assert.equal((await ensureRuntimeGitignore(nodeFileSystem, root)).status, 'refused');
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious');
  assert.equal(fs.lstatSync(join(root, '.vtcode/.gitignore')).isSymbolicLink(), true);
});

test('a symlinked .vtcode is not written into', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  fs.symlinkSync(outside, join(root, '.vtcode'));
  const r = await ensureRuntimeGitignore(nodeFileSystem, root);
  assert.deepEqual(r, { status: 'refused', path: join(root, '.vtcode'), found: 'symlink' });
  assert.deepEqual(fs.readdirSync(outside), []);
});

test('opening a session log (every session, extension and CLI) writes the ignore file; git then ignores sessions/ and tasks/ only', async (t) => {
  const root = tempRoot();
  await SessionLog.open(nodeFileSystem, root, 's1', { key: new Uint8Array(32).fill(7) });
  assert.equal(fs.readFileSync(join(root, '.vtcode/.gitignore'), 'utf8'), RUNTIME_GITIGNORE_CONTENT);

  const git = spawnSync('git', ['--version']);
  if (git.status !== 0) return t.skip('git is not installed');
  const run = (...args: string[]) =>
    spawnSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  assert.equal(run('init', '-q').status, 0);
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  fs.mkdirSync(join(root, '.vtcode/tasks'), { recursive: true });
  fs.writeFileSync(join(root, '.vtcode/plans/a.md'), '# A\n');
  fs.writeFileSync(join(root, '.vtcode/plans/a.tasks.md'), '# A\n');
  fs.writeFileSync(join(root, '.vtcode/tasks/current_task.md'), '# A\n');
  const status = run('status', '--porcelain', '--untracked-files=all')
    .stdout.split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3))
    .sort();
  assert.deepEqual(status, ['.vtcode/.gitignore', '.vtcode/plans/a.md', '.vtcode/plans/a.tasks.md']);
});
