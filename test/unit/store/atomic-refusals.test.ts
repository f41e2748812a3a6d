/**
 * STORE-2: what the private atomic writer refuses, and the error each refusal carries (code, name
 * and a message that names the offending path). Found by mutation testing (docs/testing.md): the
 * earlier tests checked the codes of some refusals but none of these messages.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { nodeFileSystem } from '../../../src/node/fs';
import { StoreError, writePrivateAtomic } from '../../../src/core/store/atomic';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-atomic-refusals-');

async function refusal(root: string, target: string): Promise<StoreError> {
  try {
    await writePrivateAtomic(nodeFileSystem, { root, path: target, content: 'x' });
  } catch (err) {
    assert.ok(err instanceof StoreError, `a StoreError, got ${String(err)}`);
    assert.equal(err.name, 'StoreError');
    return err;
  }
  assert.fail(`writing ${target} was not refused`);
}

test('STORE-2: the workspace root itself is not a target inside the workspace', async () => {
  const root = tempRoot();
  const err = await refusal(root, root);
  assert.equal(err.code, 'outside_root');
  assert.equal(err.message, `refusing to write ${root}: it is not inside the workspace ${root}`);
});

test('STORE-2: a target that is a directory is refused as not a regular file', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  fs.mkdirSync(target, { recursive: true });
  const err = await refusal(root, target);
  assert.equal(err.code, 'not_a_file');
  assert.equal(err.message, `refusing to write ${target}: ${target} is a directory, expected a regular file`);
});

test('STORE-2: a parent that is a regular file is refused, naming that parent', async () => {
  const root = tempRoot();
  const plans = join(root, '.vtcode/plans');
  fs.mkdirSync(join(root, '.vtcode'));
  fs.writeFileSync(plans, 'a file where the plans folder belongs');
  const target = join(plans, 'a.md');
  const err = await refusal(root, target);
  assert.equal(err.code, 'not_a_file');
  assert.equal(err.message, `refusing to write ${target}: ${plans} is a regular file, expected a directory`);
  assert.equal(fs.readFileSync(plans, 'utf8'), 'a file where the plans folder belongs');
});

test('STORE-2: a FIFO at the target is refused as a special file, without opening it', async () => {
  const root = tempRoot();
  const target = join(root, '.vtcode/plans/a.md');
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  execFileSync('mkfifo', [target]);
  const err = await refusal(root, target);
  assert.equal(err.code, 'not_a_file');
  assert.equal(
    err.message,
    `refusing to write ${target}: ${target} is a special file (a FIFO, socket or device), expected a regular file`,
  );
});

test('STORE-2: a symlinked parent is named as the parent in the refusal', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  const plans = join(root, '.vtcode/plans');
  fs.symlinkSync(outside, plans);
  const target = join(plans, 'a.md');
  const err = await refusal(root, target);
  assert.equal(err.code, 'symlink');
  assert.equal(
    err.message,
    `refusing to write ${target}: its parent ${plans} is a symbolic link (a redirect out of the workspace's .vtcode folder is not followed)`,
  );
  assert.deepEqual(fs.readdirSync(outside), []);
});
