/**
 * INT-3: the synthesis retry after a denied question tells the model why research closed, in the
 * directive it records and sends (issue 19, a survivor of the session rerun: the reason was never
 * checked).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
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

test('INT-3: the synthesis retry after a denied question names the reason: clarification questions are unavailable', async () => {
  h.server.enqueue(ask(1), ask(2), ask(3), { text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  await session.submit('Make the greeter shout');
  await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  await session.dismissInterview(of(events, 'interview.requested').at(-1)!.interviewId);
  const synthesis = of(events, 'directive').filter((d) => d.kind === 'synthesis');
  assert.equal(synthesis.length, 1);
  assert.match(
    synthesis[0]!.text,
    /^Research is closed for this turn \(clarification questions are unavailable in this session\)\. Do not call any tools\./,
  );
});
