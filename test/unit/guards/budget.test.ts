import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  admitPreview,
  budgetExhaustedSchema,
  consume,
  KIB,
  MAX_SEQUENTIAL_SPOOL_READS,
  newCounters,
  newPreviewBudget,
  planningLimits,
  previewResult,
  previewStub,
  resultCap,
  SPOOL_PAGE_CREDIT,
  type PreviewBudget,
} from '../../../src/core/guards/budget';

test('NAV-1: planning floors of 120 calls and 60 loops apply below, not at or above; 0 stays unlimited', () => {
  assert.deepEqual(planningLimits({ toolCalls: 119, loops: 59 }, true), { toolCalls: 120, loops: 60 });
  assert.deepEqual(planningLimits({ toolCalls: 120, loops: 60 }, true), { toolCalls: 120, loops: 60 });
  assert.deepEqual(planningLimits({ toolCalls: 200, loops: 61 }, true), { toolCalls: 200, loops: 61 });
  assert.deepEqual(planningLimits({ toolCalls: 0, loops: 0 }, true), { toolCalls: 0, loops: 0 });
  assert.deepEqual(planningLimits({ toolCalls: 10, loops: 5 }, false), { toolCalls: 10, loops: 5 });
});

test('NAV-6: a used-up budget fails closed with a budget_exhausted record of used/max', () => {
  let state = newCounters({ tool_calls: 2, tool_loop: 0, session_calls: 5 });
  for (let i = 0; i < 2; i += 1) {
    const step = consume(state, 'tool_calls');
    assert.equal(step.decision.kind, 'ok');
    state = step.state;
  }
  const refused = consume(state, 'tool_calls');
  assert.deepEqual(refused.decision, {
    kind: 'exhausted',
    record: { type: 'budget_exhausted', budget: 'tool_calls', used: 2, max: 2 },
  });
  assert.equal(refused.state, state);
  if (refused.decision.kind === 'exhausted')
    assert.deepEqual(budgetExhaustedSchema.parse(refused.decision.record), refused.decision.record);
  let unlimited = state;
  for (let i = 0; i < 1000; i += 1) unlimited = consume(unlimited, 'tool_loop').state;
  assert.equal(unlimited.used.tool_loop, 1000);
  const session = consume(
    newCounters({ tool_calls: 0, tool_loop: 0, session_calls: 5 }, { session_calls: 5 }),
    'session_calls',
  );
  assert.equal(session.decision.kind === 'exhausted' && session.decision.record.budget, 'session_calls');
});

test('NAV-5: plan inspections default to 8 KiB, explicit values clamp to 16 KiB; verification keeps the full default', () => {
  assert.equal(resultCap('plan', 'inspection', undefined), 8 * KIB);
  assert.equal(resultCap('plan', 'inspection', 12 * KIB), 12 * KIB);
  assert.equal(resultCap('plan', 'inspection', 16 * KIB), 16 * KIB);
  assert.equal(resultCap('plan', 'inspection', 64 * KIB), 16 * KIB);
  assert.equal(resultCap('plan', 'verification', undefined), 32 * KIB);
  assert.equal(resultCap('exec', 'inspection', undefined), 32 * KIB);
});

function fill(phase: 'plan' | 'exec', bytes: number): PreviewBudget {
  let state = newPreviewBudget(phase);
  while (state.used < bytes)
    state = previewResult(state, {
      kind: 'verification',
      requested: Math.min(32 * KIB, bytes - state.used),
      bodyBytes: 10 * 1024 * KIB,
    }).state;
  return state;
}

test('NAV-5: the per-turn budget is 96 KiB in plan and 64 KiB in execution (below, at, above)', () => {
  for (const [phase, limit] of [
    ['plan', 96 * KIB],
    ['exec', 64 * KIB],
  ] as const) {
    const below = fill(phase, limit - 1);
    assert.equal(below.exhausted, false);
    const at = previewResult(below, { kind: 'verification', bodyBytes: 10 });
    assert.equal(at.state.used, limit);
    assert.equal(at.state.exhausted, true);
    assert.deepEqual(at.decision, { kind: 'body', bytes: 1, truncated: true, synthesis: phase === 'plan' });
    const above = previewResult(at.state, { kind: 'verification', bodyBytes: 10 });
    assert.deepEqual(above.decision, { kind: 'stub', synthesis: phase === 'plan' });
  }
});

test('NAV-5: after exhaustion inspections are refused, verification and open tools stay admitted, spool pages get a capped credit', () => {
  const spent = fill('plan', 96 * KIB);
  assert.equal(admitPreview(newPreviewBudget('plan'), 'inspection').kind, 'admit');
  assert.equal(admitPreview(spent, 'inspection').kind, 'reject');
  assert.equal(admitPreview(spent, 'verification').kind, 'admit');
  assert.equal(admitPreview(spent, 'open').kind, 'admit');
  let state = spent;
  for (let i = 0; i < MAX_SEQUENTIAL_SPOOL_READS; i += 1) {
    assert.equal(admitPreview(state, 'spool_page').kind, 'admit');
    const page = previewResult(state, { kind: 'spool_page', bodyBytes: 10 * KIB });
    assert.deepEqual(page.decision, { kind: 'body', bytes: SPOOL_PAGE_CREDIT, truncated: true, synthesis: false });
    state = page.state;
  }
  assert.equal(admitPreview(state, 'spool_page').kind, 'reject');
  assert.equal(previewResult(state, { kind: 'spool_page', bodyBytes: 10 }).decision.kind, 'stub');
});

test('NAV-5: the metadata stub carries size but no body', () => {
  const stub = previewStub({ tool: 'read_file', bodyBytes: 5000, lines: 120 });
  assert.match(stub, /read_file: 5000 bytes, 120 lines; body omitted/);
});
