import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { PublishError, StoreError, publishAtomic, writePrivateAtomic } from '../../../src/core/store/atomic';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-atomic-');

function leftovers(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')) : [];
}

test('STORE-2: a new file is created with owner-only permissions and parents are created', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  const r = await writePrivateAtomic(nodeFileSystem, { root, path: target, content: '# A\n' });
  assert.deepEqual(r, { path: target, written: true });
  assert.equal(fs.readFileSync(target, 'utf8'), '# A\n');
  assert.equal(fs.statSync(target).mode & 0o777, 0o600);
  assert.deepEqual(leftovers(join(root, '.vtcode/plans')), []);
});

test('STORE-2: replacing an existing file keeps it private even when it was world-readable', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  fs.writeFileSync(target, 'old', { mode: 0o644 });
  const r = await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'new' });
  assert.equal(r.written, true);
  assert.equal(fs.readFileSync(target, 'utf8'), 'new');
  assert.equal(fs.statSync(target).mode & 0o777, 0o600);
});

test('STORE-2: identical content is not rewritten and the mtime is kept', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'same' });
  const past = new Date(Date.now() - 60_000);
  fs.utimesSync(target, past, past);
  const before = fs.statSync(target).mtimeMs;
  const r = await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'same', expected: 'same' });
  assert.deepEqual(r, { path: target, written: false });
  assert.equal(fs.statSync(target).mtimeMs, before);
});

test('STORE-2: a symlinked target is refused with a specific error and its destination untouched', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  fs.writeFileSync(join(outside, 'victim.txt'), 'precious');
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  fs.symlinkSync(join(outside, 'victim.txt'), join(root, '.vtcode/plans/a.md'));
  await assert.rejects(
    writePrivateAtomic(nodeFileSystem, { root, path: join(root, '.vtcode/plans/a.md'), content: 'x' }),
    (err: unknown) =>
      err instanceof StoreError && err.code === 'symlink' && /the file is a symbolic link/.test(err.message),
  );
  assert.equal(fs.readFileSync(join(outside, 'victim.txt'), 'utf8'), 'precious');
});

test('STORE-2: a symlinked parent inside .vtcode is refused (plans folder and .vtcode itself)', async () => {
  for (const linked of ['.vtcode', '.vtcode/plans']) {
    const root = tempRoot();
    const outside = tempRoot();
    const parent = join(root, linked, '..');
    fs.mkdirSync(parent, { recursive: true });
    fs.symlinkSync(outside, join(root, linked));
    await assert.rejects(
      writePrivateAtomic(nodeFileSystem, { root, path: join(root, '.vtcode/plans/a.md'), content: 'x' }),
      (err: unknown) => err instanceof StoreError && err.code === 'symlink' && err.message.includes(join(root, linked)),
      linked,
    );
    assert.deepEqual(fs.readdirSync(outside), [], linked);
  }
});

test('STORE-2: a target outside the workspace root is refused', async () => {
  const root = tempRoot();
  await assert.rejects(
    writePrivateAtomic(nodeFileSystem, { root, path: join(root, '../elsewhere.md'), content: 'x' }),
    (err: unknown) => err instanceof StoreError && err.code === 'outside_root',
  );
});

test('STORE-2: a concurrent external edit (content differs from expected) is kept and reported', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'v1' });
  fs.writeFileSync(target, 'user edit');
  const r = await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'v2', expected: 'v1' });
  assert.equal(r.written, false);
  assert.equal(r.externalEdit?.current, 'user edit');
  assert.match(r.externalEdit?.message ?? '', /their edit was kept/);
  assert.equal(fs.readFileSync(target, 'utf8'), 'user edit');
});

test('STORE-2: an edit made while the temp file is being staged is kept, the temp file removed', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'v1' });
  const racing: FileSystem = {
    ...nodeFileSystem,
    async writeNewFileDurable(p, c, m) {
      await nodeFileSystem.writeNewFileDurable(p, c, m);
      fs.writeFileSync(target, 'typed meanwhile');
    },
  };
  const r = await writePrivateAtomic(racing, { root, path: target, content: 'v2' });
  assert.equal(r.written, false);
  assert.equal(r.externalEdit?.current, 'typed meanwhile');
  assert.equal(fs.readFileSync(target, 'utf8'), 'typed meanwhile');
  assert.deepEqual(leftovers(join(root, '.vtcode/plans')), []);
});

