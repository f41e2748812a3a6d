/**
 * EXEC-3 / NAV-6 / EVT-1: the session tool-call limit and the tool-loop limit pause the turn on a
 * runtime prompt; answering continues the SAME turn (also after a resume from the log).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMIT_DENY, LIMIT_GRANT } from '../../../src/core/session/runloop';
import { Session } from '../../../src/core/session/session';
import { assertBatchesComplete, LIMITS, of, planText, read, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** Build agent, session limit 2: a batch of three reads stops at the third. */
async function hitSessionLimit() {
  h.server.enqueue(
    { text: 'Reading.', toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] },
    { text: 'All read.' },
  );
  const started = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  const result = await started.session.submit('Read three files');
  return { ...started, result };
}

test('EXEC-3: the session tool-call limit pauses the turn on a runtime prompt naming the agent; nothing else runs', async () => {
  const { session, events, result } = await hitSessionLimit();
  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1);
  assert.equal(asked?.source, 'runtime');
  assert.match(
    asked?.questions[0]?.question ?? '',
    /The build agent reached the session tool-call limit \(2 tool calls\)/,
  );
  assert.deepEqual(
    asked?.questions[0]?.options.map((o) => o.label),
    [LIMIT_GRANT, LIMIT_DENY],
  );
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2'],
  );
  const paused = of(events, 'turn.suspended')[0];
  assert.deepEqual(
    paused?.calls.map((c) => c.callId),
    ['call_r3'],
  );
  assert.equal(paused?.reason, 'session_calls');
  assert.equal(of(events, 'budget_exhausted').length, 0, 'a prompt is not yet a failed-closed budget');
  assert.equal(h.server.requests.length, 1);
  assert.equal(session.state.suspended?.interviewId, asked?.interviewId);
});

test('EXEC-3, EVT-1: a grant retries the pending call in the same turn, emits session_tool_limit_increased and keeps the batch intact', async () => {
  const { session, events } = await hitSessionLimit();
  const asked = of(events, 'interview.requested').at(-1)!;
  const turn = session.state.turn;
  const r = await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]);
  assert.deepEqual(r, { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'session_tool_limit_increased').map(({ previous, limit }) => ({ previous, limit })),
    [{ previous: 2, limit: 4 }],
  );
  assert.deepEqual(
    of(events, 'tool.result').map((x) => x.callId),
    ['call_r1', 'call_r2', 'call_r3'],
  );
  assert.equal(
    of(events, 'tool.call').filter((c) => c.callId === 'call_r3').length,
    1,
    'the retried call is not logged twice',
  );
  const cont = of(events, 'turn.started').at(-1);
  assert.equal(cont?.kind, 'continuation');
  assert.equal(cont?.turn, turn, 'the same turn continues');
  // The next request carries all three results attached to their batch (EXEC-2).
  assert.deepEqual(assertBatchesComplete(h.body(1)), ['call_r1', 'call_r2', 'call_r3']);
  assert.match(String(h.body(1).messages.find((m) => m.tool_call_id === 'call_r3')?.content), /"name"/);
  // The grant outlives the turn (the session fuse is state, not turn-local).
  assert.equal(session.state.sessionCallLimit, 4);
  assert.equal(session.state.sessionCalls, 3);
});

test('EXEC-3, NAV-6: a denial stays a denial: the pending call gets a denied result, budget_exhausted is recorded, the turn ends blocked', async () => {
  const { session, events } = await hitSessionLimit();
  const asked = of(events, 'interview.requested').at(-1)!;
  const r = await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_DENY }]);
  assert.deepEqual(r, { kind: 'ran', status: 'blocked' });
  const denied = of(events, 'tool.blocked');
  assert.deepEqual(
    denied.map((d) => d.callId),
    ['call_r3'],
  );
  assert.match(denied[0]!.reason, /^Denied: the session tool-call limit \(2\)/);
  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [{ kind: 'session_calls', used: 2, max: 2 }],
  );
  assert.equal(of(events, 'session_tool_limit_increased').length, 0);
  assert.equal(h.server.requests.length, 1, 'no model request after a denial');
  // The history stays well-formed for the next turn: every call has its result.
  h.server.enqueue({ text: 'Okay.' });
  await session.submit('Summarise what you saw');
  assert.deepEqual(assertBatchesComplete(h.body(1)), ['call_r1', 'call_r2', 'call_r3']);
});

test('EXEC-3: an answer without a choice leaves the limit prompt open', async () => {
  const { session, events } = await hitSessionLimit();
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.equal((await session.answer(asked.interviewId, [])).kind, 'notice');
  assert.equal(
    (await session.answer(asked.interviewId, [{ questionId: 'session_calls', note: 'hmm' }])).kind,
    'notice',
  );
  assert.equal(session.state.suspended?.interviewId, asked.interviewId);
  assert.equal(of(events, 'budget_exhausted').length, 0);
});

