import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchFolders, type FolderWatch } from '../../../src/node/folder-watch';

const FOLDERS = ['.vtcode/plans', '.vtcode/tasks'];

/** A reader like the Tasks view: on every change it lists the target folders. */
function reader(root: string): { seen: Set<string>; changes: () => number; watch: FolderWatch } {
  const seen = new Set<string>();
  let changes = 0;
  const scan = (): void => {
    changes += 1;
    for (const folder of FOLDERS) {
      try {
        for (const name of readdirSync(join(root, folder))) seen.add(`${folder}/${name}`);
      } catch {
        // not there (yet)
      }
    }
  };
  return { seen, changes: () => changes, watch: watchFolders(root, FOLDERS, scan) };
}

async function until(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), 'vtplan-folder-watch-'));
}

test('UI-3: a file written right after `mkdir -p` of its folders is seen, and so is every later file there', async () => {
  // @parcel/watcher (VS Code's workspace watcher) loses `.vtcode/plans` in about half of these rounds.
  for (let round = 0; round < 25; round++) {
    const root = tempRoot();
    const r = reader(root);
    try {
      mkdirSync(join(root, '.vtcode', 'plans'), { recursive: true });
      writeFileSync(join(root, '.vtcode', 'plans', 'a.tasks.md'), '# A\n');
      await until(`round ${round}: the first sidecar`, () => r.seen.has('.vtcode/plans/a.tasks.md'));
      writeFileSync(join(root, '.vtcode', 'plans', 'b.tasks.md'), '# B\n');
      await until(`round ${round}: a later sidecar`, () => r.seen.has('.vtcode/plans/b.tasks.md'));
      mkdirSync(join(root, '.vtcode', 'tasks'));
      writeFileSync(join(root, '.vtcode', 'tasks', 'current_task.md'), '# T\n');
      await until(`round ${round}: the global task file`, () => r.seen.has('.vtcode/tasks/current_task.md'));
    } finally {
      r.watch.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  }
});

test('UI-3: a folder deleted and created again is watched again', async () => {
  const root = tempRoot();
  const r = reader(root);
  try {
    mkdirSync(join(root, '.vtcode', 'plans'), { recursive: true });
    writeFileSync(join(root, '.vtcode', 'plans', 'a.tasks.md'), '# A\n');
    await until('the first sidecar', () => r.seen.has('.vtcode/plans/a.tasks.md'));
    for (let round = 0; round < 5; round++) {
      rmSync(join(root, '.vtcode'), { recursive: true });
      mkdirSync(join(root, '.vtcode', 'plans'), { recursive: true });
      const name = `.vtcode/plans/r${round}.tasks.md`;
      writeFileSync(join(root, name), '# R\n');
      await until(`round ${round}: a sidecar in the re-created folder`, () => r.seen.has(name));
      // An edit after the re-creation reaches the reader too (the watch is live, not a one-off scan).
      const before = r.changes();
      writeFileSync(join(root, name), '# R, edited\n');
      await until(`round ${round}: an edit in the re-created folder`, () => r.changes() > before);
    }
  } finally {
    r.watch.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('UI-3: files outside the watched folders do not count; after dispose nothing is reported', async () => {
  const root = tempRoot();
  const r = reader(root);
  try {
    mkdirSync(join(root, '.vtcode', 'plans'), { recursive: true });
    await until('the plans folder appears', () => r.changes() > 0);
    const settled = r.changes();
    writeFileSync(join(root, 'README.md'), 'x');
    mkdirSync(join(root, '.vtcode', 'sessions'));
    writeFileSync(join(root, '.vtcode', 'sessions', 's.jsonl'), '{}\n');
    // A marker written last: once it is reported, the unrelated writes before it have been delivered.
    writeFileSync(join(root, '.vtcode', 'plans', 'marker.tasks.md'), '# M\n');
    await until('the marker', () => r.seen.has('.vtcode/plans/marker.tasks.md'));
    assert.ok(
      r.changes() - settled <= 3,
      `only the marker's create and write events count (got ${r.changes() - settled})`,
    );

    // Positive control for the check after dispose: a second watch on the same folder, live
    // before the late write, must report it; the disposed one would have been told at the same time.
    const control = reader(root);
    try {
      writeFileSync(join(root, '.vtcode', 'plans', 'ready.tasks.md'), '# R\n');
      await until('the control watch is live', () => control.seen.has('.vtcode/plans/ready.tasks.md'));
      await until('the first watch saw the same write', () => r.seen.has('.vtcode/plans/ready.tasks.md'));
      r.watch.dispose();
      const afterDispose = r.changes();
      writeFileSync(join(root, '.vtcode', 'plans', 'late.tasks.md'), '# L\n');
      await until('the control watch reports the late file', () => control.seen.has('.vtcode/plans/late.tasks.md'));
      assert.equal(r.changes(), afterDispose, 'the disposed watch reported the late file');
    } finally {
      control.watch.dispose();
    }
  } finally {
    r.watch.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});
