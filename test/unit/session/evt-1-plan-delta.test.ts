/**
 * EVT-1, PLAN-1: the plan body streams as `plan.delta` events, at most one per provider chunk,
 * never carrying markup, and together they are exactly the streamed body.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { splitEvery } from '../../fixtures/model-server';
import { of, REVISED_PLAN, types, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

test('EVT-1, PLAN-1: plan.delta events stream the body (tags split across chunks), one per chunk at most, before plan.completed', async () => {
  const chunks = ['Found it. <propo', 'sed_plan>\n', ...splitEvery(VALID_PLAN, 37), '\n</propos', 'ed_plan>', ' Bye.'];
  h.server.enqueue({ text: chunks });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan shouting'), { kind: 'ran', status: 'awaiting_approval' });
  const deltas = of(events, 'plan.delta');
  assert.ok(deltas.length > 10, `streamed in pieces (${deltas.length})`);
  assert.ok(deltas.length <= chunks.length, 'batched per provider chunk');
  const body = deltas.map((d) => d.text).join('');
  assert.equal(body.trim(), VALID_PLAN);
  assert.ok(
    deltas.every((d) => !/<\/?propos/.test(d.text)),
    'no markup in a delta',
  );
  const order = types(events);
  assert.ok(order.lastIndexOf('plan.delta') < order.indexOf('plan.completed'));
  // The transcript (message.delta) still never sees the body.
  assert.equal(
    of(events, 'message.delta')
      .map((d) => d.text)
      .join(''),
    'Found it.  Bye.',
  );
});

test('EVT-1: a response without a plan block emits no plan.delta', async () => {
  h.server.enqueue({ text: ['Just ', 'talking <b>about</b> ', 'plans.'] });
  const { session, events } = await h.start('plan');
  await session.submit('Hi');
  assert.equal(of(events, 'plan.delta').length, 0);
});

test('EVT-1, PLAN-7: a block cut off by the output limit still delivers its whole streamed body as deltas', async () => {
  const cut = REVISED_PLAN.slice(0, 250);
  h.server.enqueue(
    { text: ['<proposed_plan>\n', cut.slice(0, 100), cut.slice(100), '</propo'], finishReason: 'length' },
    { text: 'ok' },
  );
  const { session, events } = await h.start('plan');
  await session.submit('Plan it');
  const first = events.findIndex((e) => e.type === 'message.completed');
  const body = of(events.slice(0, first), 'plan.delta')
    .map((d) => d.text)
    .join('');
  assert.equal(body, `\n${cut}</propo`, 'the held-back partial tag is body text once the block ends unclosed');
});

test('EVT-1, EXEC-4: a revision from an execution agent streams plan.delta too', async () => {
  h.server.enqueue({ text: ['Revising.\n<proposed_plan>\n', REVISED_PLAN, '\n</proposed_plan>'] });
  const { session, events } = await h.start('build');
  await session.submit('Add the flag');
  assert.equal(
    of(events, 'plan.delta')
      .map((d) => d.text)
      .join('')
      .trim(),
    REVISED_PLAN,
  );
});
