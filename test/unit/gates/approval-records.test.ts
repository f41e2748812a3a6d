/**
 * Issue 18 (GATE-6, ADD-2, STORE-2): a plan another process (`vtplan mcp`) saves through the gates
 * is recorded under `.vtcode/approvals/<slug>.json` for VS Code to offer; the record is written
 * privately and atomically, read back through zod, removed on approval, and never written or read
 * through a symlink. VS Code's side (the offer) is test/exthost/mcp-approval.test.ts.
 */
import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findGate, type GateContext } from '../../../src/core/gates';
import { clearApprovalRecord, readApprovalRecords, recordForApproval } from '../../../src/core/gates/approval-records';
import { approveSavedPlan, plansAwaitingApproval } from '../../../src/extension/gate-tools';
import { nodeFileSystem } from '../../../src/node/fs';
import { makeWorkspace, type Workspace } from '../tools/helpers';

const FIXTURES = path.join(__dirname, '../../fixtures/plans');
const READY_PLAN = fs.readFileSync(path.join(FIXTURES, 'valid/docs-only-readme.md'), 'utf8');
const NOT_READY_PLAN = fs.readFileSync(path.join(FIXTURES, 'invalid/step_missing_verify--no-verify.md'), 'utf8');
const SLUG = 'refresh-readme-and-install-guide-for-2-0';
const PLAN_FILE = `.vtcode/plans/${SLUG}.md`;
const RECORD = `.vtcode/approvals/${SLUG}.json`;
const SAVED_AT = Date.UTC(2026, 11, 2, 1, 30);

let ws: Workspace;
let mcp: GateContext;
beforeEach(() => {
  ws = makeWorkspace();
  mcp = {
    root: ws.root,
    fs: nodeFileSystem,
    clock: { now: () => SAVED_AT },
    approvalRecord: { savedBy: 'vtplan mcp' },
  };
});
afterEach(() => ws.cleanup());

const save = (ctx: GateContext, input: object) => findGate('savePlan').handler(input, ctx);

test('GATE-6: savePlan for another process records the ready plan it saved, privately, and the record reads back', async () => {
  const r = await save(mcp, { plan: READY_PLAN });
  assert.equal(r.ok, true, r.text);
  assert.deepEqual(JSON.parse(ws.read(RECORD)), {
    version: 1,
    plan: PLAN_FILE,
    title: 'Refresh README and install guide for 2.0',
    savedBy: 'vtplan mcp',
    savedAt: '2026-12-02T01:30:00.000Z',
  });
  assert.equal(fs.statSync(path.join(ws.root, RECORD)).mode & 0o777, 0o600);
  const { pending, problems } = await readApprovalRecords(nodeFileSystem, ws.root);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    pending.map((p) => [p.slug, p.plan, p.savedAt, p.recordPath]),
    [[SLUG, PLAN_FILE, '2026-12-02T01:30:00.000Z', path.join(ws.root, RECORD)]],
  );
});

test('GATE-6: no record for a plan that is not ready, nor for a save by VS Code’s own tools (they offer in-process)', async () => {
  const refused = await save(mcp, { plan: NOT_READY_PLAN });
  assert.equal(refused.ok, false);
  const inProcess = await save({ root: ws.root, fs: nodeFileSystem }, { plan: READY_PLAN });
  assert.equal(inProcess.ok, true, inProcess.text);
  assert.equal(ws.exists('.vtcode/approvals'), false);
});

test('GATE-6: a newer save of the same plan replaces its record (a new offer); approving removes it for good', async () => {
  await save(mcp, { plan: READY_PLAN });
  const later = { ...mcp, clock: { now: () => SAVED_AT + 60_000 } };
  const again = await save(later, { plan: READY_PLAN });
  assert.equal(again.data.status, 'unchanged');
  assert.equal((JSON.parse(ws.read(RECORD)) as { savedAt: string }).savedAt, '2026-12-02T01:31:00.000Z');

  const approved = await approveSavedPlan(ws.root, PLAN_FILE);
  assert.deepEqual(approved, { ok: true, trackerFile: `.vtcode/plans/${SLUG}.tasks.md` });
  assert.match(ws.read(`.vtcode/plans/${SLUG}.tasks.md`), /- \[ \] /, 'TRK-7: the checklist is written');
  assert.equal(ws.exists(RECORD), false, 'an approved plan is not offered again after a reload');
  assert.deepEqual(await plansAwaitingApproval(ws.root), { offers: [], skipped: [] });
  await clearApprovalRecord(nodeFileSystem, ws.root, SLUG); // nothing left: no error
});

