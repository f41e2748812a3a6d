/**
 * STORE-2, TRK-7: a publication of several artifacts when something goes wrong part-way: a temp
 * file that cannot be written, a failed rename, an external edit found right before a rename, a
 * rollback that finds an edit or fails itself. Each case pins the result or error the caller
 * reports and what stays on disk. Found by mutation testing (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { PublishError, StoreError, publishAtomic, writePrivateAtomic } from '../../../src/core/store/atomic';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-atomic-publication-');

function leftovers(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')) : [];
}

/** Three artifacts of one publication, `a` already on disk with `a v1`. */
/** The node file system, with a user typing `text` into `file` once all three temp files are staged. */
function typingAfterStaging(file: string, text: string): FileSystem {
  let staged = 0;
  return {
    ...nodeFileSystem,
    async writeNewFileDurable(p, content, mode) {
      await nodeFileSystem.writeNewFileDurable(p, content, mode);
      staged += 1;
      if (staged === 3) fs.writeFileSync(file, text);
    },
  };
}

async function threeFiles(): Promise<{ root: string; plans: string; a: string; b: string; c: string }> {
  const root = tempRoot();
  const plans = join(root, '.vtcode/plans');
  const a = join(plans, 'a.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: a, content: 'a v1' });
  return { root, plans, a, b: join(plans, 'b.md'), c: join(plans, 'c.md') };
}

const newContent = (a: string, b: string, c: string) => [
  { path: a, content: 'a v2' },
  { path: b, content: 'b v1' },
  { path: c, content: 'c v1' },
];

test('STORE-2: a temp file that cannot be written stops the publication before any rename, with no temp file left', async () => {
  const { root, plans, a, b, c } = await threeFiles();
  const diskFull = new Error('ENOSPC: no space left on device');
  const failing: FileSystem = {
    ...nodeFileSystem,
    async writeNewFileDurable(p, content, mode) {
      if (p.includes('.b.md.')) {
        fs.writeFileSync(p, content.slice(0, 2)); // a partial temp file, as a full disk leaves it
        throw diskFull;
      }
      await nodeFileSystem.writeNewFileDurable(p, content, mode);
    },
  };
  await assert.rejects(publishAtomic(failing, { root, files: newContent(a, b, c) }), (err: unknown) => {
    assert.ok(err instanceof StoreError && !(err instanceof PublishError), String(err));
    assert.equal(err.code, 'write_failed');
    assert.equal(err.message, `could not write ${b}: ENOSPC: no space left on device`);
    assert.equal(err.cause, diskFull);
    return true;
  });
  assert.equal(fs.readFileSync(a, 'utf8'), 'a v1');
  assert.equal(fs.existsSync(b), false);
  assert.deepEqual(leftovers(plans), []);
});

test('STORE-2: a first rename that fails reports just that failure: nothing was written, nothing restored', async () => {
  const { root, plans, a, b, c } = await threeFiles();
  const failing: FileSystem = {
    ...nodeFileSystem,
    rename: async () => {
      throw new Error('EIO: i/o error');
    },
  };
  await assert.rejects(publishAtomic(failing, { root, files: newContent(a, b, c) }), (err: unknown) => {
    assert.ok(err instanceof PublishError, String(err));
    assert.equal(err.name, 'PublishError');
    assert.equal(err.code, 'write_failed');
    assert.equal(err.message, `could not write ${a}: EIO: i/o error`);
    assert.deepEqual(err.rollbackFailures, []);
    return true;
  });
  assert.equal(fs.readFileSync(a, 'utf8'), 'a v1');
  assert.deepEqual(leftovers(plans), []);
});

test('STORE-2: a rollback keeps an earlier file that was edited after its rename, and says so', async () => {
  const { root, a, b, c } = await threeFiles();
  const failing: FileSystem = {
    ...nodeFileSystem,
    async rename(from, to) {
      if (to === b) {
        fs.writeFileSync(a, 'typed into a meanwhile');
        throw new Error('EIO: i/o error');
      }
      await nodeFileSystem.rename(from, to);
    },
  };
  await assert.rejects(publishAtomic(failing, { root, files: newContent(a, b, c) }), (err: unknown) => {
    assert.ok(err instanceof PublishError, String(err));
    assert.deepEqual(err.rollbackFailures, []);
    assert.ok(err.message.startsWith(`could not write ${b}: EIO: i/o error; `), err.message);
    assert.ok(err.message.endsWith(`; kept external edits: ${a}`), err.message);
    return true;
  });
  assert.equal(fs.readFileSync(a, 'utf8'), 'typed into a meanwhile');
  assert.equal(fs.existsSync(b), false);
});

test('STORE-2: every failed rollback is listed in the error', async () => {
  const { root, a, b, c } = await threeFiles();
  let renames = 0;
  const failing: FileSystem = {
    ...nodeFileSystem,
    async rename(from, to) {
      renames += 1;
      if (renames > 2) throw new Error(`rename ${renames} refused`);
      await nodeFileSystem.rename(from, to);
    },
    removeFile: async (p) => {
      if (p === b) throw new Error('EBUSY: b is busy');
      await nodeFileSystem.removeFile(p);
    },
  };
  await assert.rejects(publishAtomic(failing, { root, files: newContent(a, b, c) }), (err: unknown) => {
    assert.ok(err instanceof PublishError, String(err));
    assert.equal(err.rollbackFailures.length, 2);
    assert.ok(err.rollbackFailures.some((f) => f === `${b}: EBUSY: b is busy`));
    assert.ok(err.rollbackFailures.some((f) => f.startsWith(`${a}: rename `)));
    assert.equal(
      err.message,
      `could not write ${c}: rename 3 refused; rollback failed: ${err.rollbackFailures.join('; ')}`,
    );
    return true;
  });
});

test('STORE-2: an edit found before the first rename leaves every file of the publication unwritten', async () => {
  const { root, plans, a, b, c } = await threeFiles();
  const racing = typingAfterStaging(a, 'typed into a meanwhile');
  const r = await publishAtomic(racing, { root, files: newContent(a, b, c) });
  assert.equal(r.published, false);
  assert.deepEqual(r.results, [
    { path: a, written: false, externalEdit: r.externalEdits[0] },
    { path: b, written: false },
    { path: c, written: false },
  ]);
  assert.deepEqual(
    r.externalEdits.map((e) => [e.path, e.current]),
    [[a, 'typed into a meanwhile']],
  );
  assert.deepEqual(fs.readdirSync(plans), ['a.md']);
});

test('STORE-2: an edit found before a later rename rolls the earlier files back and reports only that edit', async () => {
  const { root, plans, a, b, c } = await threeFiles();
  await writePrivateAtomic(nodeFileSystem, { root, path: b, content: 'b v0' });
  const racing = typingAfterStaging(b, 'typed into b meanwhile');
  const r = await publishAtomic(racing, { root, files: newContent(a, b, c) });
  assert.equal(r.published, false);
  assert.deepEqual(
    r.externalEdits.map((e) => [e.path, e.current]),
    [[b, 'typed into b meanwhile']],
  );
  assert.deepEqual(r.results, [
    { path: a, written: false },
    { path: b, written: false, externalEdit: r.externalEdits[0] },
    { path: c, written: false },
  ]);
  assert.equal(fs.readFileSync(a, 'utf8'), 'a v1', 'a restored');
  assert.equal(fs.readFileSync(b, 'utf8'), 'typed into b meanwhile');
  assert.deepEqual(fs.readdirSync(plans).sort(), ['a.md', 'b.md']);
});

test('STORE-2: an edit found before a later rename whose rollback fails is an error naming both', async () => {
  const { root, a, b, c } = await threeFiles();
  await writePrivateAtomic(nodeFileSystem, { root, path: b, content: 'b v0' });
  let renames = 0;
  const racing: FileSystem = {
    ...typingAfterStaging(b, 'typed into b meanwhile'),
    async rename(from, to) {
      renames += 1;
      if (renames > 1) throw new Error('EROFS: read-only file system');
      await nodeFileSystem.rename(from, to);
    },
  };
  await assert.rejects(publishAtomic(racing, { root, files: newContent(a, b, c) }), (err: unknown) => {
    assert.ok(err instanceof PublishError, String(err));
    assert.equal(err.code, 'write_failed');
    assert.equal(err.path, b);
    assert.deepEqual(err.rollbackFailures, [`${a}: EROFS: read-only file system`]);
    assert.equal(
      err.message,
      `${b} was changed by someone else while it was being updated; their edit was kept and nothing was written; rolling back the files already written failed: ${a}: EROFS: read-only file system`,
    );
    return true;
  });
  assert.equal(fs.readFileSync(b, 'utf8'), 'typed into b meanwhile');
});

test('STORE-2: an edit found while reading stops the publication: the files not yet written say written: false', async () => {
  const { root, a, b } = await threeFiles();
  fs.writeFileSync(a, 'typed into a');
  const r = await publishAtomic(nodeFileSystem, {
    root,
    files: [
      { path: b, content: 'b v1', expected: null },
      { path: a, content: 'a v2', expected: 'a v1' },
    ],
  });
  assert.equal(r.published, false);
  assert.deepEqual(r.results, [
    { path: b, written: false },
    { path: a, written: false, externalEdit: r.externalEdits[0] },
  ]);
  assert.equal(fs.existsSync(b), false);
});

test('STORE-2: a file deleted by someone else since it was read is reported as a deletion and stays deleted', async () => {
  const { root, a } = await threeFiles();
  fs.rmSync(a);
  const r = await writePrivateAtomic(nodeFileSystem, { root, path: a, content: 'a v2', expected: 'a v1' });
  assert.deepEqual(r, {
    path: a,
    written: false,
    externalEdit: {
      path: a,
      current: null,
      message: `${a} was deleted by someone else while it was being updated; the deletion was kept and nothing was written`,
    },
  });
  assert.equal(fs.existsSync(a), false);
});
