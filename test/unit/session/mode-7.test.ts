/**
 * GATE-1, MODE-7: the gate's implementation choices resolve one typed destination: current and
 * fresh context go to `build` even when planning began from `auto`; only Switch to Auto selects `auto`.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { AgentMode, GateChoice } from '../../../src/core/vocabulary';
import { of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

const cases: Array<{ from: AgentMode; choice: Exclude<GateChoice, 'revise'>; to: AgentMode }> = [
  { from: 'auto', choice: 'execute', to: 'build' },
  { from: 'auto', choice: 'fresh_context', to: 'build' },
  { from: 'auto', choice: 'switch_auto', to: 'auto' },
  { from: 'build', choice: 'switch_auto', to: 'auto' },
  { from: 'build', choice: 'execute', to: 'build' },
];

for (const { from, choice, to } of cases) {
  test(`GATE-1, MODE-7: planning begun from ${from}, "${choice}" implements as ${to}`, async () => {
    h.server.enqueue({ text: planText(VALID_PLAN) }, { text: 'Implemented.' });
    const { session, events } = await h.start(from);
    await session.submit('/plan');
    assert.equal(session.state.previousExecution, from);
    await session.submit('Add shouting');
    const result = await session.approve(choice);
    assert.equal(result.ok, true);
    assert.equal(result.ok && result.agent, to);
    assert.equal(session.state.agent, to, 'the session ends in the destination agent');
    const handoff = of(events, 'mode.changed').at(-1);
    assert.deepEqual(
      { from: handoff?.from, to: handoff?.to, switchPath: handoff?.switchPath },
      { from: 'plan', to, switchPath: 'plan_approval' },
    );
    assert.equal(of(events, 'plan.approval.resolved')[0]?.choice, choice);
    const impl = of(events, 'turn.started').at(-1);
    assert.deepEqual({ kind: impl?.kind, agent: impl?.agent }, { kind: 'implementation', agent: to });
    // The implementation request's system prompt states the destination's confirmation policy.
    const system = String(h.body(1).messages[0]?.content);
    assert.match(system, to === 'build' ? /shown to the user for confirmation first/ : /execute without confirmation/);
  });
}