test('GATE-6: only records whose plan is still ready are offered; the others say why', async () => {
  await save(mcp, { plan: READY_PLAN });
  assert.deepEqual(await plansAwaitingApproval(ws.root), {
    offers: [
      {
        slug: SLUG,
        path: path.join(ws.root, PLAN_FILE),
        relativePath: PLAN_FILE,
        title: 'Refresh README and install guide for 2.0',
        savedAt: '2026-12-02T01:30:00.000Z',
      },
    ],
    skipped: [],
  });
  ws.write(PLAN_FILE, NOT_READY_PLAN);
  const edited = await plansAwaitingApproval(ws.root);
  assert.deepEqual(edited.offers, []);
  assert.match(edited.skipped[0] ?? '', /was saved by vtplan mcp but is not ready any more: .*step_missing_verify/);
  fs.rmSync(path.join(ws.root, PLAN_FILE));
  assert.deepEqual((await plansAwaitingApproval(ws.root)).skipped, [
    `${PLAN_FILE} was saved by vtplan mcp but no longer exists`,
  ]);
});

test('a malformed record is reported with what is wrong, never offered; files that are not records are passed over', async () => {
  ws.write('.vtcode/approvals/not-json.json', '{');
  ws.write('.vtcode/approvals/wrong-shape.json', JSON.stringify({ version: 2, plan: 1 }));
  ws.write(
    '.vtcode/approvals/other-name.json',
    JSON.stringify({ version: 1, plan: PLAN_FILE, title: null, savedBy: 'x', savedAt: '2026-12-02T01:30:00Z' }),
  );
  ws.write('.vtcode/approvals/.a.json.lx3k2j1a1abc.tmp', '{');
  ws.write('.vtcode/approvals/Notes.json', '{');
  const { pending, problems } = await readApprovalRecords(nodeFileSystem, ws.root);
  assert.deepEqual(pending, []);
  const byFile = new Map(problems.map((p) => [path.basename(p.path), p.message]));
  assert.deepEqual([...byFile.keys()].sort(), ['not-json.json', 'other-name.json', 'wrong-shape.json']);
  assert.match(byFile.get('not-json.json') ?? '', /^not an approval record: not JSON/);
  assert.match(byFile.get('wrong-shape.json') ?? '', /version/);
  assert.match(byFile.get('wrong-shape.json') ?? '', /plan/);
  assert.equal(
    byFile.get('other-name.json'),
    `not an approval record: it names ${PLAN_FILE}, expected .vtcode/plans/other-name.md (its file name)`,
  );
});

test('STORE-2: records are never written, read or removed through a symlinked folder', async () => {
  fs.mkdirSync(path.join(ws.root, '.vtcode'), { recursive: true });
  fs.writeFileSync(path.join(ws.outside, `${SLUG}.json`), 'outside');
  fs.symlinkSync(ws.outside, path.join(ws.root, '.vtcode/approvals'));

  const r = await save(mcp, { plan: READY_PLAN });
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'approval_record_failed');
  assert.match(
    r.text,
    /^Saved the plan to `\.vtcode\/plans\/refresh-readme.*\.md`, but could not record it .*symbolic link/,
  );
  assert.ok(ws.exists(PLAN_FILE), 'the plan itself is saved');

  const read = await readApprovalRecords(nodeFileSystem, ws.root);
  assert.deepEqual(read.pending, []);
  assert.match(read.problems[0]?.message ?? '', /not read: .*approvals is not a real folder/);
  await assert.rejects(clearApprovalRecord(nodeFileSystem, ws.root, SLUG), /refusing to remove .*symbolic link/);
  assert.equal(fs.readFileSync(path.join(ws.outside, `${SLUG}.json`), 'utf8'), 'outside');
});

test('a record is only ever named after a plan slug', async () => {
  await assert.rejects(
    recordForApproval(nodeFileSystem, ws.root, { slug: '../escape', title: null }, 'x', { now: () => 0 }),
    /invalid plan name '\.\.\/escape'/,
  );
});
