/**
 * STORE-2: temp files left by atomic writes that were killed before their rename are swept when a
 * session starts; nothing else is touched, a young temp file (a concurrent writer) stays, and no
 * symlink is followed.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { isAtomicTempName, publishAtomic, writePrivateAtomic } from '../../../src/core/store/atomic';
import { STALE_TEMP_GRACE_MS, sweepStaleTempFiles } from '../../../src/core/store/sweep';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-sweep-', { realpath: true });

/**
 * The node port as a killed writer leaves it: the rename never happens and, the process being
 * gone, nobody removes the staged temp file. What stays on disk has the writer's real temp name.
 */
const killedBeforeRename: FileSystem = {
  ...nodeFileSystem,
  rename: async () => {
    throw new Error('killed');
  },
  removeFile: async () => undefined,
};

function age(file: string, ms: number): void {
  const t = new Date(Date.now() - ms);
  fs.utimesSync(file, t, t);
}

function tempsIn(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.tmp'))
        .sort()
    : [];
}

/** Leaves one real temp file for each artifact kind: plan, sidecar, the global task file and an approval record. */
async function leaveTemps(root: string): Promise<string[]> {
  await assert.rejects(
    writePrivateAtomic(killedBeforeRename, { root, path: join(root, '.vtcode/plans/a-plan.md'), content: '# A\n' }),
  );
  await assert.rejects(
    publishAtomic(killedBeforeRename, {
      root,
      files: [
        { path: join(root, '.vtcode/plans/a-plan.tasks.md'), content: '# A\n\n- [ ] x\n' },
        { path: join(root, '.vtcode/tasks/current_task.md'), content: '# A\n\n- [ ] x\n' },
      ],
    }),
  );
  await assert.rejects(
    writePrivateAtomic(killedBeforeRename, {
      root,
      path: join(root, '.vtcode/approvals/a-plan.json'),
      content: '{"version":1}\n',
    }),
  );
  const left = [
    ...tempsIn(join(root, '.vtcode/plans')).map((n) => join(root, '.vtcode/plans', n)),
    ...tempsIn(join(root, '.vtcode/tasks')).map((n) => join(root, '.vtcode/tasks', n)),
    ...tempsIn(join(root, '.vtcode/approvals')).map((n) => join(root, '.vtcode/approvals', n)),
  ];
  assert.equal(left.length, 4, `one temp file per artifact was left: ${left.join(', ')}`);
  return left;
}

test('STORE-2: temp files of killed atomic writes older than the grace period are removed; nothing else is', async () => {
  const root = tempRoot();
  const temps = await leaveTemps(root);
  for (const t of temps) age(t, STALE_TEMP_GRACE_MS + 1_000);
  // Neighbours that must survive: the artifacts, a user's own .tmp file, a name close to ours.
  const keep = {
    plan: join(root, '.vtcode/plans/a-plan.md'),
    userTmp: join(root, '.vtcode/plans/notes.tmp'),
    near: join(root, '.vtcode/plans/.a-plan.md.tmp'),
    noDot: join(root, '.vtcode/plans/a-plan.md.lx3k2j1a1abc.tmp'),
    session: join(root, '.vtcode/sessions/x.jsonl'),
    elsewhere: join(root, 'src/.a.md.lx3k2j1a1abcdef.tmp'),
  };
  fs.mkdirSync(join(root, '.vtcode/sessions'), { recursive: true });
  fs.mkdirSync(join(root, 'src'), { recursive: true });
  for (const f of Object.values(keep)) {
    fs.writeFileSync(f, 'keep');
    age(f, STALE_TEMP_GRACE_MS + 1_000);
  }

  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report.problems, []);
  assert.deepEqual([...report.removed].sort(), [...temps].sort());
  for (const t of temps) assert.equal(fs.existsSync(t), false, `${t} removed`);
  for (const [what, f] of Object.entries(keep)) assert.equal(fs.existsSync(f), true, `${what} (${f}) kept`);
  assert.equal(isAtomicTempName('.a-plan.md.tmp'), false);
});

