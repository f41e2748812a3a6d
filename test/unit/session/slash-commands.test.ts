/**
 * MODE-2: what `Session.submit` does with `/plan` and `/mode`: only a whole-input command counts,
 * an unknown mode or `/plan off` outside planning is a notice, leaving planning for an execution
 * agent abandons the plan under review (MODE-6: a `cancel` approval event), `/plan <text>` starts a
 * fresh request that clears the old approval and supersedes an open question, and a switch to the
 * agent already active changes nothing. Empty input is a notice, not a turn.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { SessionEvent } from '../../../src/core/session/events';
import { LIMITS, of, planText, read, REVISED_PLAN, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const PLAN_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';

/** A planning session (begun from build) whose plan waits at the gate. */
async function planPending() {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const started = await h.start('build');
  await started.session.submit('/plan');
  assert.deepEqual(await started.session.submit('Add a shout flag'), { kind: 'ran', status: 'awaiting_approval' });
  assert.deepEqual(started.session.state.pendingApproval, { planFile: PLAN_FILE });
  return started;
}

/** …after "keep planning": no approval pending, the plan still active. */
async function planKeptActive() {
  const started = await planPending();
  await started.session.approve('revise');
  assert.equal(started.session.state.pendingApproval, null);
  assert.equal(started.session.state.activePlan?.planFile, PLAN_FILE);
  return started;
}

const noticeOf = (e: SessionEvent | undefined) => (e?.type === 'notice' ? { level: e.level, text: e.text } : e?.type);

test('MODE-2: empty or blank input is a warning notice, not a turn', async () => {
  const { session, events } = await h.start('plan');
  for (const input of ['', '  \n\t ']) {
    assert.deepEqual(await session.submit(input), { kind: 'notice', text: 'Nothing to send.' });
    assert.deepEqual(noticeOf(events.at(-1)), { level: 'warning', text: 'Nothing to send.' });
  }
  assert.equal(of(events, 'turn.started').length, 0);
  assert.equal(h.server.requests.length, 0);
});

test('MODE-2: a command surrounded by blanks is still the command', async () => {
  const { session } = await h.start('plan');
  assert.deepEqual(await session.submit('  /mode auto \n'), { kind: 'mode', agent: 'auto' });
  assert.equal(session.state.agent, 'auto');
});

test('MODE-2: "/plan" inside a sentence, or a longer word starting with it, is a message to the agent', async () => {
  h.server.enqueue({ text: 'It switches to planning.' }, { text: 'No such command.' });
  const { session, events } = await h.start('build');
  for (const input of ['What does /plan do?', '/plans are where?']) {
    assert.deepEqual(await session.submit(input), { kind: 'ran', status: 'idle' });
    assert.equal(of(events, 'turn.started').at(-1)?.input, input);
  }
  assert.equal(session.state.agent, 'build');
  assert.equal(of(events, 'mode.changed').length, 0);
});

test('MODE-2: an unknown /mode is a warning naming it and the valid commands; the agent stays', async () => {
  const { session, events } = await h.start('build');
  const text = "Unknown mode 'turbo'. Use /mode build, /mode auto or /plan.";
  assert.deepEqual(await session.submit('/mode turbo'), { kind: 'notice', text });
  assert.deepEqual(noticeOf(events.at(-1)), { level: 'warning', text });
  assert.equal(session.state.agent, 'build');
});

test('MODE-2: /plan off outside planning is an info notice and changes nothing', async () => {
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('/plan off'), { kind: 'notice', text: 'Planning is not active.' });
  assert.deepEqual(noticeOf(events.at(-1)), { level: 'info', text: 'Planning is not active.' });
  assert.equal(session.state.agent, 'build');
});

test('MODE-2, MODE-6: /mode build while a plan waits abandons it (cancel, not automatic, with its file), then leaves planning', async () => {
  const { session, events } = await planPending();
  const before = events.length;
  assert.deepEqual(await session.submit('/mode build'), { kind: 'mode', agent: 'build' });
  const added = events.slice(before);
  assert.deepEqual(
    added.map((e) => e.type),
    ['plan.approval.resolved', 'turn.completed', 'mode.changed'],
  );
  const resolved = of(added, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic, planFile: resolved?.planFile },
    { choice: 'cancel', automatic: false, planFile: PLAN_FILE },
  );
  const completed = of(added, 'turn.completed')[0];
  assert.deepEqual(
    { status: completed?.status, reason: completed?.reason },
    { status: 'idle', reason: 'Planning cancelled; the plan will not be implemented.' },
  );
  const changed = of(added, 'mode.changed')[0];
  assert.deepEqual(
    { from: changed?.from, to: changed?.to, switchPath: changed?.switchPath },
    { from: 'plan', to: 'build', switchPath: 'plan_exit' },
  );
  assert.equal(session.state.activePlan, null);
});

test('MODE-2, MODE-6: /mode auto with a plan kept active (no approval pending) abandons that plan too', async () => {
  const { session, events } = await planKeptActive();
  const before = events.length;
  await session.submit('/mode auto');
  const resolved = of(events.slice(before), 'plan.approval.resolved');
  assert.deepEqual(
    resolved.map((r) => ({ choice: r.choice, planFile: r.planFile })),
    [{ choice: 'cancel', planFile: PLAN_FILE }],
  );
  assert.equal(session.state.activePlan, null);
  assert.equal(session.state.agent, 'auto');
});

