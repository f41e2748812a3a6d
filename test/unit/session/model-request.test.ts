/**
 * What one model request sends and streams (turn/request.ts): the agent's system prompt, and
 * visible text as deltas that add up to the completed message (EVT-1, PLAN-1).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, useHarness } from './harness';

const h = useHarness();

test("MODE-1: the plan agent's request carries the plan system prompt, filled with the workspace path", async () => {
  h.server.enqueue({ text: 'Hello.' });
  const { session } = await h.start('plan');
  await session.submit('Plan it');
  const system = h.body(0).messages[0];
  assert.equal(system?.role, 'system');
  const text = String(system?.content);
  assert.ok(
    text.startsWith(`You are the \`plan\` agent of VT Code Planning, working in the user's workspace at ${h.root}.`),
    text.slice(0, 200),
  );
  assert.match(text, /You are read-only: you cannot create, edit, move or\s+delete files/);
  assert.doesNotMatch(text, /\{\{\w+\}\}/, 'every placeholder is filled');
});

test('EVT-1, PLAN-1: text held back as a possible tag start is released when the answer ends: the deltas add up to the completed message', async () => {
  h.server.enqueue({ text: ['The greeting is built in ', 'src/greet.js <'] });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Where is the greeting?'), { kind: 'ran', status: 'idle' });
  const deltas = of(events, 'message.delta').map((e) => e.text);
  assert.equal(deltas.at(-1), '<', 'the held-back "<" comes as its own last delta');
  assert.equal(deltas.join(''), of(events, 'message.completed')[0]?.text);
  assert.equal(deltas.join(''), 'The greeting is built in src/greet.js <');
});
