/**
 * MODE-6, GATE-5, EXEC-4: what `Session.submit` does with approval phrases. With a plan at the gate
 * an exit phrase approves it (and "continue" counts, since the gate asked), a cancel phrase abandons
 * it; with only an active plan "implement" presents it again and "continue" is a message; with no
 * plan, or after the plan was carried out, the phrases are messages to the agent. What `submit`
 * returns reports how the implementation turn ended, or why the handoff refused.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { of, planText, REVISED_PLAN, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const PLAN_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';
/** 400 is not retried by the transport layer: the implementation request fails at once. */
const rejected = { status: 400, errorMessage: 'bad request' };
const GONE = `The plan file ${PLAN_FILE} no longer exists; ask for a new plan.`;

async function planPending() {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const started = await h.start('plan');
  assert.deepEqual(await started.session.submit('Add a shout flag'), { kind: 'ran', status: 'awaiting_approval' });
  return started;
}

async function planKeptActive() {
  const started = await planPending();
  await started.session.approve('revise');
  assert.equal(started.session.state.pendingApproval, null);
  assert.equal(started.session.state.activePlan?.planFile, PLAN_FILE);
  return started;
}

/** An execution agent proposed a revision outside an approved turn: it waits at the ordinary gate (EXEC-4). */
async function revisionPendingInBuild() {
  h.server.enqueue({ text: planText(REVISED_PLAN) });
  const started = await h.start('build');
  assert.deepEqual(await started.session.submit('Add a shout flag'), { kind: 'ran', status: 'awaiting_approval' });
  return started;
}

test('MODE-6: "cancel" at the gate abandons the plan: a cancel approval event (not automatic, with its file), an idle turn end, no model call', async () => {
  const { session, events } = await planPending();
  const before = events.length;
  assert.deepEqual(await session.submit('cancel'), { kind: 'ran', status: 'idle' });
  const added = events.slice(before);
  assert.deepEqual(
    added.map((e) => e.type),
    ['plan.approval.resolved', 'turn.completed'],
  );
  const resolved = of(added, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic, planFile: resolved?.planFile },
    { choice: 'cancel', automatic: false, planFile: PLAN_FILE },
  );
  assert.equal(of(added, 'turn.completed')[0]?.reason, 'Planning cancelled; the plan will not be implemented.');
  assert.equal(h.server.requests.length, 1);
  assert.equal(session.state.activePlan, null);
});

test('MODE-6: "cancel" with the plan kept active (no approval pending) abandons that plan, naming its file', async () => {
  const { session, events } = await planKeptActive();
  assert.deepEqual(await session.submit('cancel'), { kind: 'ran', status: 'idle' });
  const resolved = of(events, 'plan.approval.resolved').at(-1);
  assert.deepEqual(
    { choice: resolved?.choice, planFile: resolved?.planFile },
    { choice: 'cancel', planFile: PLAN_FILE },
  );
  assert.equal(session.state.activePlan, null);
  assert.equal(h.server.requests.length, 1);
});

for (const phrase of ['cancel', 'implement']) {
  test(`MODE-6: "${phrase}" with no plan is a message to the planner`, async () => {
    h.server.enqueue({ text: 'There is no plan yet; what should I plan?' });
    const { session, events } = await h.start('plan');
    assert.deepEqual(await session.submit(phrase), { kind: 'ran', status: 'idle' });
    assert.equal(of(events, 'turn.started').at(-1)?.input, phrase);
    assert.equal(of(events, 'plan.approval.resolved').length, 0);
    assert.equal(h.server.requests.length, 1);
  });
}

