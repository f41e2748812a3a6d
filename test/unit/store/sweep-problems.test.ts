/**
 * STORE-2: the start-up sweep's exact reports when a folder is not what it should be, when a
 * removal fails or the folder goes away meanwhile, the grace period's boundary, and the names it
 * must never take for its own temp files. Found by mutation testing (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { isAtomicTempName } from '../../../src/core/store/atomic';
import { STALE_TEMP_GRACE_MS, sweepStaleTempFiles } from '../../../src/core/store/sweep';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-sweep-problems-', { realpath: true });

const TEMP_NAME = '.a.md.lx3k2j1a1abcdef.tmp';

/** A stale temp file in `.vtcode/plans`, its mtime a whole second (so mtimeMs reads back exactly). */
function staleTemp(root: string): { plans: string; temp: string; mtimeMs: number } {
  const plans = join(root, '.vtcode/plans');
  fs.mkdirSync(plans, { recursive: true });
  const temp = join(plans, TEMP_NAME);
  fs.writeFileSync(temp, 'left by a killed write');
  const seconds = Math.floor(Date.now() / 1000) - 3600;
  fs.utimesSync(temp, seconds, seconds);
  return { plans, temp, mtimeMs: fs.statSync(temp).mtimeMs };
}

test('STORE-2: names that only contain or start like a temp name are never taken for one', () => {
  for (const name of [
    'notes.a.md.lx3k2j1a1abc.tmp', // a user's file: the writer's names start with the dot
    '.a.md.lx3k2j1a1abc.tmp.bak', // a backup of one: the writer's names end in .tmp
  ])
    assert.equal(isAtomicTempName(name), false, name);
  assert.equal(isAtomicTempName(TEMP_NAME), true);
});

test('STORE-2: a temp file exactly as old as the grace period is removed', async () => {
  const root = tempRoot();
  const { temp, mtimeMs } = staleTemp(root);
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: mtimeMs + STALE_TEMP_GRACE_MS });
  assert.deepEqual(report, { removed: [temp], problems: [] });
});

test('STORE-2: a .vtcode/plans that is a file is reported as such; the tasks folder is still swept', async () => {
  const root = tempRoot();
  const plans = join(root, '.vtcode/plans');
  const tasks = join(root, '.vtcode/tasks');
  fs.mkdirSync(tasks, { recursive: true });
  fs.writeFileSync(plans, 'not a folder');
  const temp = join(tasks, '.current_task.md.lx3k2j1a1abcdef.tmp');
  fs.writeFileSync(temp, 'stale');
  fs.utimesSync(temp, 0, 0);
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report, {
    removed: [temp],
    problems: [{ path: plans, message: `${plans} is not a folder (file); stale temp files are not looked for in it` }],
  });
});

test('STORE-2: two folders with different problems are both reported', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const plans = join(root, '.vtcode/plans');
  const tasks = join(root, '.vtcode/tasks');
  fs.mkdirSync(join(root, '.vtcode'));
  fs.writeFileSync(plans, 'not a folder');
  fs.symlinkSync(outside, tasks);
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report.problems, [
    { path: plans, message: `${plans} is not a folder (file); stale temp files are not looked for in it` },
    { path: tasks, message: `${tasks} is a symbolic link; stale temp files are not looked for through it` },
  ]);
});

test('STORE-2: a symlinked .vtcode/plans is not even listed, and reported once', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  const plans = join(root, '.vtcode/plans');
  fs.symlinkSync(outside, plans);
  const listed: string[] = [];
  const spying: FileSystem = {
    ...nodeFileSystem,
    readDir: async (dir) => {
      listed.push(dir);
      return nodeFileSystem.readDir(dir);
    },
  };
  const report = await sweepStaleTempFiles(spying, root, { now: Date.now() });
  assert.deepEqual(listed, []);
  assert.deepEqual(report, {
    removed: [],
    problems: [{ path: plans, message: `${plans} is a symbolic link; stale temp files are not looked for through it` }],
  });
});

test('STORE-2: a symlinked .vtcode blocks both folders and is reported once', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const vtcode = join(root, '.vtcode');
  fs.symlinkSync(outside, vtcode);
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report.removed, []);
  assert.deepEqual(
    report.problems.map((p) => p.message),
    [`${vtcode} is a symbolic link; stale temp files are not looked for through it`],
  );
});

test('STORE-2: a temp file that cannot be removed is reported and the sweep goes on', async () => {
  const root = tempRoot();
  const { temp } = staleTemp(root);
  const failing: FileSystem = {
    ...nodeFileSystem,
    removeFile: async () => {
      throw new Error('EBUSY: resource busy');
    },
  };
  const report = await sweepStaleTempFiles(failing, root, { now: Date.now() });
  assert.deepEqual(report, {
    removed: [],
    problems: [{ path: temp, message: `could not remove the stale temp file ${temp}: EBUSY: resource busy` }],
  });
  assert.equal(fs.existsSync(temp), true);
});

test('STORE-2: a temp file removed by someone else after the listing is skipped quietly', async () => {
  const root = tempRoot();
  const { plans, temp } = staleTemp(root);
  const removing: FileSystem = {
    ...nodeFileSystem,
    readDir: async (dir) => {
      const entries = await nodeFileSystem.readDir(dir);
      if (dir === plans) fs.rmSync(temp);
      return entries;
    },
  };
  const report = await sweepStaleTempFiles(removing, root, { now: Date.now() });
  assert.deepEqual(report, { removed: [], problems: [] });
});

test('STORE-2: a folder removed by someone else during the sweep ends its sweep quietly', async () => {
  const root = tempRoot();
  const { plans, temp } = staleTemp(root);
  const removing: FileSystem = {
    ...nodeFileSystem,
    lstat: async (p) => {
      const stat = await nodeFileSystem.lstat(p);
      if (p === temp) fs.rmSync(plans, { recursive: true });
      return stat;
    },
  };
  const report = await sweepStaleTempFiles(removing, root, { now: Date.now() });
  assert.deepEqual(report, { removed: [], problems: [] });
});
