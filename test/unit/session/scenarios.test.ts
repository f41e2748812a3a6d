/**
 * Planning scenarios end to end through the core API: the real OpenAI / Anthropic SDKs talk to
 * the scripted model server, tools run over real temp workspaces with the Node ports, and every
 * assertion is on what the server received, the events, and the files on disk.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session, type SessionDeps } from '../../../src/core/session/session';
import { readSessionLog } from '../../../src/core/session/log';
import { nodeFileSystem } from '../../../src/node/fs';
import { INVALID_PLAN, of, planText, settingsWith, types, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const deps = (kind: 'openai' | 'anthropic' = 'openai', overrides: Partial<SessionDeps> = {}) => h.deps(overrides, kind);
const start = (d = deps()) => h.start('plan', d);

/** Six research turns whose grep finds nothing: low-signal reads that schedule the synthesis pass (NAV-2, SYN-1). */
const fruitlessSearches = () =>
  Array.from({ length: 6 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `nothing-here-${i + 1}` }) }],
  }));

test('MODE-1, RO-1, PLAN-1, STORE-1, EVT-1: research → plan → persisted → awaiting approval (OpenAI wire)', async () => {
  h.server.enqueue(
    { text: 'Let me look at the greeter.', toolCalls: [{ name: 'read_file', arguments: '{"path":"src/greet.js"}' }] },
    {
      text: [
        'Found it. ',
        '<propo',
        'sed_plan>\n',
        VALID_PLAN.slice(0, 40),
        VALID_PLAN.slice(40),
        '\n</proposed_plan>',
      ],
    },
  );
  const { session, events } = await start();
  const result = await session.submit('Add a --shout option to the greeter');
  assert.deepEqual(result, { kind: 'ran', status: 'awaiting_approval' });

  // The first request offered only the plan agent's tools.
  const offered = h
    .body(0)
    .tools?.map((t) => t.function.name)
    .sort();
  assert.deepEqual(offered, [
    'find_files',
    'grep',
    'list_dir',
    'read_file',
    'request_user_input',
    'run_command',
    'task_tracker',
  ]);
  // The tool result reached the second request, attached to its call (EXEC-2).
  const second = h.body(1).messages;
  const assistant = second.find((m) => m.role === 'assistant' && m.tool_calls);
  const toolMsg = second.find((m) => m.role === 'tool');
  assert.ok(assistant && toolMsg, 'the batch and its result are in the next request');
  assert.match(String(toolMsg.content), /Hello, \$\{name\}/);

  // The transcript never showed the plan markup (PLAN-1), and the plan is on disk.
  const visible = of(events, 'message.delta')
    .map((e) => e.text)
    .join('');
  assert.ok(!visible.includes('proposed_plan') && !visible.includes('## Implementation Steps'), visible);
  const persisted = of(events, 'plan.persisted')[0];
  assert.equal(persisted?.planFile, '.vtcode/plans/add-a-shout-flag-to-the-greeter.md');
  assert.equal(readFileSync(join(h.root, persisted.planFile), 'utf8'), `${VALID_PLAN}\n`);
  const order = types(events).filter((t) =>
    ['plan.completed', 'plan.persisted', 'plan.approval.requested', 'turn.completed'].includes(t),
  );
  assert.deepEqual(order, ['plan.completed', 'plan.persisted', 'plan.approval.requested', 'turn.completed']);
  assert.equal(of(events, 'turn.completed').at(-1)?.status, 'awaiting_approval');
  assert.deepEqual(session.state.pendingApproval, { planFile: persisted.planFile });
});

