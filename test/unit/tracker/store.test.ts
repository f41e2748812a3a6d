import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import {
  createTrackerFromPlan,
  executeTrackerCall,
  loadTracker,
  parseTrackerMarkdown,
  type TrackerCall,
  type TrackerLocation,
  type TrackerResult,
  type TrackerSuccess,
} from '../../../src/core/tracker';

let root = '';
const PLAN = '.vtcode/plans/demo.md';
const sidecar = (): string => path.join(root, '.vtcode/plans/demo.tasks.md');
const global = (): string => path.join(root, '.vtcode/tasks/current_task.md');
const read = (p: string): string => fs.readFileSync(p, 'utf8');

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vtplan-tracker-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function ok(r: TrackerResult): TrackerSuccess {
  assert.equal(r.ok, true, JSON.stringify(r));
  return r as TrackerSuccess;
}

const plan = (extra: Partial<TrackerLocation> = {}): TrackerLocation => ({
  root,
  planFile: PLAN,
  planActive: true,
  ...extra,
});
const call = (loc: TrackerLocation, c: TrackerCall): Promise<TrackerResult> =>
  executeTrackerCall(nodeFileSystem, loc, c);
const create: TrackerCall = { action: 'create', title: 'Demo', items: ['One', 'Two'] };

function write(p: string, text: string, mtimeSec: number): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  fs.utimesSync(p, mtimeSec, mtimeSec);
}

test('STORE-2/TRK-7: plan mode writes the sidecar and the global mirror, private (0600)', async () => {
  const r = ok(await call(plan(), create));
  assert.deepEqual(r.written, [sidecar(), global()]);
  assert.match(read(sidecar()), /^# Demo\n\n## Plan of Work\n\n- \[ \] One\n- \[ \] Two\n$/);
  assert.equal(read(global()), '# Demo\n\n- [ ] One\n- [ ] Two\n');
  assert.equal(fs.statSync(sidecar()).mode & 0o777, 0o600);
  assert.equal(fs.statSync(global()).mode & 0o777, 0o600);
});

test('TRK-3: an identical update returns unchanged with totals and rewrites nothing (mtime kept)', async () => {
  ok(await call(plan(), create));
  ok(await call(plan(), { action: 'update', index: 1, status: 'completed' }));
  fs.utimesSync(sidecar(), 1000, 1000);
  fs.utimesSync(global(), 1000, 1000);
  const r = ok(await call(plan(), { action: 'update', index_path: '1', status: 'completed' }));
  assert.equal(r.status, 'unchanged');
  assert.equal(r.checklist?.completed, 1);
  assert.equal(r.checklist?.total, 2);
  assert.equal(r.checklist?.progress_percent, 50);
  assert.deepEqual(r.written, []);
  assert.equal(fs.statSync(sidecar()).mtimeMs, 1_000_000);
  assert.equal(fs.statSync(global()).mtimeMs, 1_000_000);
});

test('TRK-1: list reads without rewriting identical files', async () => {
  ok(await call(plan(), create));
  fs.utimesSync(sidecar(), 1000, 1000);
  const r = ok(await call(plan(), { action: 'list' }));
  assert.equal(r.status, 'ok');
  assert.deepEqual(
    r.checklist?.items?.map((i) => i.index_path),
    ['1', '2'],
  );
  assert.deepEqual(r.written, []);
  assert.equal(fs.statSync(sidecar()).mtimeMs, 1_000_000);
  assert.equal(ok(await call({ root }, { action: 'list' })).status, 'ok');
  fs.rmSync(path.join(root, '.vtcode'), { recursive: true });
  assert.equal(ok(await call({ root }, { action: 'list' })).status, 'empty');
});

test('TRK-7: while the plan is active its sidecar wins even when the global file is newer', async () => {
  write(sidecar(), '# Plan\n\n## Plan of Work\n\n- [x] From sidecar\n', 1000);
  write(global(), '# Old\n\n- [ ] From global\n', 2000);
  const snap = await loadTracker(nodeFileSystem, plan());
  assert.equal(snap.source, 'sidecar');
  const r = ok(await call(plan(), { action: 'list' }));
  assert.equal(r.checklist?.items?.[0]?.description, 'From sidecar');
  assert.deepEqual(r.written, [global()], 'the stale global mirror is repaired');
  assert.equal(read(global()), '# Plan\n\n- [x] From sidecar\n');
  assert.equal(fs.statSync(sidecar()).mtimeMs, 1_000_000, 'the winning file is not rewritten');
});

test('TRK-7: without an active plan the newer file wins and is mirrored to the other', async () => {
  write(sidecar(), '# Plan\n\n## Plan of Work\n\n- [ ] Step\n', 1000);
  write(global(), '# Plan\n\n- [x] Step\n', 2000);
  const r = ok(await call(plan({ planActive: false }), { action: 'list' }));
  assert.equal(r.checklist?.items?.[0]?.status, 'completed');
  assert.equal(read(sidecar()), '# Plan\n\n## Plan of Work\n\n- [x] Step\n');

  write(sidecar(), '# Plan\n\n## Plan of Work\n\n- [~] Step\n', 3000);
  fs.utimesSync(global(), 2000, 2000);
  const r2 = ok(await call(plan({ planActive: false }), { action: 'list' }));
  assert.equal(r2.checklist?.items?.[0]?.status, 'in_progress');
  assert.equal(read(global()), '# Plan\n\n- [/] Step\n');
});

test('TRK-7: in plan mode a missing sidecar starts from the global file and is created', async () => {
  write(global(), '# G\n\n- [x] Global step\n', 1000);
  const r = ok(await call(plan(), { action: 'add', description: 'New' }));
  assert.equal(r.checklist?.total, 2);
  assert.equal(parseTrackerMarkdown(read(sidecar()))?.items.length, 2);
});

test('TRK-1: without a plan only the global file is used', async () => {
  ok(await call({ root }, create));
  assert.equal(fs.existsSync(path.join(root, '.vtcode/plans')), false);
  assert.equal(read(global()), '# Demo\n\n- [ ] One\n- [ ] Two\n');
});

test('STORE-2: a symlinked tracker file is refused and nothing is written', async () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'vtplan-outside-'));
  try {
    fs.mkdirSync(path.join(root, '.vtcode/tasks'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'x.md'), '# Outside\n\n- [ ] x\n');
    fs.symlinkSync(path.join(outside, 'x.md'), global());
    const r = await call({ root }, { action: 'update', index: 1, status: 'completed' });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error.code, 'store_symlink');
    assert.equal(read(path.join(outside, 'x.md')), '# Outside\n\n- [ ] x\n');
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('TRK-3: a refused call changes no file', async () => {
  ok(await call(plan(), create));
  const before = [read(sidecar()), read(global())];
  const r = await call(plan(), { action: 'update', items: ['{"action":"update"}'] });
  assert.equal(!r.ok && r.error.code, 'json_string');
  assert.deepEqual([read(sidecar()), read(global())], before);
});

