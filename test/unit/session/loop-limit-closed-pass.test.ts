/**
 * NAV-6, SYN-1: in planning the tool-loop limit closes research with a synthesis directive, but
 * only while research is open. Reached during a tool-free pass, it is reported and adds no second
 * "research is closed" directive: the pass already asks for the plan.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { of, read, useHarness } from './harness';

const h = useHarness();

test('NAV-6, SYN-1: a planning turn that reaches the loop limit (60) inside a synthesis pass reports it and adds no synthesis directive for it', async () => {
  // 57 searches, then a batch of 64 distinct reads that passes the 120 tool calls: the 121st call
  // closes research (request 59). Two plan-less answers in the pass reach the 60th round-trip.
  const searches = Array.from({ length: 57 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `greet|marker${i}` }) }],
  }));
  for (let n = 1; n <= 64; n++) writeFileSync(join(h.root, `note-${n}.txt`), `note ${n}\n`);
  const reads = Array.from({ length: 64 }, (_, i) => read(i + 1, `note-${i + 1}.txt`));
  h.server.enqueue(...searches, { toolCalls: reads }, { text: 'No plan yet.' }, { text: 'Still none.' });
  const { session, events } = await h.start('plan');
  await session.submit('Plan it');

  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [
      { kind: 'tool_calls', used: 120, max: 120 },
      { kind: 'tool_loop', used: 60, max: 60 },
    ],
  );
  const directives = of(events, 'directive');
  assert.deepEqual(
    directives.map((d) => [d.kind, d.toolsClosed]),
    [
      ['synthesis', true],
      ['synthesis', true],
      ['synthesis', true],
    ],
  );
  assert.match(directives[0]?.text ?? '', /\(the tool-call budget is used up\)/);
  assert.equal(
    directives.filter((d) => /tool-loop limit/.test(d.text)).length,
    0,
    'the loop limit came when research was already closed',
  );
});
