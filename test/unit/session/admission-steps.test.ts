/**
 * The admission steps of one tool call (src/core/session/turn/admission.ts) as a caller sees them:
 * which calls are refused, with which reason and policy, which refusals the blocked-call fuse
 * counts, and what the turn's and the session's tool-call budgets charge.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMIT_GRANT } from '../../../src/core/session/runloop';
import type { TurnSettings } from '../../../src/core/session/turn-settings';
import { LIMITS, of, read, settingsWith, useHarness } from './harness';

const h = useHarness();

const ask = (n: number) => ({
  id: `call_q${n}`,
  name: 'request_user_input',
  arguments: JSON.stringify({
    questions: [{ id: `q${n}`, question: `Question ${n}?`, options: [{ label: 'Yes' }, { label: 'No' }] }],
  }),
});
const unknown = (n: number) => ({ id: `call_u${n}`, name: 'no_such_tool', arguments: '{}' });
const blockedOf = (events: Parameters<typeof of>[0]) =>
  of(events, 'tool.blocked').map((b) => [b.callId, b.policy, b.reason]);

const ONE_AT_A_TIME = 'Ask one interview at a time; this question was not shown.';

test('INT-1, FUSE-1: further questions in a batch are refused as interview (not counted by the fuse) and the other calls still run', async () => {
  // Cap 2: a build turn's fuse trips past 4 blocked calls in all; these are 5 refusals.
  h.server.enqueue({ toolCalls: [ask(1), ask(2), ask(3), ask(4), ask(5), ask(6), read(1)] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 2 } }));
  const result = await session.submit('Ask me things');

  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(blockedOf(events), [
    ['call_q2', 'interview', ONE_AT_A_TIME],
    ['call_q3', 'interview', ONE_AT_A_TIME],
    ['call_q4', 'interview', ONE_AT_A_TIME],
    ['call_q5', 'interview', ONE_AT_A_TIME],
    ['call_q6', 'interview', ONE_AT_A_TIME],
  ]);
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok]),
    [['call_r1', true]],
    'the read after the questions runs: five interview refusals do not trip a fuse of 2',
  );
  assert.deepEqual(
    of(events, 'interview.requested').map((i) => [i.interviewId, i.source]),
    [['call_q1', 'model']],
  );
  assert.equal(of(events, 'directive').length, 0);
});

test('EXEC-3, INT-1: with a model question pending, the call over the session limit fails closed as a budget refusal instead of a second prompt', async () => {
  h.server.enqueue({ toolCalls: [ask(1), read(1), read(2, 'src/greet.js')] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  const result = await session.submit('Ask, then read');

  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_input' });
  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [{ kind: 'session_calls', used: 2, max: 2 }],
  );
  assert.deepEqual(blockedOf(events), [['call_r2', 'budget', 'The session tool-call limit (2) is reached.']]);
  assert.equal(of(events, 'turn.suspended').length, 0);
  assert.deepEqual(
    of(events, 'interview.requested').map((i) => [i.interviewId, i.source]),
    [['call_q1', 'model']],
  );
});

test('EXEC-3: a session tool-call limit of 0 is no limit', async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] }, { text: 'Done.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 0 } }));
  const result = await session.submit('Read three files');

  assert.deepEqual(result, { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3'],
  );
  assert.equal(of(events, 'turn.suspended').length, 0);
});

test('EXEC-3: the limit prompt offers the configured session limit as the grant, or the default once the setting is gone', async () => {
  let settings: TurnSettings = settingsWith({ ...LIMITS, sessionToolCalls: 1 });
  h.server.enqueue(
    { toolCalls: [read(1), read(2, 'src/greet.js')] },
    { text: 'Both read.' },
    { toolCalls: [read(3, 'package.json')] },
  );
  const { session, events } = await h.start('build', h.deps({ turnSettings: () => settings }));
  await session.submit('Read two files');
  const first = of(events, 'interview.requested').at(-1)!;
  assert.match(first.questions[0]?.question ?? '', /Grant 1 more\?$/);
  await session.answer(first.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]);

  // The grant raised the session's limit to 2; without the setting the next grant is the default (500).
  settings = settingsWith({ ...LIMITS });
  const result = await session.submit('Read one more');
  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_input' });
  const second = of(events, 'interview.requested').at(-1)!;
  assert.notEqual(second.interviewId, first.interviewId);
  assert.match(second.questions[0]?.question ?? '', /\(2 tool calls\)\. Grant 500 more\?$/);
});

test('EXEC-3: the call that paused on the session limit is not charged to the turn budget again when granted', async () => {
  h.server.enqueue(
    { toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json'), read(4, 'src/index.js')] },
    { text: 'All read.' },
  );
  const { session, events } = await h.start(
    'build',
    h.deps({ limits: { ...LIMITS, sessionToolCalls: 2, toolCallsPerTurn: 4 } }),
  );
  await session.submit('Read four files');
  const asked = of(events, 'interview.requested').at(-1)!;
  const result = await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]);

  assert.deepEqual(result, { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3', 'call_r4'],
    'four calls fit a turn budget of four',
  );
  assert.equal(of(events, 'budget_exhausted').length, 0);
});

/** Blocked and allowed calls alternating: the fuse's turn total trips, never its consecutive cap. */
function scattered(pairs: number) {
  const calls = [];
  for (let n = 1; n <= pairs; n++) calls.push(unknown(n), read(n));
  return calls;
}