test('EXEC-3: dismissing the limit prompt is a denial', async () => {
  const { session, events } = await hitSessionLimit();
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(await session.dismissInterview(asked.interviewId), { kind: 'ran', status: 'blocked' });
  assert.equal(of(events, 'budget_exhausted')[0]?.kind, 'session_calls');
});

test('EXEC-3: mode switches and messages while the limit prompt is open are not answers and not denials', async () => {
  const { session, events } = await hitSessionLimit();
  assert.equal((await session.submit('/mode auto')).kind, 'notice');
  assert.equal((await session.submit('/plan')).kind, 'notice');
  assert.equal((await session.submit('keep going')).kind, 'notice');
  assert.equal(session.state.agent, 'build');
  assert.ok(session.state.suspended, 'the prompt is still open');
  assert.equal(of(events, 'budget_exhausted').length, 0);
});

test('EXEC-3, ADD-4: a turn paused on the limit prompt resumes from the log alone and continues the same turn', async () => {
  const { session } = await hitSessionLimit();
  const d = h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } });
  const resumed = await Session.resume(d, session.id);
  const events = h.watch(resumed);
  assert.deepEqual(resumed.state.suspended, session.state.suspended);
  // The paused call is logged, so it already counts; it runs on a grant and is uncounted on a denial.
  assert.equal(resumed.state.sessionCalls, 3);
  assert.equal(resumed.state.sessionCalls, session.state.sessionCalls);
  const pending = resumed.state.pendingInterview!;
  assert.deepEqual(await resumed.answer(pending.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]), {
    kind: 'ran',
    status: 'idle',
  });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2', 'call_r3'],
  );
  assert.deepEqual(assertBatchesComplete(h.body(1)), ['call_r1', 'call_r2', 'call_r3']);
  // A second resume sees the grant (the session fuse survives).
  const again = await Session.resume(d, session.id);
  assert.equal(again.state.sessionCallLimit, 4);
});

test('EXEC-3: the rest of a paused batch runs after the grant, and a later call in it may prompt again', async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2), read(3), read(4)] }, { text: 'Done.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 1 } }));
  await session.submit('Read four times');
  let asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(
    of(events, 'turn.suspended')
      .at(-1)
      ?.calls.map((c) => c.callId),
    ['call_r2', 'call_r3', 'call_r4'],
  );
  await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]); // limit 2: r2 runs, r3 pauses
  asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(
    of(events, 'turn.suspended')
      .at(-1)
      ?.calls.map((c) => c.callId),
    ['call_r3', 'call_r4'],
  );
  assert.deepEqual(await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_DENY }]), {
    kind: 'ran',
    status: 'blocked',
  });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => r.callId),
    ['call_r1', 'call_r2'],
  );
  assert.deepEqual(
    of(events, 'tool.blocked').map((r) => r.callId),
    ['call_r3', 'call_r4'],
  );
  assert.deepEqual(
    of(events, 'tool.call').map((c) => c.callId),
    ['call_r1', 'call_r2', 'call_r3', 'call_r4'],
  );
});

/** A response that keeps the loop going. */
const more = (n: number) => ({ toolCalls: [read(n)] });

test('EXEC-3, EVT-1: the first tool-loop hit prompts; after one grant later hits auto-grant without asking', async () => {
  // Build agent, user turns (no implementation allowance): 2 loops per turn.
  const d = h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } });
  h.server.enqueue(more(1), more(2), more(3), { text: 'First done.' });
  const { session, events } = await h.start('build', d);
  assert.deepEqual(await session.submit('Loop a bit'), { kind: 'ran', status: 'awaiting_input' });
  assert.equal(h.server.requests.length, 2);
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.match(asked.questions[0]!.question, /tool-loop limit for this turn \(2 model round-trips\)\. Grant 50 more\?/);
  assert.equal(of(events, 'turn.suspended').at(-1)?.reason, 'tool_loop');
  assert.deepEqual(await session.answer(asked.interviewId, [{ questionId: 'tool_loop', label: LIMIT_GRANT }]), {
    kind: 'ran',
    status: 'idle',
  });
  assert.deepEqual(
    of(events, 'tool_loop_limit_increased').map(({ previous, limit, automatic }) => ({ previous, limit, automatic })),
    [{ previous: 2, limit: 52, automatic: false }],
  );
  assert.equal(h.server.requests.length, 4, 'the same turn went on with tools enabled');
  assert.notEqual(h.body(2).tool_choice, 'none', 'a loop grant does not enter tool-free recovery');

  // Next turn: the limit is 2 again, and the hit is granted without a prompt.
  h.server.enqueue(more(4), more(5), { text: 'Second done.' });
  const prompts = of(events, 'interview.requested').length;
  assert.deepEqual(await session.submit('Loop again'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'interview.requested').length, prompts, 'no second prompt');
  assert.deepEqual(of(events, 'tool_loop_limit_increased').at(-1), {
    ...of(events, 'tool_loop_limit_increased').at(-1)!,
    previous: 2,
    limit: 52,
    automatic: true,
  });
});

