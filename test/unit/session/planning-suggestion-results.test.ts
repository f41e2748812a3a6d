/**
 * MODE-4: what the model and the user get when an execution agent calls `start_planning`
 * (turn/batch.ts): the call's result tells the model to stop, the user is asked with one
 * recommended option and no free text, and under skip-confirmations the result says planning starts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, useHarness } from './harness';

const h = useHarness();
const suggest = {
  id: 'call_sp',
  name: 'start_planning',
  arguments: JSON.stringify({ reason: 'The change touches several modules.' }),
};

test('MODE-4: a suggestion under required confirmation succeeds with "wait for the user", asks one recommended, described choice without free text, and the turn waits', async () => {
  h.server.enqueue({ toolCalls: [suggest] });
  const { session, events } = await h.start('build');
  await session.submit('Refactor the greeter');
  assert.deepEqual(
    of(events, 'tool.result').map(({ callId, name, ok, content }) => ({ callId, name, ok, content })),
    [
      {
        callId: 'call_sp',
        name: 'start_planning',
        ok: true,
        content: 'The user was asked whether to enter the Planning workflow. Stop here and wait for their decision.',
      },
    ],
  );
  const asked = of(events, 'interview.requested').at(-1);
  assert.deepEqual(
    asked?.questions.map(({ id, question, options, allowFreeform }) => ({ id, question, options, allowFreeform })),
    [
      {
        id: 'enter_planning',
        question: 'Enter Planning workflow? The change touches several modules.',
        options: [
          {
            label: 'Enter Planning workflow (Recommended)',
            description: 'Enter read-only planning and research.',
            recommended: true,
          },
          { label: 'Continue without Planning workflow' },
        ],
        allowFreeform: false,
      },
    ],
  );
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual(end && [end.status, end.reason], [
    'awaiting_input',
    'Waiting for your decision on entering the Planning workflow.',
  ]);
});

test('MODE-4: under skip-confirmations the suggestion succeeds with "planning starts now, stop here"', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: 'Researching read-only now.' });
  const { session, events } = await h.start('build', h.deps({ planConfirmation: 'skip' }));
  await session.submit('Refactor the greeter');
  assert.deepEqual(
    of(events, 'tool.result').map(({ callId, ok, content }) => ({ callId, ok, content })),
    [
      {
        callId: 'call_sp',
        ok: true,
        content:
          'Plan confirmation is off in this session, so the Planning workflow starts now. Stop here; planning continues read-only.',
      },
    ],
  );
  assert.equal(session.state.agent, 'plan');
});
