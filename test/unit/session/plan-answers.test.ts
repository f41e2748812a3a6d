/**
 * What a planning turn does with a model answer that has no tool calls (turn/answer.ts): a cut-off
 * answer is asked for once more, shorter (PLAN-7); a tool-free pass without a plan is asked again
 * with the reason (SYN-1, SYN-2); after a denied interview the one retry decides (INT-3); a plan
 * that cannot be saved ends the turn blocked (STORE-1).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** Six research requests whose grep finds nothing: the seventh request is the synthesis pass (NAV-2, SYN-1). */
const fruitlessSearches = () =>
  Array.from({ length: 6 }, (_, i) => ({
    toolCalls: [{ name: 'grep', arguments: JSON.stringify({ pattern: `nothing-here-${i + 1}` }) }],
  }));
/** A plan block cut off by the output limit. */
const cutOffPlan = { text: `<proposed_plan>\n${VALID_PLAN.slice(0, 200)}`, finishReason: 'length' as const };

test('PLAN-7: an answer cut off at the output limit without a plan block is asked for once more, shorter and tool-free', async () => {
  h.server.enqueue(
    { text: 'The greeter lives in src/greet.js and', finishReason: 'length' },
    { text: planText(VALID_PLAN) },
  );
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  assert.deepEqual(
    of(events, 'directive').map((d) => d.kind),
    ['condense'],
  );
  assert.equal(h.body(1).tool_choice, 'none');
});

test('PLAN-7: a cut-off answer with nothing visible (whitespace only) is not condensed: in research it just ends the turn', async () => {
  h.server.enqueue({ text: '\n  \n', finishReason: 'length' }, { text: 'never requested' });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'directive').length, 0);
  assert.equal(h.server.requests.length, 1);
});

test('PLAN-7: a plan cut off twice ends the turn blocked, saying how to get a complete plan', async () => {
  h.server.enqueue(cutOffPlan, cutOffPlan, { text: 'never requested' });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'blocked' });
  assert.equal(
    of(events, 'turn.completed').at(-1)?.reason,
    'The plan was cut off twice. Ask for a shorter plan or raise the output limit.',
  );
  assert.equal(of(events, 'directive').filter((d) => d.kind === 'condense').length, 1);
  assert.equal(h.server.requests.length, 2);
  assert.deepEqual(h.plansOnDisk(), []);
});

test('SYN-1, SYN-2: each corrective synthesis request says why: a whitespace-only answer is empty, text without a block has no plan', async () => {
  h.server.enqueue(
    ...fruitlessSearches(),
    { text: '\n \n' },
    { text: 'Still thinking.' },
    { text: planText(VALID_PLAN) },
  );
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'awaiting_approval' });
  const directives = of(events, 'directive');
  assert.deepEqual(
    directives.map((d) => d.kind),
    ['synthesis', 'synthesis', 'synthesis'],
  );
  assert.match(directives[1]!.text, /^Research is closed for this turn \(the last answer was empty\)\./);
  assert.match(directives[2]!.text, /^Research is closed for this turn \(the last answer had no plan block\)\./);
  assert.match(String(h.body(8).messages.at(-1)?.content), /\(the last answer had no plan block\)/);
});

test('INT-3, PLAN-7: a cut-off answer to the one synthesis retry leaves planning waiting with the keep-planning message, without a condense request', async () => {
  const ask = (n: number) => ({
    toolCalls: [
      {
        id: `call_q${n}`,
        name: 'request_user_input',
        arguments: JSON.stringify({
          questions: [{ id: 'style', question: 'Upper-case only?', options: [{ label: 'Yes' }, { label: 'No' }] }],
        }),
      },
    ],
  });
  h.server.enqueue(ask(1), ask(2), ask(3), cutOffPlan, { text: 'never requested' });
  const { session, events } = await h.start('plan');
  await session.submit('Make the greeter shout');
  await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  const result = await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  assert.deepEqual(result, { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'interview.denied').length, 1);
  assert.equal(
    of(events, 'turn.completed').at(-1)?.reason,
    'No valid plan yet. Keep planning: add the missing details or send "continue".',
  );
  assert.equal(h.server.requests.length, 4, 'the retry was the last request');
  assert.equal(of(events, 'directive').filter((d) => d.kind === 'condense').length, 0);
});

test('STORE-1: a valid plan that cannot be saved ends the turn blocked with the reason; no approval is requested', async () => {
  mkdirSync(join(h.root, '.vtcode'), { recursive: true });
  writeFileSync(join(h.root, '.vtcode/plans'), 'a file where the plans folder should be\n');
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: 'never requested' });
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('Plan it'), { kind: 'ran', status: 'blocked' });
  assert.match(of(events, 'turn.completed').at(-1)?.reason ?? '', /^Could not save the plan: /);
  assert.equal(of(events, 'plan.approval.requested').length, 0);
  assert.equal(of(events, 'directive').length, 0, 'a valid plan is not sent back for repair');
  assert.equal(h.server.requests.length, 1);
});
