import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import { PlanStore, slugFor, isPlanFilePath, TRACKER_START, TRACKER_END } from '../../../src/core/plan';
import { StoreError } from '../../../src/core/store/atomic';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-store-');

const fixedClock = { now: () => Date.UTC(2026, 10, 29, 21, 40, 5) };
const plan = (title: string, action = 'Update `parse`') => `# ${title}

## Summary
Change src/a.ts.

## Scope
- In: src/a.ts

## Implementation Steps
1. ${action} -> files: [src/a.ts] -> verify: [npm test]

## Test Cases and Validation
- \`npm test\`

## Assumptions and Defaults
- None beyond the above.
`;
const INVALID = '# Fix parser\n\n## Summary\nx\n\n## Implementation Steps\n1. Fix it -> verify: [run checks]\n';

test('file-formats: slugs are the lower-case title words joined by dashes, timestamped without a title', () => {
  assert.equal(slugFor('Fix off-by-one in Parser::advance (v2)', 0), 'fix-off-by-one-in-parser-advance-v2');
  assert.equal(slugFor('Café ../../etc/passwd', 0), 'cafe-etc-passwd');
  assert.equal(slugFor(null, fixedClock.now()), 'plan-20261129-214005');
  assert.equal(slugFor('!!!', fixedClock.now()), 'plan-20261129-214005');
  assert.ok(slugFor('word '.repeat(40), 0).length <= 80);
});

test('STORE-1: a valid plan is written to .vtcode/plans/<slug>.md, private, body only, \\n endings', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  const r = await store.save(`\n${plan('Tidy Parser').replace(/\n/g, '\r\n')}\n\n`);
  assert.equal(r.status, 'written');
  assert.equal(r.slug, 'tidy-parser');
  const file = join(root, '.vtcode/plans/tidy-parser.md');
  assert.equal(r.path, file);
  assert.equal(fs.readFileSync(file, 'utf8'), plan('Tidy Parser'));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
});

test('STORE-1: an invalid candidate is rejected before anything is written', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  const r = await store.save(INVALID);
  assert.equal(r.status, 'rejected');
  assert.equal(r.status === 'rejected' && r.kept, 'none');
  assert.equal(r.report.ready, false);
  assert.equal(fs.existsSync(join(root, '.vtcode')), false);
});

test('STORE-1: an invalid draft never overwrites a valid plan', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  await store.save(plan('Fix parser'));
  const r = await store.save(INVALID);
  assert.equal(r.status, 'rejected');
  assert.equal(r.status === 'rejected' && r.kept, 'valid');
  assert.equal(fs.readFileSync(join(root, '.vtcode/plans/fix-parser.md'), 'utf8'), plan('Fix parser'));
});

test('STORE-1: an existing malformed file is kept until a valid synthesis repairs it', async () => {
  const root = tempRoot();
  fs.mkdirSync(join(root, '.vtcode/plans'), { recursive: true });
  const file = join(root, '.vtcode/plans/fix-parser.md');
  fs.writeFileSync(file, 'hand-written notes, not a plan');
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  const rejected = await store.save(INVALID);
  assert.equal(rejected.status === 'rejected' && rejected.kept, 'malformed');
  assert.equal(fs.readFileSync(file, 'utf8'), 'hand-written notes, not a plan');
  const repaired = await store.save(plan('Fix parser'));
  assert.equal(repaired.status, 'written');
  assert.equal(fs.readFileSync(file, 'utf8'), plan('Fix parser'));
});

test('STORE-2: saving identical content rewrites nothing (mtime kept), also with an embedded tracker', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  await store.save(plan('Fix parser'));
  const file = join(root, '.vtcode/plans/fix-parser.md');
  fs.writeFileSync(file, `${plan('Fix parser')}\n${TRACKER_START}\n- [x] Update parse\n${TRACKER_END}\n`);
  const past = new Date(Date.now() - 120_000);
  fs.utimesSync(file, past, past);
  const before = fs.statSync(file).mtimeMs;
  const r = await store.save(plan('Fix parser'));
  assert.equal(r.status, 'unchanged');
  assert.equal(fs.statSync(file).mtimeMs, before);
});

test('STORE-2: a plan file edited by the user since the caller read it is kept and reported', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  const first = await store.save(plan('Fix parser'));
  const file = join(root, '.vtcode/plans/fix-parser.md');
  fs.writeFileSync(file, plan('Fix parser', 'User-edited `parse` step'));
  const r = await store.save(plan('Fix parser', 'Model revision of `parse`'), {
    expected: first.status === 'written' ? first.content : null,
  });
  assert.equal(r.status, 'external_edit');
  assert.match(r.status === 'external_edit' ? r.externalEdit.message : '', /their edit was kept/);
  assert.equal(fs.readFileSync(file, 'utf8'), plan('Fix parser', 'User-edited `parse` step'));
});

test('STORE-1: an explicit slug keeps the plan file of a revision; bad slugs are refused', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  const r = await store.save(plan('Renamed title'), { slug: 'fix-parser' });
  assert.equal(r.path, join(root, '.vtcode/plans/fix-parser.md'));
  await assert.rejects(
    store.save(plan('x'), { slug: '../escape' }),
    (e: unknown) => e instanceof StoreError && e.code === 'invalid_name',
  );
});

test('STORE-1: load re-validates from disk; list shows plans only (no sidecars, no temp files)', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root, fixedClock);
  assert.deepEqual(await store.list(), []);
  await store.save(plan('Fix parser'));
  fs.writeFileSync(join(root, '.vtcode/plans/fix-parser.tasks.md'), '# Fix parser\n');
  fs.writeFileSync(join(root, '.vtcode/plans/.fix-parser.md.abc.tmp'), 'partial');
  fs.writeFileSync(join(root, '.vtcode/plans/broken.md'), 'not a plan');
  assert.deepEqual(await store.list(), ['broken', 'fix-parser']);
  assert.equal((await store.load('fix-parser'))?.report.ready, true);
  assert.equal((await store.load('broken'))?.report.ready, false);
  assert.equal(await store.load('missing'), null);
});

test('ADD-3: plan file paths exclude tracker sidecars', () => {
  assert.equal(isPlanFilePath('/w/.vtcode/plans/fix.md'), true);
  assert.equal(isPlanFilePath('C:\\w\\.vtcode\\plans\\fix.md'), true);
  assert.equal(isPlanFilePath('/w/.vtcode/plans/fix.tasks.md'), false);
  assert.equal(isPlanFilePath('/w/.vtcode/plans/sub/fix.md'), false);
  assert.equal(isPlanFilePath('/w/docs/fix.md'), false);
});
