/**
 * Tool calls while tools are closed (turn/batch.ts `refuseClosedCalls`, FUSE-1, SYN-1): in a
 * recovery pass they are counted by the recovery fuse (1× cap) and the turn ends blocked with a
 * handoff; in a synthesis pass they are refused without being counted and the pass is asked again.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMITS, of, useHarness } from './harness';

const h = useHarness();
const outside = (id: string) => ({ id, name: 'write_file', arguments: '{"path":"../outside.txt","content":"x"}' });

test('FUSE-1, FUSE-2: in an execution recovery pass, closed calls past the 1x cap end the turn blocked with the execution handoff, one next step a line', async () => {
  // Cap 1: the second blocked write trips the fuse; the recovery request gets the trip message.
  h.server.enqueue(
    { toolCalls: [outside('c1'), outside('c2')] },
    { toolCalls: [outside('c3'), outside('c4')] },
    { text: 'never requested' },
  );
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 1 } }));
  assert.deepEqual(await session.submit('Write outside'), { kind: 'ran', status: 'blocked' });
  assert.match(
    String(h.body(1).messages.at(-1)?.content),
    /\(Blocked tool-call limit reached: more than 1 consecutive blocked calls\. One response without tool calls follows\.\)/,
    'the recovery request names why the fuse tripped',
  );
  assert.deepEqual(
    of(events, 'tool.blocked').map((b) => [b.callId, b.policy]),
    [
      ['c1', 'shell'],
      ['c2', 'shell'],
      ['c3', 'fuse'],
      ['c4', 'fuse'],
    ],
  );
  const end = of(events, 'turn.completed').at(-1);
  assert.equal(
    end?.reason,
    [
      'Turn blocked: Blocked tool-call limit reached during recovery: more than 1 total blocked calls this turn. The turn ends here.',
      '- Type `continue` to retry with a different approach, or give a new instruction.',
      `- Resume this session later with \`vtplan resume ${end?.session}\`.`,
    ].join('\n'),
  );
  assert.equal(h.server.requests.length, 2);
});

test('SYN-1: closed calls in a planning synthesis pass are refused without counting toward the blocked-call fuse, and the pass is asked for again', async () => {
  const fruitless = Array.from({ length: 6 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `nothing-here-${i + 1}` }) }],
  }));
  const grep = (id: string) => ({ id, name: 'grep', arguments: '{"pattern":"greet"}' });
  h.server.enqueue(
    ...fruitless,
    { toolCalls: [grep('s1'), grep('s2')] },
    { text: 'Nothing found; here is what I know.' },
  );
  const { session, events } = await h.start('plan', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 1 } }));
  await session.submit('Plan it');
  assert.deepEqual(
    of(events, 'tool.blocked').map((b) => [b.callId, b.policy, b.reason]),
    [
      ['s1', 'navigation', 'Tools are closed for this pass: answer from the evidence you already have.'],
      ['s2', 'navigation', 'Tools are closed for this pass: answer from the evidence you already have.'],
    ],
  );
  const [first, again] = of(events, 'directive');
  assert.equal(first?.kind, 'synthesis');
  assert.equal(again?.kind, 'synthesis');
  assert.match(again?.text ?? '', /^Research is closed for this turn \(a tool was called during a tool-free pass\)\./);
  assert.equal(h.body(7).tool_choice, 'none', 'the pass asked for again is tool-free');
});