test('ADD-1: the same planning run works through the Anthropic Messages wire', async () => {
  h.server.enqueue(
    { text: 'Checking.', toolCalls: [{ name: 'grep', arguments: ['{"pattern":', '"greet"}'] }] },
    { text: planText(VALID_PLAN) },
  );
  const { session } = await start(deps('anthropic'));
  assert.deepEqual(await session.submit('Add a --shout option'), { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(h.server.requests[0]?.api, 'anthropic');
  const second = h.server.requests[1]?.body as {
    messages: { role: string; content: { type: string; tool_use_id?: string }[] | string }[];
  };
  const result = second.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((c) => c.type === 'tool_result');
  assert.ok(result?.tool_use_id, 'the grep result is attached to its tool_use id');
});

test('RO-1, RO-4, FUSE-1: a mutating call, the plan file included, is blocked before it runs; repeated blocks trip the fuse and end the turn blocked', async () => {
  const write = { name: 'write_file', arguments: '{"path":"src/greet.js","content":"pwned"}' };
  const writePlan = {
    name: 'write_file',
    arguments: JSON.stringify({ path: '.vtcode/plans/by-the-agent.md', content: planText(VALID_PLAN) }),
  };
  const d = deps('openai', {
    turnSettings: () =>
      settingsWith({ maxConsecutiveBlocked: 2, toolCallsPerTurn: 120, loopsPerTurn: 60, maxOutputTokens: 4_096 }),
  });
  // cap 2 in plan: the 3rd consecutive blocked call trips → one recovery pass (tools closed); in recovery the cap is 1×.
  h.server.enqueue(
    { toolCalls: [writePlan] },
    { toolCalls: [write] },
    { toolCalls: [write, write] },
    { text: 'I cannot write files in plan mode.', toolCalls: [write] },
    { toolCalls: [write] },
    { toolCalls: [write] },
  );
  const { session, events } = await start(d);
  const result = await session.submit('Just edit the file');
  assert.equal(readFileSync(join(h.root, 'src/greet.js'), 'utf8').includes('pwned'), false, 'nothing was written');
  assert.deepEqual(h.plansOnDisk(), [], 'RO-4: the agent did not write the plan file');
  const blocked = of(events, 'tool.blocked');
  assert.ok(blocked.length >= 3);
  assert.match(blocked[0]!.reason, /^Mutation blocked: `write_file` on the plan file\. The runtime persists the plan/);
  assert.match(blocked[1]!.reason, /^Mutation blocked/);
  // The model was told "Mutation blocked" as the tool result.
  const toolMsg = h.body(1).messages.find((m) => m.role === 'tool');
  assert.match(String(toolMsg?.content), /Mutation blocked/);
  assert.equal(result.kind, 'ran');
  assert.equal(result.kind === 'ran' && result.status, 'blocked');
  const end = of(events, 'turn.completed').at(-1);
  assert.match(end?.reason ?? '', /Plan mode is read-only by design/);
  assert.match(end?.reason ?? '', /vtplan resume/, 'FUSE-2: resume is advertised after a verified checkpoint');
  assert.equal(session.state.agent, 'plan', 'FUSE-3: the mode never switches by itself');
});

test('SYN-4, PLAN-8, STORE-1: an invalid plan is repaired twice, then the turn ends blocked with the reasons and nothing on disk', async () => {
  h.server.enqueue(
    { text: planText(INVALID_PLAN) },
    { text: planText(INVALID_PLAN) },
    { text: planText(INVALID_PLAN) },
  );
  const { session, events } = await start();
  const result = await session.submit('Make the greeter shout');
  assert.deepEqual(result, { kind: 'ran', status: 'blocked' });
  const rejected = of(events, 'plan.rejected');
  assert.deepEqual(
    rejected.map((r) => r.attempt),
    [0, 1, 2],
  );
  assert.equal(rejected.at(-1)?.final, true);
  assert.ok(rejected[0]!.reasons.some((r) => r.code === 'step_vague_verify'));
  // The repair request names the defects of the retained draft.
  const repair = h.body(1).messages.at(-1);
  assert.equal(repair?.role, 'user');
  assert.match(String(repair?.content), /run checks/);
  assert.match(String(repair?.content), /-> files:/);
  assert.equal(h.server.requests.length, 3, 'exactly two repair requests');
  assert.deepEqual(h.plansOnDisk(), []);
  assert.equal(of(events, 'plan.approval.requested').length, 0, 'nothing claims readiness');
  assert.match(of(events, 'turn.completed').at(-1)?.reason ?? '', /still invalid after 2 repairs/);
});

test('INT-1: an interview pauses the turn; the answer reaches the next request with the option label verbatim', async () => {
  const question = {
    questions: [
      {
        id: 'marks',
        question: 'Should shouting also add exclamation marks?',
        options: [{ label: 'Upper-case only', recommended: true }, { label: 'Upper-case and "!!!"' }],
      },
    ],
  };
  h.server.enqueue(
    { toolCalls: [{ id: 'call_q', name: 'request_user_input', arguments: JSON.stringify(question) }] },
    { text: planText(VALID_PLAN) },
  );
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Add shouting'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested')[0];
  assert.ok(asked);
  assert.equal(asked.source, 'model');
  assert.equal(of(events, 'plan.approval.requested').length, 0, 'INT-2: no gate while a question is open');
  const q = asked.questions[0]!;
  assert.deepEqual(
    await session.answer(asked.interviewId, [
      { questionId: q.id, label: 'Upper-case and "!!!"', note: 'keep it short' },
    ]),
    { kind: 'ran', status: 'awaiting_approval' },
  );
  const answer = h.body(1).messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_q');
  assert.match(String(answer?.content), /selected "Upper-case and "!!!""/);
  assert.match(String(answer?.content), /keep it short/);
});

test('INT-1: an answer that is not an offered label is refused and the question stays open', async () => {
  h.server.enqueue({
    toolCalls: [
      {
        name: 'request_user_input',
        arguments: '{"questions":[{"question":"Which?","options":[{"label":"A"},{"label":"B"}]}]}',
      },
    ],
  });
  const { session, events } = await start();
  await session.submit('x');
  const asked = of(events, 'interview.requested')[0]!;
  const r = await session.answer(asked.interviewId, [{ questionId: asked.questions[0]!.id, label: 'C' }]);
  assert.equal(r.kind, 'notice');
  assert.ok(session.state.pendingInterview);
  assert.equal(h.server.requests.length, 1);
});

test('NAV-2, SYN-1: six low-signal reads schedule one synthesis pass with tools closed', async () => {
  h.server.enqueue(...fruitlessSearches(), { text: planText(VALID_PLAN) });
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(h.server.requests.length, 7);
  for (let i = 0; i < 6; i++) assert.notEqual(h.body(i).tool_choice, 'none', `request ${i} had tools open`);
  assert.equal(h.body(6).tool_choice, 'none', 'the synthesis request closes tools');
  const directive = of(events, 'directive')[0];
  assert.equal(directive?.kind, 'synthesis');
  assert.equal(directive?.toolsClosed, true);
});

test('SYN-1: a 500 during the synthesis pass is retried and the plan still arrives', async () => {
  h.server.enqueue(...fruitlessSearches(), { status: 500, errorMessage: 'overloaded' }, { text: planText(VALID_PLAN) });
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(of(events, 'provider.retry').length, 1);
  assert.equal(h.server.requests.length, 8);
});

/** Synthesis answers without a plan (then a plan the runtime never asks for): what spends the synthesis allowance (SYN-3). */
const planlessAnswers = () => [
  { text: '' },
  { text: 'Still thinking.' },
  { text: 'No plan yet.' },
  { text: planText(VALID_PLAN) },
];

test('SYN-1: a transport retry during synthesis spends the allowance: one corrective request fewer before the runtime asks', async () => {
  // Without the retry this script gets 2 corrective requests (see the next test); with it, 1.
  h.server.enqueue(...fruitlessSearches(), { status: 500, errorMessage: 'overloaded' }, ...planlessAnswers());
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_input' });
  assert.equal(of(events, 'provider.retry').length, 1);
  assert.equal(h.server.requests.length, 9, '6 research + the synthesis request and its retry + 1 corrective request');
  assert.equal(of(events, 'interview.requested').at(-1)?.source, 'runtime', 'the spent allowance asks how to continue');
});

test('SYN-1, SYN-3: when the synthesis allowance is spent the runtime asks how to continue, without a model call', async () => {
  h.server.enqueue(...fruitlessSearches(), ...planlessAnswers());
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_input' });
  assert.equal(h.server.requests.length, 9, '6 research + 1 synthesis + 2 corrective requests');
  const asked = of(events, 'interview.requested').at(-1);
  assert.equal(asked?.source, 'runtime');
  assert.deepEqual(
    asked?.questions[0]?.options.map((o) => o.label),
    ['Retry from retained evidence', 'Add clarification', 'Choose another model'],
  );
  assert.ok(of(events, 'planning.awaiting_input').length === 1);
  // Dismissal leaves planning idle and resumable; nothing is submitted automatically.
  await session.dismissInterview(asked!.interviewId);
  assert.equal(session.state.status, 'idle');
  assert.equal(h.server.requests.length, 9);
});

test('PLAN-7: a truncated plan gets one condense retry', async () => {
  h.server.enqueue(
    { text: `<proposed_plan>\n${VALID_PLAN.slice(0, 200)}`, finishReason: 'length' },
    { text: planText(VALID_PLAN) },
  );
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  assert.equal(of(events, 'directive')[0]?.kind, 'condense');
  assert.match(String(h.body(1).messages.at(-1)?.content), /cut off/);
  assert.equal(h.body(1).tool_choice, 'none');
});

test('EXEC-5: stopping mid-stream cancels the turn (state-based), and nothing is persisted', async () => {
  h.server.enqueue({ text: ['Working on it', ' slowly'], chunkDelayMs: 50, hang: true });
  const { session, events } = await start();
  const pending = session.submit('Plan it');
  while (!of(events, 'message.delta').length) await new Promise((r) => setTimeout(r, 10));
  session.stop();
  assert.deepEqual(await pending, { kind: 'ran', status: 'cancelled' });
  assert.deepEqual(h.plansOnDisk(), []);
});

test('EXEC-5: provider text "Interrupted by user" without a local stop is not a cancellation', async () => {
  h.server.enqueue({ status: 400, errorMessage: 'Interrupted by user' });
  const { session } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'failed' });
});