test('MODE-2: /mode build from planning with no plan only switches', async () => {
  const { session, events } = await h.start('plan');
  const before = events.length;
  assert.deepEqual(await session.submit('/mode build'), { kind: 'mode', agent: 'build' });
  assert.deepEqual(
    events.slice(before).map((e) => e.type),
    ['mode.changed'],
  );
});

test('MODE-2: /mode plan while a plan waits keeps it waiting and marks planning as asked for', async () => {
  const { session, events } = await planPending();
  const before = events.length;
  assert.deepEqual(await session.submit('/mode plan'), { kind: 'mode', agent: 'plan' });
  const added = events.slice(before);
  assert.deepEqual(
    added.map((e) => e.type),
    ['planning.requested'],
  );
  assert.equal(of(added, 'planning.requested')[0]?.command, '/mode plan');
  assert.deepEqual(session.state.pendingApproval, { planFile: PLAN_FILE });
});

test('MODE-2: /mode plan from build enters planning (plan_entry) and records the command', async () => {
  const { session, events } = await h.start('build');
  await session.submit('/mode plan');
  const changed = of(events, 'mode.changed')[0];
  assert.deepEqual(
    { from: changed?.from, to: changed?.to, switchPath: changed?.switchPath },
    { from: 'build', to: 'plan', switchPath: 'plan_entry' },
  );
  assert.deepEqual(
    of(events, 'planning.requested').map((e) => e.command),
    ['/mode plan'],
  );
});

test('MODE-2: /mode build in build changes nothing and requests no planning', async () => {
  const { session, events } = await h.start('build');
  const before = events.length;
  assert.deepEqual(await session.submit('/mode build'), { kind: 'mode', agent: 'build' });
  assert.equal(events.length, before);
});

test('MODE-2, MODE-7: /mode auto after an approved implementation keeps the implemented plan (nothing to abandon)', async () => {
  const { session, events } = await planPending();
  h.server.enqueue({ text: 'Implemented.' });
  await session.approve('execute');
  assert.equal(session.state.agent, 'build');
  const before = events.length;
  await session.submit('/mode auto');
  assert.deepEqual(
    events.slice(before).map((e) => e.type),
    ['mode.changed'],
  );
  assert.equal(session.state.activePlan?.planFile, PLAN_FILE);
});

test('MODE-2, MODE-6: /plan off while a plan waits abandons it and returns to the agent used before', async () => {
  const { session, events } = await planPending();
  assert.deepEqual(await session.submit('/plan off'), { kind: 'mode', agent: 'build' });
  assert.deepEqual(
    of(events, 'plan.approval.resolved').map((r) => ({ choice: r.choice, planFile: r.planFile })),
    [{ choice: 'cancel', planFile: PLAN_FILE }],
  );
  assert.equal(of(events, 'mode.changed').at(-1)?.switchPath, 'plan_exit');
});

test('MODE-2, MODE-6: /plan off with a plan kept active abandons it', async () => {
  const { session, events } = await planKeptActive();
  await session.submit('/plan off');
  assert.deepEqual(
    of(events, 'plan.approval.resolved').map((r) => r.choice),
    ['revise', 'cancel'],
  );
  assert.equal(session.state.activePlan, null);
});

test('MODE-2, GATE-5: /plan while already planning by request records the request once', async () => {
  const { session, events } = await h.start('build');
  await session.submit('/plan');
  await session.submit('/plan');
  assert.deepEqual(
    of(events, 'planning.requested').map((e) => e.command),
    ['/plan'],
  );
  assert.equal(of(events, 'mode.changed').length, 1);
});

test('MODE-2: /plan <text> while a plan waits clears its approval automatically (the file stays) and plans the new request', async () => {
  const { session, events } = await planPending();
  h.server.enqueue({ text: planText(REVISED_PLAN) });
  assert.deepEqual(await session.submit('/plan Also document it'), { kind: 'ran', status: 'awaiting_approval' });
  const resolved = of(events, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic, planFile: resolved?.planFile },
    { choice: 'revise', automatic: true, planFile: PLAN_FILE },
  );
  assert.equal(of(events, 'turn.started').at(-1)?.input, 'Also document it');
});

test('MODE-2, INT-2: /plan <text> while the model waits on a question cancels that question as superseded', async () => {
  const question = {
    id: 'call_q1',
    name: 'request_user_input',
    arguments: JSON.stringify({
      questions: [{ id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] }],
    }),
  };
  h.server.enqueue({ toolCalls: [question] }, { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Make it shout'), { kind: 'ran', status: 'awaiting_input' });
  await session.submit('/plan Make it whisper instead');
  const resolved = of(events, 'interview.resolved')[0];
  assert.deepEqual(
    { id: resolved?.interviewId, cancelled: resolved?.cancelled, superseded: resolved?.superseded },
    { id: 'call_q1', cancelled: true, superseded: true },
  );
  assert.equal(session.state.pendingInterview, null);
});

test('EXEC-3, MODE-2: a slash command while the limit question is open is refused, naming the command', async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  assert.deepEqual(await session.submit('Read three files'), { kind: 'ran', status: 'awaiting_input' });
  const text = 'Answer the limit question first; /mode was not applied.';
  assert.deepEqual(await session.submit('/mode auto'), { kind: 'notice', text });
  assert.deepEqual(noticeOf(events.at(-1)), { level: 'warning', text });
  assert.equal(session.state.agent, 'build');
});
