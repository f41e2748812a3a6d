/**
 * The chat view is rebuilt from the event stream (EVT-1): live events and a replayed log must give
 * the same transcript, and the footer says what the session waits for (UI-1, GATE-1, INT-1).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventSequencer, type EventInput, type SessionEvent } from '../../../src/core/session/events';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { HostNotification } from '../../../src/protocol';

const PLAN = `# Shout flag

## Summary
Add a shout flag to \`greet\` in src/greet.js.

## Implementation Steps
1. Add the flag to \`greet\` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/]

## Test Cases and Validation
- \`node --test test/\` passes.

## Assumptions and Defaults
- Lower-case stays the default.`;

function stamp(inputs: EventInput[]): SessionEvent[] {
  let t = 0;
  const seq = new EventSequencer('s-1', { now: () => 1_700_000_000_000 + t++ });
  return inputs.map((i) => {
    if (i.type === 'turn.started') seq.beginTurn();
    return seq.stamp(i);
  });
}

const planning: EventInput[] = [
  { type: 'session.started', agent: 'plan', provider: 'openai', model: 'gpt-test', workspace: '/ws', resumed: false },
  { type: 'turn.started', agent: 'plan', kind: 'user', input: 'Add a shout flag' },
  { type: 'message.delta', text: 'Looking at ' },
  { type: 'message.delta', text: 'the greeter.' },
  { type: 'message.completed', text: 'Looking at the greeter.', finishReason: 'tool_calls' },
  { type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{"path":"src/greet.js"}' },
  { type: 'tool.result', callId: 'c1', name: 'read_file', ok: true, content: '1\tfunction greet' },
  { type: 'tool.call', callId: 'c2', name: 'write_file', arguments: '{"path":"x"}' },
  { type: 'tool.blocked', callId: 'c2', name: 'write_file', reason: 'Mutation blocked: plan mode is read-only.', policy: 'read_only' },
  { type: 'message.completed', text: `Here it is.\n<proposed_plan>\n${PLAN}\n</proposed_plan>`, finishReason: 'stop' },
  { type: 'plan.completed', text: PLAN },
  { type: 'plan.persisted', planFile: '.vtcode/plans/shout-flag.md', title: 'Shout flag' },
  { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
  { type: 'turn.completed', status: 'awaiting_approval' },
];

test('UI-1, EVT-1: live events and a replayed log give the same transcript', () => {
  const events = stamp(planning);
  const live = new TranscriptBuilder(() => 0.07);
  for (const e of events) for (const m of live.apply(e)) assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
  const replayed = new TranscriptBuilder(() => 0.07);
  replayed.replay(events);
  const kinds = (b: TranscriptBuilder) => b.snapshot().transcript.map((e) => e.kind);
  assert.deepEqual(kinds(live), ['user', 'assistant', 'tool', 'tool', 'assistant', 'plan', 'approval']);
  assert.deepEqual(kinds(replayed), kinds(live));
  const liveText = live.snapshot().transcript.filter((e) => e.kind === 'assistant').map((e) => e.kind === 'assistant' && e.text);
  assert.deepEqual(liveText[0], 'Looking at the greeter.');
  // PLAN-1: the plan markup never reaches the transcript text, after a reload either.
  const replayedText = replayed.snapshot().transcript.filter((e) => e.kind === 'assistant').map((e) => e.kind === 'assistant' && e.text);
  assert.deepEqual(replayedText, ['Looking at the greeter.', 'Here it is.']);
});

test('UI-1, RO-1: tool cards carry their target, status and the blocked reason', () => {
  const b = new TranscriptBuilder();
  b.replay(stamp(planning));
  const tools = b.snapshot().transcript.filter((e) => e.kind === 'tool');
  assert.deepEqual(tools.map((t) => t.kind === 'tool' && [t.name, t.target, t.status, t.blockedReason]), [
    ['read_file', 'src/greet.js', 'ok', null],
    ['write_file', 'x', 'blocked', 'Mutation blocked: plan mode is read-only.'],
  ]);
});

test('GATE-1: the gate carries the synopsis and the context figure; the footer waits for approval', () => {
  const b = new TranscriptBuilder(() => 0.07);
  b.replay(stamp(planning));
  const { status, transcript } = b.snapshot();
  const gate = transcript.find((e) => e.kind === 'approval');
  assert.ok(gate && gate.kind === 'approval');
  assert.equal(gate.state, 'pending');
  assert.equal(gate.contextUsage, 0.07);
  assert.equal(gate.synopsis.title, 'Shout flag');
  assert.equal(gate.synopsis.steps.length, 1);
  assert.equal(status.status, 'Waiting for approval');
  assert.equal(status.busy, false);
});

test('UI-1: "Planning..." only while a planning turn runs; blocked shows the reason', () => {
  const b = new TranscriptBuilder();
  const events = stamp([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'turn.completed', status: 'blocked', reason: 'The plan is still invalid after 2 repairs: step 1 has no verify.' },
  ]);
  const statuses = events.map((e) => (b.apply(e), b.snapshot().status.status));
  assert.deepEqual(statuses, [null, 'Planning...', 'Blocked: The plan is still invalid after 2 repairs: step 1 has no verify.']);
});

test('INT-1, INT-2: an open question locks the composer with the reason until it is answered', () => {
  const b = new TranscriptBuilder();
  const events = stamp([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'interview.requested', interviewId: 'c9', source: 'model', questions: [{ id: 'q1', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }], allowFreeform: true }] },
    { type: 'turn.completed', status: 'awaiting_input' },
  ]);
  b.replay(events);
  assert.equal(b.snapshot().status.status, 'Waiting for your answer');
  assert.match(b.snapshot().status.inputLockedReason ?? '', /Answer the question/);
  const [resolved] = stamp([{ type: 'interview.resolved', interviewId: 'c9', answers: [{ questionId: 'q1', label: 'B' }], cancelled: false }]);
  b.apply(resolved!);
  const entry = b.snapshot().transcript.find((e) => e.kind === 'interview');
  assert.ok(entry && entry.kind === 'interview' && entry.state === 'answered');
  assert.equal(b.snapshot().status.inputLockedReason, null);
});

test('EVT-1, GATE-2: the plan card fills in from plan.delta, and a plan re-validated from the edited file becomes the card under review', () => {
  const b = new TranscriptBuilder();
  b.replay(stamp([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'plan.delta', text: '# Shout flag\n\n## Sum' },
    { type: 'plan.delta', text: 'mary\n' },
  ]));
  const streaming = b.snapshot().transcript.filter((e) => e.kind === 'plan');
  assert.equal(streaming.length, 1);
  assert.ok(streaming[0]!.kind === 'plan' && streaming[0]!.status === 'streaming' && streaming[0]!.markdown === '# Shout flag\n\n## Summary\n');
  b.replay(stamp([
    { type: 'message.completed', text: `<proposed_plan>\n${PLAN}\n</proposed_plan>`, finishReason: 'stop' },
    { type: 'plan.completed', text: PLAN },
    { type: 'plan.persisted', planFile: '.vtcode/plans/shout-flag.md', title: 'Shout flag' },
    { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
    { type: 'turn.completed', status: 'awaiting_approval' },
    // Ctrl+G: the user saved an edited, valid plan.
    { type: 'plan.completed', text: PLAN.replace('Lower-case stays the default.', 'Shouting is opt-in.') },
    { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
  ]));
  const plans = b.snapshot().transcript.filter((e) => e.kind === 'plan');
  assert.deepEqual(plans.map((p) => p.kind === 'plan' && p.status), ['persisted', 'persisted']);
  const gates = b.snapshot().transcript.filter((e) => e.kind === 'approval');
  assert.deepEqual(gates.map((g) => g.kind === 'approval' && g.state), ['superseded', 'pending']);
});
