/**
 * What a turn does when a model request fails (turn/request.ts, runloop.ts): the failure is an
 * event and the turn's end reason; while tools are closed a failed request spends the SYN-1
 * allowance and is asked again until the allowance is gone.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMITS, of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** Six research requests whose grep finds nothing: the seventh request is the synthesis pass (NAV-2, SYN-1). */
const fruitlessSearches = () =>
  Array.from({ length: 6 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `nothing-here-${i + 1}` }) }],
  }));
/** 400 is not retried by the transport layer: one HTTP request, one failed model request. */
const rejected = (n: number) => ({ status: 400, errorMessage: `bad request ${n}` });

test('EXEC-5: a failed request ends the turn failed with the provider message, reported first as provider.failed', async () => {
  h.server.enqueue(rejected(1));
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'failed' });
  const failed = of(events, 'provider.failed');
  assert.equal(failed.length, 1);
  assert.equal(failed[0]?.failure.status, 400);
  assert.match(failed[0]?.failure.message ?? '', /bad request 1/);
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual(end && { status: end.status, reason: end.reason }, {
    status: 'failed',
    reason: failed[0]?.failure.message,
  });
  assert.equal(of(events, 'message.completed').length, 0, 'a failed request completes no message');
  assert.equal(h.server.requests.length, 1);
});

test('SYN-1: a failed synthesis request spends the allowance and is asked again; the plan from the next request is published', async () => {
  h.server.enqueue(...fruitlessSearches(), rejected(1), { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(of(events, 'provider.failed').length, 1);
  assert.equal(h.server.requests.length, 8);
  assert.equal(h.body(7).tool_choice, 'none', 'the second synthesis request is tool-free too');
});

test('SYN-1, SYN-3: failed synthesis requests that spend the allowance lead to the recovery interview, without another model call', async () => {
  h.server.enqueue(...fruitlessSearches(), rejected(1), rejected(2), rejected(3), { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_input' });
  assert.equal(h.server.requests.length, 9, '6 research + 3 synthesis requests');
  assert.equal(of(events, 'provider.failed').length, 3);
  const reason = 'Planning could not produce a valid plan within its recovery allowance.';
  assert.equal(of(events, 'turn.completed').at(-1)?.reason, reason);
  const asked = of(events, 'interview.requested').at(-1);
  assert.equal(asked?.source, 'runtime');
  assert.ok(asked?.questions[0]?.options.some((o) => o.label === 'Choose another model'));
});

test('SYN-1, SYN-3: an execution agent whose recovery pass spends the allowance is asked how to continue, with the execution reason', async () => {
  // Blocked-call cap 1: the second blocked write trips the fuse and starts the tool-free recovery pass (FUSE-1).
  const outside = { name: 'write_file', arguments: '{"path":"../outside.txt","content":"x"}' };
  h.server.enqueue(
    { toolCalls: [outside, outside] },
    // The recovery request: two transport retries and a tool call spend all three units (SYN-1).
    { status: 500, errorMessage: 'overloaded' },
    { status: 500, errorMessage: 'overloaded' },
    { toolCalls: [outside] },
    { text: 'never requested' },
  );
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 1 } }));
  assert.deepEqual(await session.submit('Write outside'), { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(
    of(events, 'directive').map((d) => d.kind),
    ['recovery'],
  );
  assert.equal(of(events, 'provider.retry').length, 2);
  assert.equal(h.server.requests.length, 4, 'no model request once the allowance is spent');
  const reason = 'The recovery allowance is used up.';
  assert.equal(of(events, 'planning.awaiting_input').at(-1)?.reason, reason);
  assert.equal(of(events, 'turn.completed').at(-1)?.reason, reason);
  assert.equal(of(events, 'interview.requested').at(-1)?.source, 'runtime');
});
