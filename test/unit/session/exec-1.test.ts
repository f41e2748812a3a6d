/**
 * EXEC-1: the implementation turn's own budget and its one internal +50 tool-loop allowance,
 * clamped by the hard cap; 0 stays unlimited; no stacking with manual grants.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { initialState } from '../../../src/core/session/state';
import {
  grantedLoopLimit,
  HARD_LOOP_CAP,
  IMPLEMENTATION_LOOP_ALLOWANCE,
  implementationLoopLimit,
  turnBudget,
} from '../../../src/core/session/runloop';
import { LIMITS, of, planText, read, useHarness, VALID_PLAN } from './harness';

test('EXEC-1: the allowance table (40 → 90, 100 → 120, 0 stays unlimited)', () => {
  assert.equal(HARD_LOOP_CAP, 120);
  assert.equal(IMPLEMENTATION_LOOP_ALLOWANCE, 50);
  const table: Array<[number, number]> = [
    [40, 90],
    [100, 120],
    [0, 0],
    [1, 51],
    [70, 120],
    [71, 120],
    [120, 120],
    [200, 200],
  ];
  for (const [configured, expected] of table)
    assert.equal(implementationLoopLimit(configured), expected, `${configured}`);
});

test('EXEC-1: the allowance never lowers a limit, adds at most 50, and never lifts past max(configured, cap)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1000 }), (configured) => {
      const limit = implementationLoopLimit(configured);
      return (
        limit >= configured &&
        limit - configured <= IMPLEMENTATION_LOOP_ALLOWANCE &&
        limit <= Math.max(configured, HARD_LOOP_CAP)
      );
    }),
  );
});

test('EXEC-1, EXEC-3: grants stop at the hard cap and do not stack on top of the allowance', () => {
  assert.equal(grantedLoopLimit(90, 40), 120, 'the allowance (40 → 90) plus one grant stops at the cap');
  assert.equal(grantedLoopLimit(120, 100), null, 'nothing to grant at the cap');
  assert.equal(grantedLoopLimit(60, 60), 110);
  assert.equal(grantedLoopLimit(110, 60), 120);
  assert.equal(grantedLoopLimit(200, 200), null, 'a configured limit above the cap gets no grants');
  assert.equal(grantedLoopLimit(0, 0), null, 'unlimited never needs one');
});

test('EXEC-1: only the implementation turn (and its continuations) gets the allowance; the tool-call budget is unchanged', () => {
  const base = initialState({ id: 's', workspace: '/w', provider: 'p', model: 'm', agent: 'build' });
  const limits = { ...LIMITS, loopsPerTurn: 40, toolCallsPerTurn: 30 };
  assert.deepEqual(turnBudget(limits, { ...base, turnKind: 'user' }), { toolCalls: 30, loops: 40, baseLoops: 40 });
  assert.deepEqual(turnBudget(limits, { ...base, turnKind: 'implementation' }), {
    toolCalls: 30,
    loops: 90,
    baseLoops: 90,
  });
  assert.deepEqual(turnBudget(limits, { ...base, turnKind: 'implementation', turnLoopLimit: 120 }), {
    toolCalls: 30,
    loops: 120,
    baseLoops: 90,
  });
  assert.deepEqual(turnBudget({ ...limits, loopsPerTurn: 0 }, { ...base, turnKind: 'implementation' }).loops, 0);
  // Planning keeps its own floors (NAV-1), not the implementation allowance.
  assert.deepEqual(turnBudget(limits, { ...base, agent: 'plan', turnKind: 'implementation' }), {
    toolCalls: 120,
    loops: 60,
    baseLoops: 60,
  });
});

const h = useHarness();

test('EXEC-1: the approved implementation turn runs past the ordinary loop limit on its own allowance, without a prompt', async () => {
  // loopsPerTurn 2: a plain build turn would prompt at the third request; the implementation turn has 52.
  const d = h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } });
  h.server.enqueue(
    { text: planText(VALID_PLAN) },
    { toolCalls: [read(1)] },
    { toolCalls: [read(2)] },
    { toolCalls: [read(3)] },
    { toolCalls: [read(4)] },
    { text: 'Implemented.' },
  );
  const { session, events } = await h.start('plan', d);
  await session.submit('Add shouting');
  await session.approve('execute');
  assert.equal(session.state.status, 'idle');
  assert.equal(of(events, 'interview.requested').length, 0);
  assert.equal(of(events, 'tool_loop_limit_increased').length, 0);
  assert.equal(of(events, 'budget_exhausted').length, 0);
  assert.equal(h.server.requests.length, 6);
});

test('EXEC-1: each fresh-context handoff initialises its own implementation budget (counters start at zero)', async () => {
  const d = h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } });
  h.server.enqueue(
    { toolCalls: [read(1)] },
    { text: planText(VALID_PLAN) },
    { toolCalls: [read(2)] },
    { toolCalls: [read(3)] },
    { text: 'Implemented.' },
  );
  const { session } = await h.start('plan', d);
  await session.submit('Add shouting');
  await session.approve('fresh_context');
  assert.equal(session.state.turnKind, 'implementation');
  assert.equal(session.state.turnLoops, 3, 'planning requests are not charged to the implementation turn');
  assert.equal(session.state.status, 'idle');
});
