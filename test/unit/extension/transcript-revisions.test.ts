/**
 * GATE-2 in the chat: a plan edited with Ctrl+G and saved is re-validated and shown again. The
 * transcript keeps one card per plan that counts its revisions and says what changed, updates the
 * gate where it stands instead of adding "Superseded" lines, and shows why a save was not valid
 * only until a later save is (EVT-1: the same live and after a reload).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { EventInput, SessionEvent } from '../../../src/core/session/events';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { HostNotification, type EntryOf, type TranscriptEntry } from '../../../src/protocol';
import { sessionStarted, stampEvents } from '../../fixtures/events';
import { SHOUT_FLAG_STEP, shoutFlagPlan } from '../../fixtures/plans/shout-flag';

const PLAN_FILE = '.vtcode/plans/shout-flag.md';

const plan = (steps: string[], assumptions?: string) => shoutFlagPlan(steps, { assumptions });

const PARAM = SHOUT_FLAG_STEP;
const CLI = 'Parse `--shout` in bin/greet.js -> files: [bin/greet.js] -> verify: [node bin/greet.js --shout Ada]';
const DOCS = 'Document the flag in README.md -> files: [README.md] -> verify: [rg -n shout README.md]';
const V1 = plan([PARAM, CLI]);

const planned = (text: string, input = 'Add a shout flag'): EventInput[] => [
  { type: 'turn.started', agent: 'plan', kind: 'user', input },
  { type: 'message.completed', text: `Here it is.\n<proposed_plan>\n${text}\n</proposed_plan>`, finishReason: 'stop' },
  { type: 'plan.completed', text },
  { type: 'plan.persisted', planFile: PLAN_FILE, title: 'Shout flag' },
  { type: 'plan.approval.requested', planFile: PLAN_FILE },
  { type: 'turn.completed', status: 'awaiting_approval' },
];

/** What Session.planFileSaved emits for a save that validates (GATE-2). */
const validSave = (text: string): EventInput[] => [
  { type: 'plan.completed', text, source: 'editor' },
  { type: 'plan.approval.requested', planFile: PLAN_FILE },
];

/** …and for one that does not. */
const invalidSave = (message: string, line: number): EventInput[] => [
  {
    type: 'notice',
    level: 'warning',
    text: `The edited plan is not valid, so the previous plan stays active:\n- line ${line}: ${message.replace(/\.$/, '')}`,
    invalidEdit: { planFile: PLAN_FILE, reasons: [{ code: 'step_vague_verify', message, line }] },
  },
];

const start = sessionStarted();

const plans = (b: TranscriptBuilder) => b.snapshot().transcript.filter((e): e is EntryOf<'plan'> => e.kind === 'plan');
const gates = (b: TranscriptBuilder) =>
  b.snapshot().transcript.filter((e): e is EntryOf<'approval'> => e.kind === 'approval');
const notices = (b: TranscriptBuilder) =>
  b.snapshot().transcript.filter((e): e is EntryOf<'notice'> => e.kind === 'notice');

/** Applies events one by one, checking every notification against the protocol. */
function live(
  events: readonly SessionEvent[],
  b = new TranscriptBuilder(),
): { builder: TranscriptBuilder; sent: HostNotification[] } {
  const sent: HostNotification[] = [];
  for (const e of events) {
    for (const m of b.apply(e)) {
      assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
      sent.push(m);
    }
  }
  return { builder: b, sent };
}

