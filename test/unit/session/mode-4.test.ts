/**
 * MODE-4: an execution agent may suggest planning with `start_planning`. Nothing changes until the
 * user answers the runtime question; entering switches to plan and continues read-only, declining
 * continues the task in the same agent.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { of, useHarness } from './harness';

const h = useHarness();
const suggest = {
  name: 'start_planning',
  arguments: JSON.stringify({ reason: 'The change touches several modules.' }),
};

async function suggested() {
  h.server.enqueue({ toolCalls: [suggest] });
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Refactor the greeter'), { kind: 'ran', status: 'awaiting_input' });
  const asked = of(events, 'interview.requested').at(-1);
  assert.ok(asked && asked.source === 'runtime');
  assert.equal(asked.questions[0]?.header, 'Enter Planning workflow?');
  assert.deepEqual(
    asked.questions[0]?.options.map((o) => o.label),
    ['Enter Planning workflow (Recommended)', 'Continue without Planning workflow'],
  );
  assert.equal(session.state.agent, 'build', 'nothing changes before the user answers');
  assert.equal(of(events, 'mode.changed').length, 0);
  return { session, events, asked };
}

test('MODE-4: "Enter Planning workflow" switches to plan and continues with the read-only catalog', async () => {
  const { session, events, asked } = await suggested();
  h.server.enqueue({ text: 'Researching read-only now.' });
  await session.answer(asked.interviewId, [
    { questionId: 'enter_planning', label: 'Enter Planning workflow (Recommended)' },
  ]);
  assert.equal(session.state.agent, 'plan');
  assert.equal(of(events, 'mode.changed').at(-1)?.switchPath, 'plan_entry');
  const offered = h.body(1).tools?.map((t) => t.function.name) ?? [];
  assert.ok(
    !offered.includes('write_file') && !offered.includes('edit_file'),
    `plan tools only: ${offered.join(', ')}`,
  );
});

test('MODE-4: "Continue without Planning workflow" keeps the agent and its write tools', async () => {
  const { session, asked } = await suggested();
  h.server.enqueue({ text: 'Continuing without planning.' });
  await session.answer(asked.interviewId, [
    { questionId: 'enter_planning', label: 'Continue without Planning workflow' },
  ]);
  assert.equal(session.state.agent, 'build');
  const offered = h.body(1).tools?.map((t) => t.function.name) ?? [];
  assert.ok(offered.includes('edit_file'));
  assert.match(String(h.body(1).messages.at(-1)?.content), /continue without the Planning workflow/);
});
