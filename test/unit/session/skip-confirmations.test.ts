/**
 * The seed's skip-confirmations policy (`vtplan.requirePlanConfirmation: false`, `vtplan run
 * --skip-confirmations`), issue 15 item 3. With it, a validated plan from an implicit planning
 * request goes to the build agent in the current context through the one handoff (MODE-7, GATE-3:
 * `plan.approval.requested` then `plan.approval.resolved` `auto_accept`, automatic) with a notice;
 * an explicit `/plan` request still waits (GATE-5); the start_planning suggestion is accepted
 * directly (MODE-4); a revision outside an approved turn continues (EXEC-4). With confirmations
 * required, every plan waits at the gate. The settings are read per turn: a change applies from
 * the next turn.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from '../../../src/core/session/session';
import type { PlanConfirmation, TurnSettings } from '../../../src/core/session/turn-settings';
import { LIMITS, of, planText, REVISED_PLAN, settingsWith, types, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const PLAN_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';
const IMPLEMENTED = { text: 'Implemented the shout flag.' };
const suggest = {
  name: 'start_planning',
  arguments: JSON.stringify({ reason: 'The change touches several modules.' }),
};

function skipping(planConfirmation: PlanConfirmation = 'skip') {
  return h.deps({ planConfirmation });
}

test('MODE-7, GATE-3: skip-confirmations hands a plan from implicit planning to build in the current context, with a notice and the usual handoff events', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, IMPLEMENTED);
  const { session, events } = await h.start('plan', skipping());
  const result = await session.submit('Add a shout flag to the greeter');

  assert.deepEqual(
    result,
    { kind: 'ran', status: 'idle' },
    'the submit ran through to the end of the implementation turn',
  );
  assert.equal(session.state.agent, 'build');
  assert.equal(session.state.pendingApproval, null);
  const from = types(events).indexOf('plan.persisted');
  assert.deepEqual(types(events).slice(from, from + 9), [
    'plan.persisted',
    'plan.approval.requested',
    'plan.approval.resolved',
    'mode.changed',
    'tracker.updated',
    'handoff.phase',
    'notice',
    'turn.completed',
    'turn.started',
  ]);
  assert.deepEqual(
    of(events, 'handoff.phase').map((p) => p.phase),
    ['done'],
    'a current-context handoff has no preparing/restoring/starting phases',
  );
  const resolved = of(events, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic, planFile: resolved?.planFile },
    { choice: 'auto_accept', automatic: true, planFile: PLAN_FILE },
  );
  assert.deepEqual(
    of(events, 'mode.changed').map((m) => [m.from, m.to, m.switchPath]),
    [['plan', 'build', 'plan_approval']],
  );
  assert.equal(of(events, 'context.reset').length, 0, 'current context, not a fresh one');
  assert.match(
    of(events, 'notice').at(-1)?.text ?? '',
    /^Plan confirmation is off, so \.vtcode\/plans\/add-a-shout-flag-to-the-greeter\.md was accepted without the "Ready to code\?" gate/,
  );
  assert.deepEqual(
    of(events, 'turn.started').map((t) => t.kind),
    ['user', 'implementation'],
  );
  assert.equal(h.server.requests.length, 2, 'exactly one implementation request');
  assert.match(
    String(h.body(1).messages.at(-1)?.content),
    /The user approved the plan in \.vtcode\/plans\/add-a-shout-flag-to-the-greeter\.md/,
  );
  assert.ok(
    h.body(1).tools?.some((t) => t.function.name === 'edit_file'),
    'the build catalog',
  );
});

const EXPLICIT: Array<{ name: string; agent: 'plan' | 'build'; run: (s: Session) => Promise<unknown> }> = [
  { name: '/plan <goal>', agent: 'plan', run: (s) => s.submit('/plan Add a shout flag to the greeter') },
  {
    name: '/plan, then the goal',
    agent: 'build',
    run: async (s) => (await s.submit('/plan'), s.submit('Add a shout flag to the greeter')),
  },
  {
    name: '/mode plan, then the goal',
    agent: 'build',
    run: async (s) => (await s.submit('/mode plan'), s.submit('Add a shout flag to the greeter')),
  },
];

for (const route of EXPLICIT) {
  test(`GATE-5: an explicit request (${route.name}) waits for approval even when confirmations are skipped, also after a resume`, async () => {
    h.server.enqueue({ text: planText(VALID_PLAN) });
    const { session, events } = await h.start(route.agent, skipping());
    await route.run(session);
    assert.equal(session.state.status, 'awaiting_approval');
    assert.deepEqual(session.state.pendingApproval, { planFile: PLAN_FILE }, 'the plan waits at the gate');
    assert.equal(of(events, 'plan.approval.resolved').length, 0);
    assert.equal(session.state.agent, 'plan');
    assert.equal(h.server.requests.length, 1, 'no implementation request');
    assert.equal(of(events, 'planning.requested').length, 1);
    // The explicit request is in the log: a resumed session keeps it, and its plan still waits.
    const resumed = await Session.resume(skipping(), session.id);
    assert.equal(resumed.state.planningExplicit, true);
    assert.deepEqual(resumed.state.pendingApproval, { planFile: PLAN_FILE });
  });
}

test('with confirmations required (the default), the same implicit planning waits at the gate', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan', skipping('required'));
  assert.deepEqual(await session.submit('Add a shout flag to the greeter'), {
    kind: 'ran',
    status: 'awaiting_approval',
  });
  assert.deepEqual(session.state.pendingApproval, { planFile: PLAN_FILE });
  assert.equal(of(events, 'plan.approval.resolved').length, 0);
  assert.equal(session.state.agent, 'plan');
  assert.equal(h.server.requests.length, 1);
});

test('MODE-4: skip-confirmations accepts the start_planning suggestion directly; that planning is implicit, so its plan goes on to build', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: planText(VALID_PLAN) }, IMPLEMENTED);
  const { session, events } = await h.start('build', skipping());
  assert.deepEqual(await session.submit('Refactor the greeter'), { kind: 'ran', status: 'idle' });

  assert.equal(of(events, 'interview.requested').length, 0, 'no "Enter Planning workflow?" question');
  assert.ok(
    of(events, 'notice').some((n) =>
      /suggested planning \(The change touches several modules\.\); plan confirmation is off/.test(n.text),
    ),
  );
  assert.deepEqual(
    of(events, 'mode.changed').map((m) => [m.from, m.to, m.switchPath]),
    [
      ['build', 'plan', 'plan_entry'],
      ['plan', 'build', 'plan_approval'],
    ],
  );
  const planning = h.body(1).tools?.map((t) => t.function.name) ?? [];
  assert.ok(
    !planning.includes('write_file') && !planning.includes('edit_file'),
    `the planning request had the read-only catalog: ${planning.join(', ')}`,
  );
  assert.match(String(h.body(1).messages.at(-1)?.content), /Research read-only and propose a plan/);
  assert.equal(of(events, 'plan.approval.resolved')[0]?.choice, 'auto_accept');
  assert.deepEqual(
    of(events, 'turn.started').map((t) => t.kind),
    ['user', 'continuation', 'implementation'],
  );
  assert.equal(session.state.agent, 'build');
});

test('EXEC-4: under skip-confirmations a revision proposed outside an approved turn is accepted and work continues', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await h.start('build', skipping());
  assert.deepEqual(await session.submit('Add a shout flag'), { kind: 'ran', status: 'idle' });
  const resolved = of(events, 'plan.approval.resolved')[0];
  assert.deepEqual(
    { choice: resolved?.choice, automatic: resolved?.automatic },
    { choice: 'auto_accept', automatic: true },
  );
  assert.ok(of(events, 'notice').some((n) => /plan confirmation is off, so it was accepted/.test(n.text)));
  assert.equal(h.server.requests.length, 2);
});

test('GATE-3: when the automatic handoff fails (the checklist cannot be written) the plan stays pending at the gate with the reason', async () => {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-outside-')));
  try {
    mkdirSync(join(h.root, '.vtcode'), { recursive: true });
    symlinkSync(outside, join(h.root, '.vtcode', 'tasks'));
    h.server.enqueue({ text: planText(VALID_PLAN) }, IMPLEMENTED);
    const { session, events } = await h.start('plan', skipping());
    assert.deepEqual(await session.submit('Add a shout flag to the greeter'), {
      kind: 'ran',
      status: 'awaiting_approval',
    });
    assert.deepEqual(session.state.pendingApproval, { planFile: PLAN_FILE });
    assert.equal(session.state.agent, 'plan');
    assert.equal(of(events, 'plan.approval.resolved').length, 0);
    assert.ok(of(events, 'notice').some((n) => n.level === 'error' && /checklist could not be written/.test(n.text)));
    assert.equal(h.server.requests.length, 1, 'no implementation request');
    assert.deepEqual(readdirSync(outside), []);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('settings are read when a turn starts: a change applies from the next turn, never within the running one', async () => {
  let current: TurnSettings = settingsWith({ ...LIMITS, toolCallsPerTurn: 1 });
  const read = (path: string) => ({ name: 'read_file', arguments: JSON.stringify({ path }) });
  h.server.enqueue(
    { toolCalls: [read('src/greet.js'), read('README.md')] },
    { text: 'One read was enough.' },
    { toolCalls: [read('src/greet.js'), read('README.md')] },
    { text: 'Both reads ran.' },
  );
  const { session, events } = await h.start('build', h.deps({ turnSettings: () => current }));
  // Raised while the first turn runs: that turn keeps the limit it started with.
  session.on((e) => {
    if (e.type === 'tool.call') current = settingsWith({ ...LIMITS, toolCallsPerTurn: 0 });
  });
  await session.submit('Read the greeter twice');
  const first = of(events, 'tool.blocked');
  assert.deepEqual(
    first.map((b) => b.policy),
    ['budget'],
    'the second call of the first turn hit the limit of 1',
  );
  await session.submit('Read it twice again');
  assert.equal(of(events, 'tool.blocked').length, 1, 'the next turn runs with the raised limit: nothing else blocked');
  assert.equal(of(events, 'tool.result').length, 3);
});

test('GATE-5: leaving planning ends the explicit request: a later suggested planning under skip-confirmations goes on to build', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: planText(VALID_PLAN) }, IMPLEMENTED);
  const { session, events } = await h.start('build', skipping());
  await session.submit('/plan');
  await session.submit('/plan off');
  assert.equal(session.state.planningExplicit, false);
  assert.deepEqual(await session.submit('Refactor the greeter'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.approval.resolved')[0]?.choice, 'auto_accept');
  assert.equal(session.state.agent, 'build');
});

test('EXEC-5: a stop that comes after the planning turn ended (New Session, Stop) cancels the implementation it would start', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, IMPLEMENTED);
  const { session, events } = await h.start('plan', skipping());
  // The turn is over when turn.completed is emitted; stopping then is the window before the follow-up.
  session.on((e) => {
    if (e.type === 'turn.completed') session.stop();
  });
  const result = await session.submit('Add a shout flag to the greeter');
  assert.deepEqual(result, { kind: 'notice', text: 'The implementation did not start: the session was stopped.' });
  assert.deepEqual(
    of(events, 'turn.started').map((t) => t.kind),
    ['user'],
  );
  assert.equal(h.server.requests.length, 1, 'no implementation request');
  assert.equal(
    of(events, 'plan.approval.resolved')[0]?.choice,
    'auto_accept',
    'the plan was accepted; only its implementation did not start',
  );
});