test('SYN-2: a reasoning-only response never becomes a plan', async () => {
  h.server.enqueue({ reasoning: planText(VALID_PLAN), text: '' });
  const { session, events } = await start();
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'plan.completed').length, 0);
  assert.deepEqual(h.plansOnDisk(), []);
  assert.ok(of(events, 'reasoning.delta').length > 0);
});

test('MODE-2: /plan <text> while planning starts a new request, clears the old approval and keeps the old file', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: 'Sure, what should the new plan cover?' });
  const { session, events } = await start();
  await session.submit('Plan shouting');
  const file = of(events, 'plan.persisted')[0]!.planFile;
  assert.equal((await session.submit('/plan something else entirely')).kind, 'ran');
  assert.ok(existsSync(join(h.root, file)), 'the old plan file stays on disk');
  assert.equal(session.state.pendingApproval, null);
  assert.equal(of(events, 'plan.approval.resolved').at(-1)?.choice, 'revise');
});

test('MODE-2: /plan off restores the previous execution agent; /mode switches', async () => {
  const { session, events } = await start();
  assert.deepEqual(await session.submit('/mode auto'), { kind: 'mode', agent: 'auto' });
  assert.deepEqual(await session.submit('/plan'), { kind: 'mode', agent: 'plan' });
  assert.deepEqual(await session.submit('/plan off'), { kind: 'mode', agent: 'auto' });
  assert.deepEqual(
    of(events, 'mode.changed').map((e) => e.switchPath),
    ['plan_exit', 'plan_entry', 'plan_exit'],
  );
});

