/**
 * GATE-2 at the session: the plan file edited (Ctrl+G) and saved is re-read and re-validated by
 * `Session.planFileSaved`. A valid file becomes the plan under review and the gate is asked for
 * again; an invalid one leaves the previous plan in force and says why, line by line; a file that
 * is not the plan under review, or that was deleted, changes nothing.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRACKER_END, TRACKER_START } from '../../../src/core/plan/parse';
import type { Session } from '../../../src/core/session/session';
import { of, planText, REVISED_PLAN, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** A session whose plan (VALID_PLAN) waits at the gate; returns its file. */
async function planAwaitingApproval(): Promise<{
  session: Session;
  events: ReturnType<typeof h.watch>;
  planFile: string;
}> {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Add a shout flag'), { kind: 'ran', status: 'awaiting_approval' });
  const planFile = session.state.pendingApproval?.planFile;
  assert.ok(planFile);
  return { session, events, planFile };
}

test('GATE-2: a valid save becomes the plan under review, without the tracker region or surrounding blank lines, and asks for approval again', async () => {
  const { session, events, planFile } = await planAwaitingApproval();
  const saved = `${REVISED_PLAN}\n\n${TRACKER_START}\n- [ ] Step 1\n${TRACKER_END}\n\n`;
  writeFileSync(join(h.root, planFile), saved);
  const before = events.length;
  assert.deepEqual(await session.planFileSaved(planFile), { ok: true, reasons: [] });
  const added = events.slice(before);
  assert.deepEqual(
    added.map((e) => e.type),
    ['plan.completed', 'plan.approval.requested'],
  );
  const completed = of(added, 'plan.completed')[0];
  assert.deepEqual({ text: completed?.text, source: completed?.source }, { text: REVISED_PLAN, source: 'editor' });
  assert.equal(of(added, 'plan.approval.requested')[0]?.planFile, planFile);
  assert.deepEqual(session.state.pendingApproval, { planFile });
});

test('GATE-2: after "keep planning" (no approval pending, the plan still active) a valid save brings the gate back', async () => {
  const { session, events, planFile } = await planAwaitingApproval();
  await session.approve('revise');
  assert.equal(session.state.pendingApproval, null);
  assert.equal(session.state.activePlan?.planFile, planFile);
  writeFileSync(join(h.root, planFile), REVISED_PLAN);
  assert.deepEqual(await session.planFileSaved(planFile), { ok: true, reasons: [] });
  assert.equal(of(events, 'plan.approval.requested').at(-1)?.planFile, planFile);
  assert.deepEqual(session.state.pendingApproval, { planFile });
});

test('GATE-2: an invalid save keeps the previous plan and lists the reasons (with their lines) in the result, a warning and the event', async () => {
  const { session, events, planFile } = await planAwaitingApproval();
  // Step 2's verify item is vague (an error at line 8) and the Assumptions section is gone (an error with no line).
  const invalid = VALID_PLAN.replace('verify: [node --test test/greet.test.js]', 'verify: [run checks]').replace(
    /\n## Assumptions and Defaults[\s\S]*$/,
    '',
  );
  writeFileSync(join(h.root, planFile), invalid);
  const before = events.length;
  const vague =
    'Step 2 verify item rejected: `run checks` names no check: give the exact command (e.g. `npm test`, `cargo test -p crate`) or an observable result.';
  const missing = 'Required section `## Assumptions and Defaults` (or `## Assumptions`) is missing.';
  assert.deepEqual(await session.planFileSaved(planFile), { ok: false, reasons: [missing, `line 8: ${vague}`] });
  const added = events.slice(before);
  assert.deepEqual(
    added.map((e) => e.type),
    ['notice'],
  );
  const notice = of(added, 'notice')[0];
  assert.equal(notice?.level, 'warning');
  // Each reason is a list item without its closing full stop; the "e.g." inside one stays.
  assert.equal(
    notice?.text,
    'The edited plan is not valid, so the previous plan stays active:\n' +
      '- Required section `## Assumptions and Defaults` (or `## Assumptions`) is missing\n' +
      '- line 8: Step 2 verify item rejected: `run checks` names no check: give the exact command (e.g. `npm test`, `cargo test -p crate`) or an observable result',
  );
  assert.deepEqual(notice?.invalidEdit, {
    planFile,
    reasons: [
      { code: 'missing_section', message: missing },
      { code: 'step_vague_verify', message: vague, line: 8 },
    ],
  });
  assert.deepEqual(session.state.pendingApproval, { planFile }, 'the previous plan still waits at the gate');
});

test('GATE-2: a save of any other file than the plan under review is refused and changes nothing', async () => {
  const { session, events, planFile } = await planAwaitingApproval();
  const other = '.vtcode/plans/another-plan.md';
  writeFileSync(join(h.root, other), REVISED_PLAN);
  const before = events.length;
  assert.deepEqual(await session.planFileSaved(other), {
    ok: false,
    reasons: ['This file is not the plan under review.'],
  });
  assert.equal(events.length, before);
  assert.deepEqual(session.state.pendingApproval, { planFile });
});

test('GATE-2: with no plan at all, a saved plan file is not under review', async () => {
  const { session, events } = await h.start('plan');
  const file = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';
  mkdirSync(join(h.root, '.vtcode/plans'), { recursive: true });
  writeFileSync(join(h.root, file), VALID_PLAN);
  const before = events.length;
  assert.deepEqual(await session.planFileSaved(file), {
    ok: false,
    reasons: ['This file is not the plan under review.'],
  });
  assert.equal(events.length, before);
});

test('GATE-2: a plan file deleted before the save is reported as deleted and the gate stays', async () => {
  const { session, events, planFile } = await planAwaitingApproval();
  assert.match(readFileSync(join(h.root, planFile), 'utf8'), /Add a shout flag/);
  rmSync(join(h.root, planFile));
  const before = events.length;
  assert.deepEqual(await session.planFileSaved(planFile), { ok: false, reasons: ['The plan file was deleted.'] });
  assert.equal(events.length, before);
  assert.deepEqual(session.state.pendingApproval, { planFile });
});
