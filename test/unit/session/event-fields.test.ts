/**
 * EVT-1: the event schema accepts every value its producers write and refuses the ones no producer
 * may write, field by field (issue 19: the survivors of events.ts). Each case is an event as a
 * producer hands it to the sequencer, which validates it before it reaches the log.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventSequencer, type EventInput } from '../../../src/core/session/events';

const stamp = (input: EventInput) => new EventSequencer('s-1', { now: () => 1_700_000_000_000 }).stamp(input);

test('EVT-1, EXEC-5: a provider failure of every kind is an event, with the wait the provider asked for', () => {
  for (const kind of ['http', 'transport', 'protocol', 'setup'] as const) {
    const failure = { kind, provider: 'openai', retryable: true, retryAfterMs: 1_500, message: `${kind} failure` };
    const event = stamp({ type: 'provider.failed', failure });
    assert.deepEqual(event.type === 'provider.failed' && event.failure, failure);
  }
  assert.throws(
    () =>
      stamp({
        type: 'provider.failed',
        failure: { kind: 'http', provider: 'openai', retryable: true, retryAfterMs: -1, message: 'HTTP 429' },
      }),
    /retryAfterMs/,
  );
});

test('EVT-1: a model message may finish for any of the five reasons the providers report', () => {
  for (const finishReason of ['stop', 'tool_calls', 'length', 'content_filter', 'other'] as const) {
    const event = stamp({ type: 'message.completed', text: 'Done.', finishReason });
    assert.equal(event.type === 'message.completed' && event.finishReason, finishReason);
  }
});

test('EVT-1, SYN-3: a turn may start for each of its five reasons', () => {
  for (const kind of ['user', 'implementation', 'synthesis', 'repair', 'continuation'] as const) {
    const event = stamp({ type: 'turn.started', agent: 'plan', kind });
    assert.equal(event.type === 'turn.started' && event.kind, kind);
  }
});

test('EVT-1, TRK-1: a persisted plan may name its tracker file', () => {
  const input: EventInput = {
    type: 'plan.persisted',
    planFile: '.vtcode/plans/shout.md',
    title: 'Shout',
    trackerFile: '.vtcode/plans/shout.tasks.md',
  };
  const event = stamp(input);
  assert.equal(event.type === 'plan.persisted' && event.trackerFile, '.vtcode/plans/shout.tasks.md');
  assert.throws(() => stamp({ ...input, trackerFile: '' }), /trackerFile/);
});

test('EVT-1, INT-1: an interview asks one or more questions, never none', () => {
  const question = (id: string) => ({ id, question: `${id}?`, options: [{ label: 'Yes' }], allowFreeform: true });
  const input: EventInput = {
    type: 'interview.requested',
    interviewId: 'q1',
    source: 'model',
    questions: [question('scope'), question('store')],
  };
  const event = stamp(input);
  assert.deepEqual(event.type === 'interview.requested' && event.questions.map((q) => q.id), ['scope', 'store']);
  assert.throws(() => stamp({ ...input, questions: [] }), /questions/);
});

test('EVT-1, GATE-2: a notice about an invalid plan edit names the plan file and all of its reasons', () => {
  const invalidEdit = {
    planFile: '.vtcode/plans/shout.md',
    reasons: [
      { code: 'missing_section', message: 'Summary is missing', line: 1 },
      { code: 'step_missing_verify', message: 'step 2 has no verify:', step: 2 },
    ],
  };
  const event = stamp({ type: 'notice', level: 'warning', text: 'The saved plan is not valid.', invalidEdit });
  assert.deepEqual(event.type === 'notice' && event.invalidEdit, invalidEdit);
  for (const broken of [
    { ...invalidEdit, planFile: '' },
    { ...invalidEdit, reasons: [] },
  ])
    assert.throws(() => stamp({ type: 'notice', level: 'warning', text: 'x', invalidEdit: broken }), /invalidEdit/);
});
