/**
 * `.vtcode/.gitignore` when another window or CLI run creates the path between this run's look
 * and its exclusive create: theirs stands, whatever it is, and a create that failed for another
 * reason is not hidden. Found by mutation testing (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { ensureRuntimeGitignore } from '../../../src/core/store/runtime-gitignore';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-gitignore-race-');

/** The node port, with `meanwhile` run right before the exclusive create of the ignore file. */
function racing(meanwhile: (file: string) => void): FileSystem {
  return {
    ...nodeFileSystem,
    async writeNewFileDurable(p, content, mode) {
      meanwhile(p);
      await nodeFileSystem.writeNewFileDurable(p, content, mode);
    },
  };
}

test('a .vtcode/.gitignore created by another run meanwhile is kept as theirs', async () => {
  const root = tempRoot();
  const file = join(root, '.vtcode/.gitignore');
  const r = await ensureRuntimeGitignore(
    racing((p) => fs.writeFileSync(p, '# theirs\n')),
    root,
  );
  assert.deepEqual(r, { status: 'kept', path: file });
  assert.equal(fs.readFileSync(file, 'utf8'), '# theirs\n');
});

test('a symlink put at .vtcode/.gitignore meanwhile is refused, not written through', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const victim = join(outside, 'victim');
  const file = join(root, '.vtcode/.gitignore');
  const r = await ensureRuntimeGitignore(
    racing((p) => fs.symlinkSync(victim, p)),
    root,
  );
  assert.deepEqual(r, { status: 'refused', path: file, found: 'symlink' });
  assert.equal(fs.existsSync(victim), false);
});

test('a create that fails with nothing at the path throws its error', async () => {
  const root = tempRoot();
  const denied = new Error('EACCES: permission denied');
  const failing: FileSystem = {
    ...nodeFileSystem,
    writeNewFileDurable: async () => {
      throw denied;
    },
  };
  await assert.rejects(ensureRuntimeGitignore(failing, root), (err: unknown) => err === denied);
  assert.equal(fs.existsSync(join(root, '.vtcode/.gitignore')), false);
});