test('STORE-2: a failed later write rolls back the earlier writes of the same publication', async () => {
  const root = tempRoot();
  const a = join(root, '.vtcode/plans/a.md');
  const b = join(root, '.vtcode/plans/a.tasks.md');
  const c = join(root, '.vtcode/tasks/current_task.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: a, content: 'plan v1' });
  const failing: FileSystem = {
    ...nodeFileSystem,
    async rename(from, to) {
      if (to === c) throw new Error('disk full');
      await nodeFileSystem.rename(from, to);
    },
  };
  await assert.rejects(
    publishAtomic(failing, {
      root,
      files: [
        { path: a, content: 'plan v2' },
        { path: b, content: 'tracker' },
        { path: c, content: 'global' },
      ],
    }),
    (err: unknown) =>
      err instanceof PublishError && /disk full/.test(err.message) && /2 earlier file\(s\)/.test(err.message),
  );
  assert.equal(fs.readFileSync(a, 'utf8'), 'plan v1');
  assert.equal(fs.existsSync(b), false);
  assert.equal(fs.existsSync(c), false);
  assert.deepEqual(leftovers(join(root, '.vtcode/plans')), []);
  assert.deepEqual(leftovers(join(root, '.vtcode/tasks')), []);
});

test('STORE-2: a rollback failure stays visible in the error', async () => {
  const root = tempRoot();
  const a = join(root, '.vtcode/plans/a.md');
  const b = join(root, '.vtcode/plans/b.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: a, content: 'plan v1' });
  let renames = 0;
  const failing: FileSystem = {
    ...nodeFileSystem,
    async rename(from, to) {
      renames += 1;
      if (renames >= 2) throw new Error(`rename ${renames} failed`);
      await nodeFileSystem.rename(from, to);
    },
  };
  await assert.rejects(
    publishAtomic(failing, {
      root,
      files: [
        { path: a, content: 'plan v2' },
        { path: b, content: 'b' },
      ],
    }),
    (err: unknown) =>
      err instanceof PublishError &&
      err.rollbackFailures.length === 1 &&
      /rollback failed: .*a\.md: rename 3 failed/.test(err.message),
  );
  assert.deepEqual(leftovers(join(root, '.vtcode/plans')), []);
  assert.equal(
    fs.readFileSync(a, 'utf8'),
    'plan v2',
    'the failed rollback leaves the new content visible, not a partial file',
  );
});

test('STORE-2: all artifacts are read first; an external edit on any stops the publication before writing', async () => {
  const root = tempRoot();
  const a = join(root, '.vtcode/plans/a.md');
  const b = join(root, '.vtcode/plans/a.tasks.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: b, content: 'user tracker' });
  const r = await publishAtomic(nodeFileSystem, {
    root,
    files: [
      { path: a, content: 'plan', expected: null },
      { path: b, content: 'tracker', expected: null },
    ],
  });
  assert.equal(r.published, false);
  assert.deepEqual(
    r.externalEdits.map((e) => e.path),
    [b],
  );
  assert.equal(fs.existsSync(a), false);
  assert.equal(fs.readFileSync(b, 'utf8'), 'user tracker');
});

test('STORE-2: a publication of identical content writes nothing and reports published', async () => {
  const root = tempRoot();
  const a = join(root, '.vtcode/plans/a.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: a, content: 'p' });
  const r = await publishAtomic(nodeFileSystem, { root, files: [{ path: a, content: 'p' }] });
  assert.deepEqual(r, { published: true, results: [{ path: a, written: false }], externalEdits: [] });
});

test('STORE-2: a parent swapped for a symlink while the temp file is staged is refused before the rename', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const plans = join(root, '.vtcode/plans');
  fs.mkdirSync(plans, { recursive: true });
  const swapping: FileSystem = {
    ...nodeFileSystem,
    async writeNewFileDurable(p, c, m) {
      await nodeFileSystem.writeNewFileDurable(p, c, m);
      fs.renameSync(plans, join(root, '.vtcode/moved'));
      fs.symlinkSync(outside, plans);
    },
  };
  await assert.rejects(
    writePrivateAtomic(swapping, { root, path: join(plans, 'a.md'), content: 'x' }),
    (err: unknown) => err instanceof PublishError && err.code === 'symlink' && /symbolic link/.test(err.message),
  );
  assert.deepEqual(fs.readdirSync(outside), []);
});

test('STORE-2: a parent swapped for a symlink while the parents are created is refused before anything is staged', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const plans = join(root, '.vtcode/plans');
  const staged: string[] = [];
  const swapping: FileSystem = {
    ...nodeFileSystem,
    async mkdirp(p) {
      await nodeFileSystem.mkdirp(p);
      fs.renameSync(plans, join(root, '.vtcode/moved'));
      fs.symlinkSync(outside, plans);
    },
    async writeNewFileDurable(p, c, m) {
      staged.push(p);
      await nodeFileSystem.writeNewFileDurable(p, c, m);
    },
  };
  await assert.rejects(
    writePrivateAtomic(swapping, { root, path: join(plans, 'a.md'), content: 'x' }),
    (err: unknown) => err instanceof StoreError && err.code === 'symlink' && err.message.includes(plans),
  );
  assert.deepEqual(staged, [], 'no temp file was written through the symlink');
  assert.deepEqual(fs.readdirSync(outside), []);
});