test('EXEC-3: full-auto grants the tool-loop limit without asking, even the first time', async () => {
  h.server.enqueue(more(1), more(2), { text: 'Done.' });
  const { session, events } = await h.start('auto', h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } }));
  assert.deepEqual(await session.submit('Loop'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'interview.requested').length, 0);
  assert.equal(of(events, 'tool_loop_limit_increased')[0]?.automatic, true);
});

test('EXEC-3, NAV-6: denying the tool-loop prompt fails closed with budget_exhausted; a denial does not latch auto-grants', async () => {
  h.server.enqueue(more(1), more(2));
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } }));
  await session.submit('Loop');
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(await session.answer(asked.interviewId, [{ questionId: 'tool_loop', label: LIMIT_DENY }]), {
    kind: 'ran',
    status: 'blocked',
  });
  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [{ kind: 'tool_loop', used: 2, max: 2 }],
  );
  assert.equal(session.state.loopGrantLatched, false);
  h.server.enqueue(more(3), more(4));
  assert.deepEqual(await session.submit('Loop again'), { kind: 'ran', status: 'awaiting_input' }, 'the prompt returns');
});

test('EXEC-3, EXEC-1: the hard cap still applies to automatic grants (auto, 100 → 120, then fails closed)', async () => {
  const turns = Array.from({ length: 125 }, (_, i) => more(i));
  h.server.enqueue(...turns);
  const { session, events } = await h.start('auto', h.deps({ limits: { ...LIMITS, loopsPerTurn: 100 } }));
  const r = await session.submit('Loop forever');
  assert.deepEqual(r, { kind: 'ran', status: 'blocked' });
  assert.equal(h.server.requests.length, 120);
  assert.deepEqual(
    of(events, 'tool_loop_limit_increased').map((e) => e.limit),
    [120],
  );
  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [{ kind: 'tool_loop', used: 120, max: 120 }],
  );
  assert.match(of(events, 'turn.completed').at(-1)?.reason ?? '', /hard cap/);
});

test('EXEC-3: approving a plan while a limit prompt is open is refused (the paused calls would lose their results)', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, { toolCalls: [read(1), read(2)] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 1 } }));
  assert.deepEqual(await session.submit('Add the flag'), { kind: 'ran', status: 'awaiting_approval' });
  assert.deepEqual(await session.submit('Look around first'), { kind: 'ran', status: 'awaiting_input' });
  const result = await session.approve('execute');
  assert.deepEqual(result, {
    ok: false,
    step: 'suspended',
    reason: 'Answer the limit question first; the plan was not approved.',
  });
  assert.equal(of(events, 'plan.approval.resolved').length, 0);
  assert.ok(session.state.pendingApproval && session.state.suspended);
});

test('EXEC-3, NAV-6: in planning the tool-loop limit is not a prompt: research stops and one synthesis pass writes the plan', async () => {
  // 60 distinct, productive searches (NAV-1 floor), then the tool-free synthesis answer.
  const searches = Array.from({ length: 60 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `greet|marker${i}` }) }],
  }));
  h.server.enqueue(...searches, { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan', h.deps({ limits: { ...LIMITS, loopsPerTurn: 10 } }));
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(h.server.requests.length, 61);
  assert.deepEqual(
    of(events, 'budget_exhausted').map(({ kind, used, max }) => ({ kind, used, max })),
    [{ kind: 'tool_loop', used: 60, max: 60 }],
  );
  assert.equal(of(events, 'interview.requested').length, 0);
  assert.equal(of(events, 'tool_loop_limit_increased').length, 0);
  assert.equal(h.body(60).tool_choice, 'none');
  assert.match(of(events, 'directive').at(-1)?.text ?? '', /tool-loop limit \(60\)/);
});

test('EXEC-3, EXEC-2, ADD-1: a granted batch stays one tool_use/tool_result exchange on the Anthropic wire', async () => {
  h.server.enqueue({ text: 'Reading.', toolCalls: [read(1), read(2, 'src/greet.js')] }, { text: 'Done.' });
  const { session, events } = await h.start(
    'build',
    h.deps({ limits: { ...LIMITS, sessionToolCalls: 1 } }, 'anthropic'),
  );
  await session.submit('Read two files');
  const asked = of(events, 'interview.requested').at(-1)!;
  assert.deepEqual(await session.answer(asked.interviewId, [{ questionId: 'session_calls', label: LIMIT_GRANT }]), {
    kind: 'ran',
    status: 'idle',
  });
  const second = h.server.requests[1]?.body as {
    messages: { role: string; content: { type: string; id?: string; tool_use_id?: string }[] | string }[];
  };
  const uses = second.messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((c) => c.type === 'tool_use');
  const results = second.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((c) => c.type === 'tool_result');
  assert.equal(uses.length, 2);
  assert.deepEqual(
    results.map((r) => r.tool_use_id),
    uses.map((u) => u.id),
  );
  const at = second.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_use'));
  const next = second.messages[at + 1]?.content;
  assert.deepEqual(
    Array.isArray(next) ? next.filter((c) => c.type === 'tool_result').length : 0,
    2,
    'both results in the message right after the batch',
  );
});
