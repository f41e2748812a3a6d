/**
 * The turn's phases as a caller sees them (turn/phase.ts): which requests have tools closed
 * (`tool_choice: none`), how a tool call in a tool-free pass is refused (recovery fuse or a new
 * synthesis request), and which budgets a turn starts with.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECOVERY_CHOICES } from '../../../src/core/session/interview';
import { INVALID_PLAN, LIMITS, of, planText, read, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** A write the plan agent's gate blocks (RO-1). */
const write = { name: 'write_file', arguments: '{"path":"src/greet.js","content":"pwned"}' };
/** Blocked-call cap 2: the third consecutive blocked call trips the fuse and starts the recovery pass (FUSE-1). */
const tripsFuse = [{ toolCalls: [write] }, { toolCalls: [write] }, { toolCalls: [write] }];
const fuseCapTwo = { limits: { ...LIMITS, maxConsecutiveBlocked: 2 } };

/** Six research requests whose grep finds nothing: the seventh request is the synthesis pass (NAV-2, SYN-1). */
const fruitlessSearches = () =>
  Array.from({ length: 6 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `nothing-here-${i + 1}` }) }],
  }));

test('FUSE-1, SYN-1: the recovery pass after a tripped fuse is tool-free: its request has tool_choice none and its directive says tools are closed', async () => {
  h.server.enqueue(...tripsFuse, { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan', h.deps(fuseCapTwo));
  assert.deepEqual(await session.submit('Just edit the file'), { kind: 'ran', status: 'awaiting_approval' });
  const recovery = of(events, 'directive');
  assert.deepEqual(
    recovery.map((d) => [d.kind, d.toolsClosed]),
    [['recovery', true]],
  );
  assert.equal(h.server.requests.length, 4);
  assert.equal(h.body(3).tool_choice, 'none', 'the recovery request closes tools');
});

test('FUSE-1: a recovery pass stays recovery after a corrective request: a later tool call is counted by the recovery fuse, not refused as a synthesis violation', async () => {
  h.server.enqueue(
    ...tripsFuse,
    { text: 'No plan yet.' },
    { toolCalls: [{ id: 'call_w5', ...write }] },
    { text: planText(VALID_PLAN) },
  );
  const { session, events } = await h.start('plan', h.deps(fuseCapTwo));
  assert.deepEqual(await session.submit('Just edit the file'), { kind: 'ran', status: 'awaiting_approval' });
  // Request 4 (recovery) had no plan: one corrective request; request 5 calls a tool in it.
  const blocked = of(events, 'tool.blocked').at(-1);
  assert.equal(blocked?.callId, 'call_w5');
  assert.equal(blocked?.policy, 'fuse', 'the recovery fuse counts the call');
  assert.deepEqual(
    of(events, 'directive').map((d) => d.kind),
    ['recovery', 'synthesis'],
    'no second corrective request for the tool call',
  );
  assert.equal(h.body(5).tool_choice, 'none');
});

test('SYN-1: a tool call during a synthesis pass is refused by navigation and the pass is asked for again, still tool-free', async () => {
  h.server.enqueue(...fruitlessSearches(), { toolCalls: [read(9)] }, { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  const refused = of(events, 'tool.blocked').find((b) => b.callId === 'call_r9');
  assert.equal(refused?.policy, 'navigation');
  assert.match(refused?.reason ?? '', /^Tools are closed for this pass/);
  const again = of(events, 'directive').at(-1);
  assert.equal(again?.kind, 'synthesis');
  assert.match(again?.text ?? '', /a tool was called during a tool-free pass/);
  assert.equal(h.server.requests.length, 8);
  assert.equal(h.body(7).tool_choice, 'none');
});

test('SYN-4: a repair request during research keeps the research tools open', async () => {
  h.server.enqueue({ text: planText(INVALID_PLAN) }, { toolCalls: [read(1)] }, { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Make the greeter shout'), { kind: 'ran', status: 'awaiting_approval' });
  const repair = of(events, 'directive')[0];
  assert.equal(repair?.kind, 'repair');
  assert.equal(repair?.toolsClosed, false);
  assert.equal(h.body(1).tool_choice, 'auto', 'the repair request offers tools');
  assert.equal(of(events, 'tool.result')[0]?.callId, 'call_r1', 'and a tool call in it runs');
});

test('SYN-3: "Retry from retained evidence" starts a tool-free synthesis turn: its request has tool_choice none', async () => {
  // Synthesis without a plan until the allowance is spent: 6 research + 1 synthesis + 2 corrective requests.
  h.server.enqueue(
    ...fruitlessSearches(),
    { text: '' },
    { text: 'Still thinking.' },
    { text: 'No plan yet.' },
    { text: planText(VALID_PLAN) },
  );
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_input' });
  const reason = 'Planning could not produce a valid plan within its recovery allowance.';
  assert.equal(of(events, 'planning.awaiting_input').at(-1)?.reason, reason);
  assert.equal(of(events, 'turn.completed').at(-1)?.reason, reason);
  const asked = of(events, 'interview.requested').at(-1)!;
  const retry = await session.answer(asked.interviewId, [
    { questionId: asked.questions[0]!.id, label: RECOVERY_CHOICES[0] },
  ]);
  assert.deepEqual(retry, { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(h.server.requests.length, 10);
  assert.equal(h.body(9).tool_choice, 'none', 'the retry does not reopen research');
});

test('NAV-5: an execution turn previews results by the execution budget: full results up to 32 KiB each, 64 KiB for the turn', async () => {
  const line = `${'x'.repeat(99)}\n`;
  for (const n of [1, 2, 3]) writeFileSync(join(h.root, `big${n}.txt`), line.repeat(250));
  h.server.enqueue(
    { toolCalls: [read(1, 'big1.txt'), read(2, 'big2.txt'), read(3, 'big3.txt')] },
    { text: 'Read them.' },
  );
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Read the big files'), { kind: 'ran', status: 'idle' });
  const [first, second, third] = of(events, 'tool.result');
  assert.ok(first && second && third);
  for (const whole of [first, second]) {
    assert.equal(whole.truncated, undefined, 'a 25 KB read is shown whole');
    assert.match(whole.content, /\[big\d\.txt: all 250 lines\]$/, whole.content.slice(-120));
  }
  const cut = /output cut at (\d+) of \d+ bytes by this turn's preview budget/.exec(third.content);
  assert.ok(cut, third.content.slice(-200));
  const shown = Buffer.byteLength(first.content) + Buffer.byteLength(second.content) + Number(cut[1]);
  assert.equal(shown, 64 * 1024, 'the three previews fill the 64 KiB execution budget exactly');
});

test("EXEC-3, NAV-6: an answered model question continues the same turn with the calls it already made: the turn's tool-call budget is not refilled", async () => {
  const question = {
    id: 'call_q',
    name: 'request_user_input',
    arguments: JSON.stringify({
      questions: [{ id: 'which', question: 'Which file?', options: [{ label: 'README' }, { label: 'greet' }] }],
    }),
  };
  h.server.enqueue({ toolCalls: [read(1), question] }, { toolCalls: [read(2, 'src/greet.js')] }, { text: 'Done.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, toolCallsPerTurn: 2 } }));
  assert.deepEqual(await session.submit('Read something'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1)!;
  await session.answer(asked.interviewId, [{ questionId: 'which', label: 'greet' }]);
  assert.equal(of(events, 'turn.started').at(-1)?.kind, 'continuation');
  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [{ kind: 'tool_calls', used: 2, max: 2 }],
  );
  assert.equal(of(events, 'tool.blocked').at(-1)?.callId, 'call_r2');
});
