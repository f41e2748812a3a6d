/**
 * TRK-7, UI-3, STORE-2: which tracker file a reader without a plan finds, what an empty workspace
 * loads as, and what saving reports as written. Found by mutation testing (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import { loadTracker, locateNewestTracker, parseTrackerMarkdown } from '../../../src/core/tracker';
import { saveTracker } from '../../../src/core/tracker/store';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-tracker-locate-');

function write(p: string, text: string, mtimeSec: number): void {
  fs.mkdirSync(join(p, '..'), { recursive: true });
  fs.writeFileSync(p, text);
  fs.utimesSync(p, mtimeSec, mtimeSec);
}

test('TRK-7: an empty workspace has no checklist and no source', async () => {
  const root = tempRoot();
  const snap = await loadTracker(nodeFileSystem, { root });
  assert.equal(snap.checklist, null);
  assert.equal(snap.source, null);
});

test('UI-3: a plans folder without any sidecar locates nothing', async () => {
  const root = tempRoot();
  write(join(root, '.vtcode/plans/a.md'), '# A plan\n', 1000);
  assert.deepEqual(await locateNewestTracker(nodeFileSystem, root), { root });
});

test('UI-3: only regular *.tasks.md files count: a newer plan, link or backup does not win', async () => {
  const root = tempRoot();
  const plans = join(root, '.vtcode/plans');
  write(join(plans, 'a.tasks.md'), '# A\n\n- [ ] a\n', 1000);
  write(join(plans, 'b.md'), '# B, a plan without a sidecar\n', 5000);
  write(join(plans, 'c.tasks.md.bak'), '# C\n\n- [ ] c\n', 5000);
  fs.mkdirSync(join(plans, 'd.tasks.md'));
  fs.utimesSync(join(plans, 'd.tasks.md'), 5000, 5000);
  fs.symlinkSync(join(plans, 'a.tasks.md'), join(plans, 'e.tasks.md'));
  fs.lutimesSync(join(plans, 'e.tasks.md'), 5000, 5000);
  assert.deepEqual(await locateNewestTracker(nodeFileSystem, root), {
    root,
    planFile: join(plans, 'a.md'),
    planActive: false,
  });
});

test('UI-3: of two sidecars the newer wins, whichever is listed first', async () => {
  for (const [older, newer] of [
    ['a', 'b'],
    ['b', 'a'],
  ] as const) {
    const root = tempRoot();
    const plans = join(root, '.vtcode/plans');
    write(join(plans, `${older}.tasks.md`), '# Older\n\n- [ ] x\n', 1000);
    write(join(plans, `${newer}.tasks.md`), '# Newer\n\n- [ ] x\n', 2000);
    const loc = await locateNewestTracker(nodeFileSystem, root);
    assert.equal(loc.planFile, join(plans, `${newer}.md`), `${newer} is newer`);
  }
});

test('TRK-7: saving lists only the files it rewrote', async () => {
  const root = tempRoot();
  const planFile = join(root, '.vtcode/plans/p.md');
  const text = '# P\n\n## Plan of Work\n\n- [x] One\n';
  write(join(root, '.vtcode/plans/p.tasks.md'), text, 1000);
  write(join(root, '.vtcode/tasks/current_task.md'), '# P\n\n- [ ] One\n', 1000);
  const loc = { root, planFile, planActive: true };
  const snap = await loadTracker(nodeFileSystem, loc);
  const checklist = parseTrackerMarkdown(text);
  assert.ok(checklist);
  const r = await saveTracker(nodeFileSystem, loc, snap, checklist);
  assert.deepEqual(r, { written: [join(root, '.vtcode/tasks/current_task.md')], externalEdits: [] });
});

test('TRK-7: a mirror that says the same in other words keeps its bytes on a read', async () => {
  const root = tempRoot();
  const planFile = join(root, '.vtcode/plans/p.md');
  const sidecar = join(root, '.vtcode/plans/p.tasks.md');
  const handWritten = '# P\n\n## Plan of Work\n\n* [x] One\n\n\n* [ ] Two\n';
  write(sidecar, handWritten, 1000);
  write(join(root, '.vtcode/tasks/current_task.md'), '# P\n\n- [x] One\n- [ ] Two\n', 1000);
  const loc = { root, planFile, planActive: true };
  const snap = await loadTracker(nodeFileSystem, loc);
  assert.ok(snap.checklist);
  const r = await saveTracker(nodeFileSystem, loc, snap, snap.checklist, { mirrorsOnly: true });
  assert.deepEqual(r, { written: [], externalEdits: [] });
  assert.equal(fs.readFileSync(sidecar, 'utf8'), handWritten);
});

test('STORE-2: a save stopped by a hand edit reports nothing as written', async () => {
  const root = tempRoot();
  const planFile = join(root, '.vtcode/plans/p.md');
  const sidecar = join(root, '.vtcode/plans/p.tasks.md');
  write(sidecar, '# P\n\n## Plan of Work\n\n- [ ] One\n', 1000);
  const loc = { root, planFile, planActive: true };
  const snap = await loadTracker(nodeFileSystem, loc);
  fs.writeFileSync(sidecar, '# P\n\n## Plan of Work\n\n- [ ] One (by hand)\n');
  const next = parseTrackerMarkdown('# P\n\n- [x] One\n');
  assert.ok(next);
  const r = await saveTracker(nodeFileSystem, loc, snap, next);
  assert.deepEqual(r.written, []);
  assert.deepEqual(
    r.externalEdits.map((e) => e.path),
    [sidecar],
  );
});