test('STORE-2: a temp file younger than the grace period stays (a concurrent writer may be about to rename it)', async () => {
  const root = tempRoot();
  const temps = await leaveTemps(root);
  const [old, ...young] = temps as [string, ...string[]];
  age(old, STALE_TEMP_GRACE_MS + 1_000);
  for (const t of young) age(t, STALE_TEMP_GRACE_MS - 5_000);
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report.removed, [old]);
  for (const t of young) assert.equal(fs.existsSync(t), true);
});

test('STORE-2: a symlink named like a temp file is not removed and its target is untouched', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const victim = join(outside, 'victim.txt');
  fs.writeFileSync(victim, 'precious');
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  const link = join(root, '.vtcode/plans/.a.md.lx3k2j1a1abcdef.tmp');
  fs.symlinkSync(victim, link);
  fs.lutimesSync(link, new Date(0), new Date(0));
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report, { removed: [], problems: [] });
  assert.equal(fs.lstatSync(link).isSymbolicLink(), true);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious');
});

test('STORE-2: a .vtcode/plans that is a symlink is not entered; the folder it points to keeps its files', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const stale = join(outside, '.a.md.lx3k2j1a1abcdef.tmp');
  fs.writeFileSync(stale, 'not ours to delete');
  age(stale, STALE_TEMP_GRACE_MS + 1_000);
  fs.mkdirSync(join(root, '.vtcode'));
  fs.symlinkSync(outside, join(root, '.vtcode/plans'));
  const report = await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() });
  assert.deepEqual(report.removed, []);
  assert.equal(report.problems.length, 1);
  assert.match(report.problems[0]?.message ?? '', /plans is a symbolic link/);
  assert.equal(fs.existsSync(stale), true);

  // The same through a symlinked .vtcode.
  const root2 = tempRoot();
  fs.mkdirSync(join(outside, 'plans'));
  const stale2 = join(outside, 'plans', '.b.md.lx3k2j1a1abcdef.tmp');
  fs.writeFileSync(stale2, 'not ours either');
  age(stale2, STALE_TEMP_GRACE_MS + 1_000);
  fs.symlinkSync(outside, join(root2, '.vtcode'));
  const report2 = await sweepStaleTempFiles(nodeFileSystem, root2, { now: Date.now() });
  assert.deepEqual(report2.removed, []);
  assert.match(report2.problems.map((p) => p.message).join('\n'), /\.vtcode is a symbolic link/);
  assert.equal(fs.existsSync(stale2), true);
});

test('STORE-2: a folder swapped for a symlink between listing and removal is not removed through', async () => {
  const root = tempRoot();
  const outside = tempRoot();
  const [temp] = await leaveTemps(root);
  age(temp as string, STALE_TEMP_GRACE_MS + 1_000);
  const plans = join(root, '.vtcode/plans');
  const name = (temp as string).slice(plans.length + 1);
  // The same name waits outside; the swap happens right after the listing.
  const bait = join(outside, name);
  fs.writeFileSync(bait, 'outside');
  age(bait, STALE_TEMP_GRACE_MS + 1_000);
  const swapping: FileSystem = {
    ...nodeFileSystem,
    readDir: async (dir) => {
      const entries = await nodeFileSystem.readDir(dir);
      if (dir === plans) {
        fs.renameSync(plans, join(root, '.vtcode/plans-moved'));
        fs.symlinkSync(outside, plans);
      }
      return entries;
    },
  };
  const report = await sweepStaleTempFiles(swapping, root, { now: Date.now() });
  assert.equal(fs.existsSync(bait), true, 'the file behind the swapped-in symlink is kept');
  assert.ok(!report.removed.some((r) => r.startsWith(plans)));
  assert.match(report.problems.map((p) => p.message).join('\n'), /symbolic link/);
});

test('STORE-2: no .vtcode folder, nothing to do; an unreadable folder is reported, not thrown', async () => {
  const root = tempRoot();
  assert.deepEqual(await sweepStaleTempFiles(nodeFileSystem, root, { now: Date.now() }), { removed: [], problems: [] });
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  const failing: FileSystem = {
    ...nodeFileSystem,
    readDir: async () => {
      throw new Error('EACCES: permission denied');
    },
  };
  const report = await sweepStaleTempFiles(failing, root, { now: Date.now() });
  assert.deepEqual(report.removed, []);
  assert.match(report.problems[0]?.message ?? '', /could not look for stale temp files in .*plans: EACCES/);
});