test('GATE-2: three re-validated saves (one of them invalid) give one plan card at revision 3, one gate, and no "Superseded" line', () => {
  const v2 = plan([PARAM, CLI, DOCS]);
  const v3 = plan([PARAM, DOCS], 'Shouting is opt-in.');
  const events = stampEvents([
    start,
    ...planned(V1),
    ...validSave(v2),
    ...invalidSave('Verify item `run checks` is not a concrete command.', 7),
    ...validSave(v3),
  ]);
  const { builder } = live(events);
  const cards = plans(builder);
  assert.equal(cards.length, 1, 'one card for the plan');
  const [card] = cards;
  assert.deepEqual(card?.revision && [card.revision.number, card.revision.source], [3, 'editor']);
  assert.equal(card?.status, 'persisted');
  assert.equal(card?.markdown, v3, 'the card shows the latest revision');
  assert.deepEqual(card?.revision?.changes, {
    added: [],
    removed: [{ number: 2, text: 'Parse `--shout` in bin/greet.js' }],
    changed: [],
    sections: ['Assumptions and Defaults'],
  });
  assert.deepEqual(
    gates(builder).map((g) => [g.state, g.synopsis.steps.length]),
    [['pending', 2]],
    'one gate, showing the latest synopsis',
  );
  assert.equal(
    builder.snapshot().transcript.filter((e) => e.kind === 'approval' && e.state === 'superseded').length,
    0,
  );
  assert.deepEqual(notices(builder), [], 'no warning line and no "Superseded" line in the chat');
  assert.equal(builder.snapshot().status.status, 'Waiting for approval');

  const replayed = new TranscriptBuilder();
  replayed.replay(events);
  assert.deepEqual(replayed.snapshot(), builder.snapshot(), 'a reload rebuilds the same transcript');
});

test('GATE-2: an invalid save is said inside the gate and nowhere else; the next valid save clears it', () => {
  const events = stampEvents([
    start,
    ...planned(V1),
    ...invalidSave('Verify item `run checks` is not a concrete command.', 7),
  ]);
  const { builder, sent } = live(events);
  assert.deepEqual(gates(builder)[0]?.invalidEdit, {
    reasons: [{ message: 'Verify item `run checks` is not a concrete command.', line: 7 }],
  });
  assert.deepEqual(notices(builder), [], 'no warning line that would stay behind');
  assert.ok(!sent.some((m) => m.type === 'entry' && m.entry.kind === 'notice'));

  const fixed = plan([PARAM.replace('node --test test/', 'node --test test/, npm test'), CLI]);
  const { sent: after } = live(
    stampEvents([...events.map((e) => ({ ...e }) as EventInput), ...validSave(fixed)]).slice(events.length),
    builder,
  );
  const [gate] = gates(builder);
  assert.equal(gate?.invalidEdit ?? null, null, 'the warning is gone');
  assert.equal(gate?.state, 'pending');
  assert.deepEqual(plans(builder)[0]?.revision?.changes?.changed, [
    {
      before: { number: 1, text: 'Add the flag to `greet` in src/greet.js' },
      after: { number: 1, text: 'Add the flag to `greet` in src/greet.js' },
      fields: ['verify'],
    },
  ]);
  assert.ok(
    after.some((m) => m.type === 'entry' && m.entry.kind === 'approval' && m.entry.id === gate?.id),
    'the gate is updated where it stands',
  );
  assert.ok(
    after.some(
      (m) => m.type === 'announce' && m.text === 'Plan updated to revision 2: Shout flag is ready for approval again.',
    ),
    'a screen reader hears that the gate changed',
  );
});

test('GATE-2: a save that changes nothing is no new revision, but it still clears the warning', () => {
  const { builder } = live(stampEvents([start, ...planned(V1), ...invalidSave('Bad.', 3), ...validSave(V1)]));
  assert.deepEqual(
    plans(builder).map((p) => p.revision?.number),
    [1],
  );
  assert.equal(gates(builder)[0]?.invalidEdit ?? null, null);
});