test('FUSE-1: in build, a cap of 2 lets 4 scattered blocked calls pass; the 5th trips the fuse into a recovery pass', async () => {
  h.server.enqueue({ toolCalls: scattered(5) }, { text: 'Recovered.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 2 } }));
  const result = await session.submit('Try things');

  assert.deepEqual(result, { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3', 'call_r4'],
  );
  assert.deepEqual(of(events, 'tool.blocked').at(-1)?.callId, 'call_r5');
  assert.deepEqual(
    of(events, 'directive').map((d) => [d.kind, d.toolsClosed]),
    [['recovery', true]],
  );
  assert.match(
    of(events, 'directive')[0]?.text ?? '',
    /Blocked tool-call limit reached: more than 4 total blocked calls this turn\./,
  );
});

test('FUSE-1: while planning, a cap of 2 lets 8 scattered blocked calls pass; the 9th trips the fuse', async () => {
  h.server.enqueue({ toolCalls: scattered(9) }, { text: 'Recovered.' });
  const { session, events } = await h.start('plan', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 2 } }));
  await session.submit('Look around');

  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3', 'call_r4', 'call_r5', 'call_r6', 'call_r7', 'call_r8'],
  );
  assert.equal(of(events, 'tool.blocked').at(-1)?.callId, 'call_r9');
  assert.match(
    of(events, 'directive')[0]?.text ?? '',
    /Blocked tool-call limit reached: more than 8 total blocked calls this turn\./,
  );
});

test('NAV-5: once the build preview budget is spent, a further read is refused as budget with the reason', async () => {
  writeFileSync(join(h.root, 'big.txt'), `${'x'.repeat(99)}\n`.repeat(250));
  const big = (n: number) => read(n, 'big.txt');
  h.server.enqueue({ toolCalls: [big(1), big(2), big(3), read(4)] }, { text: 'Done.' });
  const { session, events } = await h.start('build');
  await session.submit('Read the big file');

  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3'],
  );
  assert.deepEqual(blockedOf(events), [
    [
      'call_r4',
      'budget',
      'The tool preview budget for this turn is used up: further inspection cannot add evidence. Work from what was gathered.',
    ],
  ]);
});

test('NAV-1, SYN-1: a planning call past the turn tool-call budget (floor 120) is refused as budget and schedules the synthesis pass with that reason', async () => {
  // Distinct files, so that navigation sees no repeated inspection and schedules nothing itself.
  for (let n = 1; n <= 121; n++) writeFileSync(join(h.root, `note-${n}.txt`), `note ${n}\n`);
  const calls = Array.from({ length: 121 }, (_, i) => read(i + 1, `note-${i + 1}.txt`));
  h.server.enqueue({ toolCalls: calls }, { text: 'No plan.' });
  const { session, events } = await h.start('plan', h.deps({ limits: { ...LIMITS, toolCallsPerTurn: 2 } }));
  await session.submit('Look around');

  assert.deepEqual(blockedOf(events), [
    ['call_r121', 'budget', 'Tool-call budget for this turn is used up (120/120).'],
  ]);
  const synthesis = of(events, 'directive').filter((d) => d.kind === 'synthesis');
  assert.match(synthesis[0]?.text ?? '', /\(the tool-call budget is used up\)/);
});
