/**
 * The order of the admission steps (src/core/session/turn/admission.ts) as behaviour: a call the
 * dispatch gate refuses never reaches the turn's tool-call budget (RO-1, NAV-1), so refused calls
 * cannot use up the budget that the allowed calls of the same batch need.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMITS, of, read, useHarness } from './harness';

const h = useHarness();

test('RO-1, NAV-1: calls refused by the gate spend none of the turn tool-call budget; the allowed calls of the batch still run', async () => {
  const unknown = (n: number) => ({ id: `call_u${n}`, name: 'no_such_tool', arguments: '{}' });
  h.server.enqueue({ toolCalls: [unknown(1), unknown(2), read(1), read(2)] }, { text: 'Read both.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, toolCallsPerTurn: 2 } }));
  const result = await session.submit('Read the readme twice');

  assert.deepEqual(result, { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.blocked').map((b) => [b.callId, b.policy]),
    [
      ['call_u1', 'shell'],
      ['call_u2', 'shell'],
    ],
  );
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok]),
    [
      ['call_r1', true],
      ['call_r2', true],
    ],
  );
  assert.equal(of(events, 'budget_exhausted').length, 0, 'two allowed calls fit a budget of two');
});
