/**
 * EXEC-5, MODE-2: what a session does while a turn runs and how the turn's end is decided. Input
 * that would start or change work is refused with SessionBusyError (a slash command gets a visible
 * notice instead); a stop before the turn's end makes it cancelled whatever the turn returned; a
 * turn whose own work throws ends failed with the error's message (EVT-1: still a logged end); a
 * stop after the end cancels the planning the turn would start on its own (MODE-4).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ModelProvider } from '../../../src/core/llm';
import type { SessionEvent } from '../../../src/core/session/events';
import type { Session } from '../../../src/core/session/session';
import { HangingModel } from './hanging-model';
import { of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const busy = { name: 'SessionBusyError', message: 'A turn is running; stop it first or wait for it to finish.' };

/** Resolves once an event of this type has been heard. */
function heard(session: Session, type: SessionEvent['type']): Promise<void> {
  return new Promise((resolve) => {
    const off = session.on((e) => {
      if (e.type === type) {
        off();
        resolve();
      }
    });
  });
}

/** Starts a turn whose model streams a little text, then holds the response open until the turn is stopped. */
async function turnRunning(session: Session, input = 'Explain the greeter') {
  const streaming = heard(session, 'message.delta');
  const turn = session.submit(input);
  await streaming;
  assert.equal(session.busy, true);
  // Wrapped: an async function returning the promise itself would wait for the turn to end.
  return { turn };
}

test('EXEC-5: while a turn runs, a message and "keep planning" are refused as busy and change nothing; after the stop the session is free', async () => {
  const { session, events } = await h.start('plan', h.deps({ provider: new HangingModel() }));
  const { turn } = await turnRunning(session);
  const before = events.length;
  await assert.rejects(session.submit('And the tests too'), busy);
  await assert.rejects(session.approve('revise'), busy);
  assert.equal(events.length, before, 'nothing was emitted');
  session.stop();
  assert.deepEqual(await turn, { kind: 'ran', status: 'cancelled' });
  assert.equal(session.busy, false);
  assert.equal(of(events, 'turn.started').length, 1, 'the refused message started no turn');
});

/** The scripted server's provider for the first request, then a hanging model. */
function hangingAfterFirst(): ModelProvider {
  const scripted = h.deps().provider;
  const hanging = new HangingModel();
  let calls = 0;
  return {
    id: scripted.id,
    model: scripted.model,
    stream: (request) => (calls++ === 0 ? scripted.stream(request) : hanging.stream(request)),
  };
}

test('MODE-6, EXEC-5: "cancel" while a planning turn revises an active plan is refused as busy; the plan stays active', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan', h.deps({ provider: hangingAfterFirst() }));
  await session.submit('Add a shout flag');
  await session.approve('revise');
  const planFile = session.state.activePlan?.planFile;
  assert.ok(planFile);
  const { turn } = await turnRunning(session, 'Split step 2');
  await assert.rejects(session.submit('cancel'), busy);
  assert.equal(of(events, 'plan.approval.resolved').at(-1)?.choice, 'revise', 'no cancel was recorded');
  session.stop();
  await turn;
  assert.equal(session.state.activePlan?.planFile, planFile);
});

test('MODE-2: /plan while a turn runs is dropped with a warning that offers the plan entry; the agent stays', async () => {
  const { session, events } = await h.start('build', h.deps({ provider: new HangingModel() }));
  const { turn } = await turnRunning(session);
  const text = 'A turn is running; /plan was not applied. Stop the turn first or wait for it to finish.';
  assert.deepEqual(await session.submit('/plan'), { kind: 'notice', text });
  const notice = of(events, 'notice').at(-1);
  assert.deepEqual(
    { level: notice?.level, text: notice?.text, switchPath: notice?.switchPath },
    { level: 'warning', text, switchPath: 'plan_entry' },
  );
  assert.equal(session.state.agent, 'build');
  session.stop();
  await turn;
});

test('EXEC-5: a stop heard before the turn ends makes it cancelled even though the model had finished answering', async () => {
  h.server.enqueue({ text: 'All done.' });
  const { session, events } = await h.start('build');
  session.on((e) => {
    if (e.type === 'message.completed') session.stop();
  });
  assert.deepEqual(await session.submit('Say done'), { kind: 'ran', status: 'cancelled' });
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual({ status: end?.status, reason: end?.reason }, { status: 'cancelled', reason: undefined });
});

test('EVT-1: a turn whose own work throws (a listener failing on turn.started) ends failed with that message', async () => {
  h.server.enqueue({ text: 'never requested' });
  const { session, events } = await h.start('build');
  session.on((e) => {
    if (e.type === 'turn.started') throw new Error('the view is gone');
  });
  assert.deepEqual(await session.submit('Say done'), { kind: 'ran', status: 'failed' });
  const end = of(events, 'turn.completed').at(-1);
  assert.deepEqual({ status: end?.status, reason: end?.reason }, { status: 'failed', reason: 'the view is gone' });
  assert.equal(h.server.requests.length, 0);
  assert.equal(session.busy, false);
});

const suggest = {
  name: 'start_planning',
  arguments: JSON.stringify({ reason: 'The change touches several modules.' }),
};

test('MODE-4: with plan confirmation off, an accepted planning suggestion continues in plan mode saying why', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: 'Researching read-only now.' });
  const { session, events } = await h.start('build', h.deps({ planConfirmation: 'skip' }));
  await session.submit('Refactor the greeter');
  const continued = of(events, 'turn.started').at(-1);
  assert.deepEqual(
    { kind: continued?.kind, agent: continued?.agent, input: continued?.input },
    {
      kind: 'continuation',
      agent: 'plan',
      input:
        'The agent suggested planning, and plan confirmation is off in this session, so the Planning workflow was entered. Research read-only and propose a plan.',
    },
  );
});

test('EXEC-5, MODE-4: a stop after the turn ended cancels the planning its suggestion would start', async () => {
  h.server.enqueue({ toolCalls: [suggest] }, { text: 'never requested' });
  const { session, events } = await h.start('build', h.deps({ planConfirmation: 'skip' }));
  session.on((e) => {
    if (e.type === 'turn.completed') session.stop();
  });
  assert.deepEqual(await session.submit('Refactor the greeter'), {
    kind: 'notice',
    text: 'Planning did not start: the session was stopped.',
  });
  assert.equal(session.state.agent, 'build');
  assert.equal(of(events, 'turn.started').length, 1);
  assert.equal(h.server.requests.length, 1);
});