test('MODE-6: "continue" at the gate approves the plan (the gate asked to implement)', async () => {
  const { session, events } = await planPending();
  h.server.enqueue({ text: 'Implemented.' });
  assert.deepEqual(await session.submit('continue'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.approval.resolved').at(-1)?.choice, 'execute');
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'implementation');
});

test('MODE-6: "continue" with the plan only kept active (nobody asked to implement) is a message to the planner', async () => {
  const { session, events } = await planKeptActive();
  h.server.enqueue({ text: 'Continuing the research.' });
  const approvals = of(events, 'plan.approval.requested').length;
  assert.deepEqual(await session.submit('continue'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'turn.started').at(-1)?.input, 'continue');
  assert.equal(of(events, 'plan.approval.requested').length, approvals);
});

test('MODE-6, GATE-5: "implement" at the gate reports how the implementation turn ended (failed here)', async () => {
  const { session } = await planPending();
  h.server.enqueue(rejected);
  assert.deepEqual(await session.submit('implement'), { kind: 'ran', status: 'failed' });
  assert.equal(session.state.agent, 'build');
});

test('MODE-6, GATE-3: "implement" when the handoff refuses (plan file deleted) returns the refusal as a notice and stays planning', async () => {
  const { session, events } = await planPending();
  rmSync(join(h.root, PLAN_FILE));
  assert.deepEqual(await session.submit('implement'), { kind: 'notice', text: GONE });
  assert.equal(session.state.agent, 'plan');
  assert.equal(of(events, 'turn.started').filter((t) => t.kind === 'implementation').length, 0);
});

test('EXEC-4: "continue" at a revision gate in build approves the revision', async () => {
  const { session, events } = await revisionPendingInBuild();
  h.server.enqueue({ text: 'Implemented.' });
  assert.deepEqual(await session.submit('continue'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.approval.resolved').at(-1)?.choice, 'execute');
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'implementation');
});

test('EXEC-4: "implement" at a revision gate in build reports how the implementation turn ended (failed here)', async () => {
  const { session } = await revisionPendingInBuild();
  h.server.enqueue(rejected);
  assert.deepEqual(await session.submit('implement'), { kind: 'ran', status: 'failed' });
});

test('EXEC-4, GATE-3: "implement" at a revision gate whose plan file was deleted returns the refusal as a notice', async () => {
  const { session, events } = await revisionPendingInBuild();
  rmSync(join(h.root, PLAN_FILE));
  assert.deepEqual(await session.submit('implement'), { kind: 'notice', text: GONE });
  assert.equal(of(events, 'turn.started').filter((t) => t.kind === 'implementation').length, 0);
});

test('MODE-6, MODE-7: after the plan was carried out, "implement" in build is a message to the agent, not a new gate', async () => {
  const { session, events } = await planPending();
  h.server.enqueue({ text: 'Implemented.' }, { text: 'It is already implemented.' });
  await session.approve('execute');
  assert.equal(session.state.agent, 'build');
  assert.equal(session.state.activePlan?.planFile, PLAN_FILE);
  const approvals = of(events, 'plan.approval.requested').length;
  assert.deepEqual(await session.submit('implement'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.approval.requested').length, approvals);
  assert.equal(of(events, 'turn.started').at(-1)?.input, 'implement');
});

test('GATE-1: "keep planning" at the gate resolves the approval as revise (not automatic, with its file) and says how to go on', async () => {
  const { session, events } = await planPending();
  const before = events.length;
  assert.deepEqual(await session.approve('revise'), { ok: true, agent: 'plan', implementationPrompt: '' });
  const added = events.slice(before);
  assert.deepEqual(
    added.map((e) => e.type),
    ['plan.approval.resolved', 'turn.completed'],
  );
  const resolved = of(added, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic, planFile: resolved?.planFile },
    { choice: 'revise', automatic: false, planFile: PLAN_FILE },
  );
  const completed = of(added, 'turn.completed')[0];
  assert.deepEqual(
    { status: completed?.status, reason: completed?.reason },
    { status: 'idle', reason: 'Staying in Plan mode. Tell the planner what to change.' },
  );
  assert.equal(session.state.agent, 'plan');
  assert.equal(h.server.requests.length, 1);
});

test('GATE-1: "keep planning" with no approval pending only ends the turn idle with the same advice', async () => {
  const { session, events } = await h.start('plan');
  const before = events.length;
  assert.deepEqual(await session.approve('revise'), { ok: true, agent: 'plan', implementationPrompt: '' });
  assert.deepEqual(
    events.slice(before).map((e) => (e.type === 'turn.completed' ? [e.type, e.reason] : e.type)),
    [['turn.completed', 'Staying in Plan mode. Tell the planner what to change.']],
  );
});
