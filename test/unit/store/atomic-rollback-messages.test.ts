/**
 * STORE-2: what the error of a publication that failed part-way says about its rollback. It counts
 * only the earlier files it actually restored (an earlier file someone edited meanwhile is kept,
 * not restored), says nothing about restoring when none was, and lists every kept edit and every
 * rollback failure, each separated from the next.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { PublishError, publishAtomic, writePrivateAtomic } from '../../../src/core/store/atomic';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-atomic-rollback-messages-');

/** Three artifacts of one publication: `a` on disk with `a v1`, `b` and `c` new. */
async function threeFiles(): Promise<{ root: string; a: string; b: string; c: string }> {
  const root = tempRoot();
  const plans = join(root, '.vtcode/plans');
  const a = join(plans, 'a.md');
  await writePrivateAtomic(nodeFileSystem, { root, path: a, content: 'a v1' });
  return { root, a, b: join(plans, 'b.md'), c: join(plans, 'c.md') };
}

const newContent = (a: string, b: string, c: string) => [
  { path: a, content: 'a v2' },
  { path: b, content: 'b v1' },
  { path: c, content: 'c v1' },
];

/** The node file system whose rename onto `target` fails, after `meanwhile` ran (a user typing). */
function renameFailsOnto(target: string, meanwhile: () => void): FileSystem {
  return {
    ...nodeFileSystem,
    async rename(from, to) {
      if (to === target) {
        meanwhile();
        throw new Error('EIO: i/o error');
      }
      await nodeFileSystem.rename(from, to);
    },
  };
}

async function publishError(
  fsys: FileSystem,
  root: string,
  files: ReturnType<typeof newContent>,
): Promise<PublishError> {
  const err = await publishAtomic(fsys, { root, files }).then(
    () => assert.fail('the publication should have failed'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof PublishError, String(err));
  return err;
}

test('STORE-2: a failed publication counts only the earlier files restored, not the one kept for an external edit', async () => {
  const { root, a, b, c } = await threeFiles();
  const failing = renameFailsOnto(c, () => fs.writeFileSync(a, 'typed into a meanwhile'));
  const err = await publishError(failing, root, newContent(a, b, c));
  assert.equal(
    err.message,
    `could not write ${c}: EIO: i/o error; 1 earlier file(s) of this publication were restored; kept external edits: ${a}`,
  );
  assert.deepEqual(err.rollbackFailures, []);
  assert.equal(fs.readFileSync(a, 'utf8'), 'typed into a meanwhile');
  assert.equal(fs.existsSync(b), false, 'b, new in this publication, was removed again');
});

test('STORE-2: when every earlier file was kept for an external edit, the error restores nothing and lists both edits', async () => {
  const { root, a, b, c } = await threeFiles();
  const failing = renameFailsOnto(c, () => {
    fs.writeFileSync(a, 'typed into a meanwhile');
    fs.writeFileSync(b, 'typed into b meanwhile');
  });
  const err = await publishError(failing, root, newContent(a, b, c));
  assert.equal(err.message, `could not write ${c}: EIO: i/o error; kept external edits: ${b}, ${a}`);
  assert.equal(fs.readFileSync(a, 'utf8'), 'typed into a meanwhile');
  assert.equal(fs.readFileSync(b, 'utf8'), 'typed into b meanwhile');
});

test('STORE-2: a failed publication whose rollback restored one file and failed on another says both', async () => {
  const { root, a, b, c } = await threeFiles();
  const failing: FileSystem = {
    ...renameFailsOnto(c, () => undefined),
    removeFile: async (p) => {
      if (p === b) throw new Error('EBUSY: b is busy');
      await nodeFileSystem.removeFile(p);
    },
  };
  const err = await publishError(failing, root, newContent(a, b, c));
  assert.deepEqual(err.rollbackFailures, [`${b}: EBUSY: b is busy`]);
  assert.equal(
    err.message,
    `could not write ${c}: EIO: i/o error; 1 earlier file(s) of this publication were restored; rollback failed: ${b}: EBUSY: b is busy`,
  );
  assert.equal(fs.readFileSync(a, 'utf8'), 'a v1', 'a restored');
});

test('STORE-2: an external edit whose rollback fails on two earlier files names both failures, separated', async () => {
  const { root, a, b, c } = await threeFiles();
  await writePrivateAtomic(nodeFileSystem, { root, path: c, content: 'c v0' });
  let staged = 0;
  let renames = 0;
  const racing: FileSystem = {
    ...nodeFileSystem,
    async writeNewFileDurable(p, content, mode) {
      await nodeFileSystem.writeNewFileDurable(p, content, mode);
      staged += 1;
      if (staged === 3) fs.writeFileSync(c, 'typed into c meanwhile');
    },
    async rename(from, to) {
      renames += 1;
      if (renames > 2) throw new Error('EROFS: read-only file system');
      await nodeFileSystem.rename(from, to);
    },
    removeFile: async (p) => {
      if (p === b) throw new Error('EBUSY: b is busy');
      await nodeFileSystem.removeFile(p);
    },
  };
  const err = await publishError(racing, root, newContent(a, b, c));
  assert.equal(err.path, c);
  assert.deepEqual(err.rollbackFailures, [`${b}: EBUSY: b is busy`, `${a}: EROFS: read-only file system`]);
  assert.equal(
    err.message,
    `${c} was changed by someone else while it was being updated; their edit was kept and nothing was written; rolling back the files already written failed: ${b}: EBUSY: b is busy; ${a}: EROFS: read-only file system`,
  );
  assert.equal(fs.readFileSync(c, 'utf8'), 'typed into c meanwhile');
});