test('GATE-3, MODE-7, TRK-7, EVT-1: approving runs the typed handoff and exactly one implementation turn that edits files and completes the checklist', async () => {
  h.server.enqueue(
    { text: planText(VALID_PLAN) },
    // The build turn: mark step 1 in progress, edit, complete both steps.
    { toolCalls: [{ name: 'task_tracker', arguments: '{"action":"update","index":1,"status":"in_progress"}' }] },
    {
      toolCalls: [
        {
          name: 'edit_file',
          arguments: JSON.stringify({
            path: 'src/greet.js',
            old_string: 'function greet(name) {\n  return `Hello, ${name}!`;',
            new_string:
              'function greet(name, shout = false) {\n  const text = `Hello, ${name}!`;\n  return shout ? text.toUpperCase() : text;',
          }),
        },
      ],
    },
    {
      toolCalls: [
        { name: 'task_tracker', arguments: '{"action":"update","index":1,"status":"completed"}' },
        { name: 'task_tracker', arguments: '{"action":"update","index":2,"status":"completed"}' },
      ],
    },
    { text: 'Done: greet now takes a shout flag.' },
  );
  const { session, events } = await start();
  await session.submit('Add shouting');
  const result = await session.approve('execute');
  assert.equal(result.ok, true);
  const seq = types(events).slice(types(events).indexOf('plan.approval.resolved'));
  // `handoff.phase` `done` ends the handoff (GATE-4): a current-context handoff has no other phase.
  assert.deepEqual(seq.slice(0, 5), [
    'plan.approval.resolved',
    'mode.changed',
    'tracker.updated',
    'handoff.phase',
    'turn.started',
  ]);
  assert.deepEqual(
    of(events, 'handoff.phase').map((e) => e.phase),
    ['done'],
  );
  assert.equal(of(events, 'plan.approval.resolved').length, 1);
  assert.equal(of(events, 'mode.changed').at(-1)?.to, 'build');
  assert.equal(of(events, 'turn.started').filter((t) => t.kind === 'implementation').length, 1);
  // The implementation request carried the approved plan and the checklist, with write tools.
  const implRequest = h.body(1);
  assert.match(String(implRequest.messages.at(-1)?.content), /approved the plan/);
  assert.ok(implRequest.tools?.some((t) => t.function.name === 'edit_file'));
  assert.match(readFileSync(join(h.root, 'src/greet.js'), 'utf8'), /shout = false/);
  const sidecar = readFileSync(join(h.root, '.vtcode/plans/add-a-shout-flag-to-the-greeter.tasks.md'), 'utf8');
  assert.match(sidecar, /- \[x\] Add the `shout` parameter/);
  assert.match(sidecar, /- \[x\] Cover the new parameter/);
  assert.equal(session.state.status, 'idle');
});

