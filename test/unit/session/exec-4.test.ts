/**
 * EXEC-4: a `<proposed_plan>` from an execution agent is validated and persisted like a draft,
 * refreshes the tracker (keeping finished steps), continues an approved execution turn without a
 * second gate, goes through the ordinary gate otherwise, and an invalid revision is rejected
 * visibly without overwriting anything.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { INVALID_PLAN, of, planText, REVISED_PLAN, types, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const PLAN_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';
const SIDECAR = '.vtcode/plans/add-a-shout-flag-to-the-greeter.tasks.md';
const GLOBAL = '.vtcode/tasks/current_task.md';
const completeStep1 = {
  toolCalls: [{ name: 'task_tracker', arguments: '{"action":"update","index":1,"status":"completed"}' }],
};

async function approvedSession() {
  const started = await h.start('plan');
  await started.session.submit('Add shouting');
  return started;
}

test('EXEC-4: during the approved implementation turn a valid revision is persisted, refreshes the tracker and continues without a second gate', async () => {
  h.server.enqueue(
    { text: planText(VALID_PLAN) },
    completeStep1,
    { text: `The test file does not exist; revising.\n${planText(REVISED_PLAN)}` },
    { text: 'Implemented the revised plan.' },
  );
  const { session, events } = await approvedSession();
  const approvalsBefore = of(events, 'plan.approval.requested').length;
  await session.approve('execute');
  assert.equal(session.state.status, 'idle');
  assert.equal(session.state.agent, 'build');
  // Persisted like a draft: the plan file now holds the revision.
  assert.equal(readFileSync(join(h.root, PLAN_FILE), 'utf8'), `${REVISED_PLAN}\n`);
  const after = types(events).slice(types(events).lastIndexOf('plan.completed'));
  assert.deepEqual(after.slice(0, 5), ['plan.completed', 'plan.persisted', 'tracker.updated', 'notice', 'directive']);
  assert.equal(of(events, 'plan.approval.requested').length, approvalsBefore, 'no second gate');
  assert.equal(of(events, 'plan.approval.resolved').length, 1, 'only the original approval');
  assert.match(of(events, 'notice').at(-1)?.text ?? '', /revised the approved plan during implementation/);
  assert.equal(of(events, 'directive').at(-1)?.kind, 'handoff');
  // Tracker: step 1 (still in the plan) stays completed; the replaced and new steps are pending; global mirrors the sidecar.
  const sidecar = readFileSync(join(h.root, SIDECAR), 'utf8');
  assert.match(sidecar, /- \[x\] Add the `shout` parameter/);
  assert.match(sidecar, /- \[ \] Cover the new parameter in test\/shout\.test\.js/);
  assert.match(sidecar, /- \[ \] Mention the flag in README\.md/);
  assert.doesNotMatch(sidecar, /greet\.test\.js/);
  assert.match(readFileSync(join(h.root, GLOBAL), 'utf8'), /- \[x\] Add the `shout` parameter/);
  const tracked = of(events, 'tracker.updated').at(-1);
  assert.deepEqual({ total: tracked?.total, completed: tracked?.completed }, { total: 3, completed: 1 });
  // The same turn went on: the next request carries the continue directive.
  assert.equal(h.server.requests.length, 4);
  assert.match(String(h.body(3).messages.at(-1)?.content), /revised plan in .* is saved and approved/);
  assert.equal(of(events, 'turn.started').filter((t) => t.kind === 'implementation').length, 1);
});

test('EXEC-4: outside an approved execution turn the revision goes through the ordinary gate with a notice; approving it keeps build', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Add a shout flag'), { kind: 'ran', status: 'awaiting_approval' });
  assert.deepEqual(
    of(events, 'plan.approval.requested').map((e) => ({ planFile: e.planFile, trackerFile: e.trackerFile })),
    [{ planFile: PLAN_FILE, trackerFile: SIDECAR }],
  );
  assert.match(of(events, 'notice').at(-1)?.text ?? '', /proposed a revised plan during execution/);
  assert.equal(of(events, 'plan.persisted')[0]?.planFile, PLAN_FILE);
  assert.equal(h.server.requests.length, 1, 'work waits for the gate');
  const result = await session.approve('execute');
  assert.equal(result.ok, true);
  assert.equal(session.state.agent, 'build');
  assert.equal(of(events, 'mode.changed').length, 0, 'no build → build switch');
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'implementation');
});

test('EXEC-4: under full-auto the ordinary gate accepts the revision automatically and work continues', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await h.start('auto');
  assert.deepEqual(await session.submit('Add a shout flag'), { kind: 'ran', status: 'idle' });
  const resolved = of(events, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic },
    { choice: 'auto_accept', automatic: true },
  );
  assert.equal(h.server.requests.length, 2);
  assert.equal(session.state.pendingApproval, null);
});

test('EXEC-4: an invalid revision is rejected visibly, overwrites nothing, sends no repair request and ends the turn blocked', async () => {
  h.server.enqueue(
    { text: planText(VALID_PLAN) },
    { text: planText(INVALID_PLAN) },
    { text: 'should never be requested' },
  );
  const { session, events } = await approvedSession();
  const file = join(h.root, PLAN_FILE);
  const before = { text: readFileSync(file, 'utf8'), mtime: statSync(file).mtimeMs };
  await session.approve('execute');
  assert.equal(session.state.status, 'blocked');
  const rejected = of(events, 'plan.rejected');
  assert.equal(rejected.length, 1);
  assert.equal(rejected[0]?.final, true);
  assert.ok(rejected[0]!.reasons.some((r) => r.code === 'step_vague_verify'));
  assert.equal(readFileSync(file, 'utf8'), before.text);
  assert.equal(statSync(file).mtimeMs, before.mtime);
  assert.equal(of(events, 'plan.persisted').length, 1, 'only the original draft');
  assert.equal(of(events, 'directive').filter((d) => d.kind === 'repair').length, 0);
  assert.equal(h.server.requests.length, 2, 'no continuation and no repair request');
  assert.match(
    of(events, 'turn.completed').at(-1)?.reason ?? '',
    /rejected and nothing was overwritten \(\.vtcode\/plans\/add-a-shout-flag-to-the-greeter\.md is unchanged\)/,
  );
});

test('EXEC-4: a cut-off revision is rejected too', async () => {
  h.server.enqueue(
    { text: planText(VALID_PLAN) },
    { text: `<proposed_plan>\n${REVISED_PLAN.slice(0, 300)}`, finishReason: 'length' },
  );
  const { session, events } = await approvedSession();
  await session.approve('execute');
  assert.equal(session.state.status, 'blocked');
  assert.equal(of(events, 'plan.rejected').at(-1)?.reasons[0]?.code, 'truncated');
  assert.equal(readFileSync(join(h.root, PLAN_FILE), 'utf8'), `${VALID_PLAN}\n`);
});

test('EXEC-4: only one revision continues an approved turn without a gate; the next goes to the gate', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: planText(REVISED_PLAN) }, { text: planText(VALID_PLAN) });
  const { session, events } = await approvedSession();
  await session.approve('execute');
  assert.equal(session.state.status, 'awaiting_approval');
  assert.equal(of(events, 'plan.persisted').length, 3);
  assert.deepEqual(session.state.pendingApproval, { planFile: PLAN_FILE });
});

test('EXEC-4: an untagged answer with plan-like headings from an execution agent is just an answer', async () => {
  h.server.enqueue({ text: '## Summary\nDone.\n\n## Implementation Steps\n1. Edited src/greet.js' });
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Do it'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.persisted').length, 0);
  assert.equal(of(events, 'plan.rejected').length, 0);
  assert.deepEqual(h.plansOnDisk(), []);
});

test('EXEC-4, GATE-5: a revision waiting at the gate in build is approved by "approve" (headless) and rejected by "cancel"', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await h.start('build');
  await session.submit('Add a shout flag');
  assert.deepEqual(await session.submit('approve'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.approval.resolved')[0]?.choice, 'execute');
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'implementation');

  h.server.enqueue({ text: planText(VALID_PLAN) });
  await session.submit('Actually, revise it');
  assert.ok(session.state.pendingApproval);
  assert.deepEqual(await session.submit('cancel'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.approval.resolved').at(-1)?.choice, 'cancel');
  assert.equal(session.state.pendingApproval, null);
  assert.equal(h.server.requests.length, 3, '"cancel" ran no model request');
});