test('GATE-2, EVT-1: logs from before revisions were tracked (no `source`, no `invalidEdit`) read the same way', () => {
  const v2 = plan([PARAM, CLI, DOCS]);
  const old = stampEvents([
    start,
    ...planned(V1),
    {
      type: 'notice',
      level: 'warning',
      text: 'The edited plan is not valid, so the previous plan stays active:\n- line 7: Verify item `run checks` is not a concrete command\n- Required section `## Summary` is missing',
    },
  ]);
  const b = new TranscriptBuilder();
  b.replay(old);
  assert.deepEqual(gates(b)[0]?.invalidEdit, {
    reasons: [
      { message: 'line 7: Verify item `run checks` is not a concrete command' },
      { message: 'Required section `## Summary` is missing' },
    ],
  });
  assert.deepEqual(notices(b), []);
  b.replay(
    stampEvents([
      { type: 'plan.completed', text: v2 },
      { type: 'plan.approval.requested', planFile: PLAN_FILE },
    ]),
  );
  assert.deepEqual(
    plans(b).map((p) => [p.revision?.number, p.revision?.source, p.revision?.changes?.added]),
    [[2, 'editor', [{ number: 3, text: 'Document the flag in README.md' }]]],
  );
  assert.deepEqual(
    gates(b).map((g) => [g.state, g.invalidEdit ?? null]),
    [['pending', null]],
  );
});

test('GATE-2: without a gate to carry it, the warning is one line per plan, marked resolved by the next valid save', () => {
  const events = stampEvents([
    start,
    ...planned(V1),
    { type: 'plan.approval.resolved', choice: 'revise', automatic: false, planFile: PLAN_FILE },
    { type: 'turn.completed', status: 'idle', reason: 'Staying in Plan mode.' },
    ...invalidSave('First problem.', 3),
    ...invalidSave('Second problem.', 4),
  ]);
  const { builder } = live(events);
  const warnings = () =>
    notices(builder).filter((n) => n.text.startsWith('The edited plan is not valid') || n.text.startsWith('Resolved'));
  assert.deepEqual(
    warnings().map((n) => [n.level, n.text.split('\n')[1]]),
    [['warning', '- line 4: Second problem']],
    'a second invalid save replaces the line',
  );
  live(
    stampEvents([...events.map((e) => ({ ...e }) as EventInput), ...validSave(plan([PARAM]))]).slice(events.length),
    builder,
  );
  assert.deepEqual(
    warnings().map((n) => [n.level, n.text]),
    [['info', `Resolved: a later save of ${PLAN_FILE} is valid (revision 2).`]],
  );
  assert.deepEqual(
    gates(builder).map((g) => g.state),
    ['resolved', 'pending'],
    'a gate that was answered stays answered; the edit asks again',
  );
});

test('GATE-2: a plan the planner revises in a later turn is a new card for that turn, counted as the next revision of the file', () => {
  const v2 = plan([PARAM, DOCS]);
  const { builder } = live(
    stampEvents([start, ...planned(V1), ...planned(v2, 'Drop the CLI step; document it instead')]),
  );
  assert.deepEqual(
    plans(builder).map((p) => [p.revision?.number, p.revision?.source]),
    [
      [1, 'planner'],
      [2, 'planner'],
    ],
  );
  assert.equal(plans(builder)[0]?.revision?.changes, null, 'the first revision has nothing to compare with');
  assert.deepEqual(plans(builder)[1]?.revision?.changes, {
    added: [],
    removed: [],
    changed: [
      {
        before: { number: 2, text: 'Parse `--shout` in bin/greet.js' },
        after: { number: 2, text: 'Document the flag in README.md' },
        fields: ['action', 'files', 'verify'],
      },
    ],
    sections: [],
  });
  // An edit after that updates the newer card, not the first one.
  const b2 = new TranscriptBuilder();
  b2.replay(stampEvents([start, ...planned(V1), ...planned(v2, 'again'), ...validSave(plan([PARAM, DOCS, CLI]))]));
  assert.deepEqual(
    plans(b2).map((p) => p.revision?.number),
    [1, 3],
  );
  const entries: TranscriptEntry[] = b2.snapshot().transcript;
  assert.deepEqual(
    entries.filter((e) => e.kind === 'approval').map((e) => e.kind === 'approval' && e.state),
    ['superseded', 'pending'],
  );
});