test('GATE-3: a plan file broken on disk is not approved; planning stays active and no write-capable turn starts', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session, events } = await start();
  await session.submit('Add shouting');
  const file = join(h.root, of(events, 'plan.persisted')[0]!.planFile);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, INVALID_PLAN);
  const result = await session.approve('execute');
  assert.equal(result.ok, false);
  assert.equal(session.state.agent, 'plan');
  assert.ok(session.state.pendingApproval, 'the plan stays ready for retry');
  assert.equal(of(events, 'plan.approval.resolved').length, 0);
  assert.equal(h.server.requests.length, 1, 'no implementation request');
  assert.match(of(events, 'notice').at(-1)?.text ?? '', /not valid any more/);
});

test('MODE-6: "lgtm" while a plan awaits approval runs the same handoff; "stay in planning" does not', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: 'Okay, what should change?' }, { text: 'Done.' });
  const { session, events } = await start();
  await session.submit('Add shouting');
  await session.submit('stay in planning, but also think about i18n');
  assert.equal(of(events, 'plan.approval.resolved').length, 0);
  await session.submit('lgtm');
  assert.equal(of(events, 'plan.approval.resolved')[0]?.choice, 'execute');
});

test('GATE-4: the fresh-context choice clears the history but keeps the plan, and reports its phases as events', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await start();
  await session.submit('Add shouting');
  await session.approve('fresh_context');
  const reset = of(events, 'context.reset')[0];
  assert.ok(reset && reset.planPreserved && reset.toolBudgetReset && reset.previousContextUsage > 0);
  // The phases are structured (clients show their texts and lock input by them), not notice text.
  const handoff = events.filter(
    (e) =>
      e.type === 'handoff.phase' ||
      e.type === 'context.reset' ||
      (e.type === 'turn.started' && e.kind === 'implementation'),
  );
  assert.deepEqual(
    handoff.map((e) => (e.type === 'handoff.phase' ? e.phase : e.type)),
    ['preparing', 'context.reset', 'restoring', 'starting', 'done', 'turn.started'],
  );
  assert.deepEqual(of(events, 'notice'), []);
  const implMessages = h.body(1).messages.filter((m) => m.role !== 'system');
  assert.equal(implMessages.length, 1, 'only the implementation prompt: the planning transcript was cleared');
});

test('ADD-4, GATE-5: a resumed session rebuilds from the log alone and its plan still needs approval', async () => {
  h.server.enqueue(
    { text: 'Looking.', toolCalls: [{ name: 'read_file', arguments: '{"path":"README.md"}' }] },
    { text: planText(VALID_PLAN) },
  );
  const first = await start();
  await first.session.submit('Add shouting');
  const log = await readSessionLog(nodeFileSystem, h.root, first.session.id, h.logKey);
  assert.ok(log && log.problems.length === 0);
  assert.ok(!readFileSync(first.session.logPath, 'utf8').includes('sk-test-secret-key'), 'no key in the log');

  const resumed = await Session.resume(deps(), first.session.id);
  assert.deepEqual(resumed.state.pendingApproval, first.session.state.pendingApproval);
  assert.deepEqual(resumed.state.history, first.session.state.history);
  assert.equal(resumed.state.agent, 'plan');
  assert.ok(resumed.events.at(-1)?.type === 'session.started');
});