test('TRK-7: approval distils the plan into both tracker files', async () => {
  const md =
    '# Demo plan\n\n## Scope\n- In: x\n\n## Implementation Steps\n1. Do A -> files: [a.ts] -> verify: [npm test]\n   - [x] Sub of A\n- [x] Do B -> files: [b.ts] -> verify: [npm test]\n';
  const r = ok(await createTrackerFromPlan(nodeFileSystem, { root, planFile: PLAN }, md));
  assert.equal(r.status, 'created');
  assert.equal(
    read(sidecar()),
    '# Demo plan\n\n## Plan of Work\n\n- [ ] Do A\n  files: a.ts\n  verify: npm test\n  - [x] Sub of A\n- [x] Do B\n  files: b.ts\n  verify: npm test\n',
  );
  assert.equal(parseTrackerMarkdown(read(global()))?.items[0]?.children[0]?.description, 'Sub of A');
  const none = await createTrackerFromPlan(nodeFileSystem, { root, planFile: PLAN }, '# X\n\n## Summary\nnothing\n');
  assert.equal(!none.ok && none.error.code, 'no_steps');
});

test('STORE-2: a hand edit made while a call runs is kept, reported, and nothing is written', async () => {
  ok(await call(plan(), create));
  const edited = '# Demo\n\n## Plan of Work\n\n- [x] One (edited by hand)\n- [ ] Two\n';
  let armed = true;
  const racingFs = {
    ...nodeFileSystem,
    async readText(p: string): Promise<string | null> {
      const text = await nodeFileSystem.readText(p);
      if (armed && p === global()) {
        armed = false;
        fs.writeFileSync(sidecar(), edited);
      }
      return text;
    },
  };
  const globalBefore = read(global());
  const r = await executeTrackerCall(racingFs, plan(), { action: 'update', index: 2, status: 'completed' });
  assert.equal(!r.ok && r.error.code, 'external_edit');
  assert.match(!r.ok ? r.error.message : '', /edit was kept/);
  assert.equal(read(sidecar()), edited);
  assert.equal(read(global()), globalBefore);
});

test('UI-3: a reader without a plan finds the newest sidecar and weighs it against the global file', async () => {
  const { locateNewestTracker } = await import('../../../src/core/tracker');
  assert.deepEqual(await locateNewestTracker(nodeFileSystem, root), { root });
  write(path.join(root, '.vtcode/plans/old.tasks.md'), '# Old\n\n- [ ] old\n', 1000);
  write(path.join(root, '.vtcode/plans/new.tasks.md'), '# New\n\n- [ ] new\n', 3000);
  write(path.join(root, '.vtcode/plans/new.md'), '# plan itself is not a tracker\n', 5000);
  const loc = await locateNewestTracker(nodeFileSystem, root);
  assert.equal(loc.planFile, path.join(root, '.vtcode/plans/new.md'));
  assert.equal((await loadTracker(nodeFileSystem, loc)).checklist?.title, 'New');
  write(global(), '# Global\n\n- [ ] g\n', 4000);
  assert.equal((await loadTracker(nodeFileSystem, loc)).checklist?.title, 'Global', 'the newer global file wins');
});

test('STORE-2: when the second file cannot be published the first is rolled back', async () => {
  ok(await call(plan(), create));
  const before = [read(sidecar()), read(global())];
  const failingFs = {
    ...nodeFileSystem,
    async rename(from: string, to: string): Promise<void> {
      if (to === global()) throw new Error('disk full');
      return nodeFileSystem.rename(from, to);
    },
  };
  const r = await executeTrackerCall(failingFs, plan(), { action: 'update', index: 1, status: 'completed' });
  assert.equal(!r.ok && r.error.code, 'store_write_failed');
  assert.match(!r.ok ? r.error.message : '', /disk full/);
  assert.deepEqual([read(sidecar()), read(global())], before);
  assert.deepEqual(
    fs.readdirSync(path.dirname(sidecar())).filter((n) => n.endsWith('.tmp')),
    [],
    'no temp file is left behind',
  );
});
