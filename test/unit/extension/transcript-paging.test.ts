/**
 * Issue 16 item 3 (EVT-1, UI-1): a long session's restore sends the latest rows only, rendered,
 * with a count of the rows before them; "Show earlier messages" pages those in, in order.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { EventInput, SessionEvent } from '../../../src/core/session/events';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { HostNotification, TRANSCRIPT_WINDOW, type TranscriptEntry } from '../../../src/protocol';
import { initialState, reduce } from '../../../webview/src/store';
import { sessionStarted, stampEvents } from '../../fixtures/events';
import { shoutFlagPlan } from '../../fixtures/plans/shout-flag';

const PLAN = shoutFlagPlan();
const PLAN_FILE = '.vtcode/plans/shout-flag.md';

const started = sessionStarted({ agent: 'build' });

/** `n` turns of a question and a markdown answer: two rows each. */
function chat(n: number, from = 0): EventInput[] {
  return Array.from({ length: n }, (_, i): EventInput[] => [
    { type: 'turn.started', agent: 'build', kind: 'user', input: `question **${from + i}**` },
    { type: 'message.completed', text: `answer \`${from + i}\``, finishReason: 'stop' },
    { type: 'turn.completed', status: 'idle' },
  ]).flat();
}

const planning: EventInput[] = [
  { type: 'turn.started', agent: 'plan', kind: 'user', input: 'Add a shout flag' },
  { type: 'message.completed', text: `Here it is.\n<proposed_plan>\n${PLAN}\n</proposed_plan>`, finishReason: 'stop' },
  { type: 'plan.completed', text: PLAN },
  { type: 'plan.persisted', planFile: PLAN_FILE, title: 'Shout flag' },
  { type: 'plan.approval.requested', planFile: PLAN_FILE },
  { type: 'turn.completed', status: 'awaiting_approval' },
];

/** Every entry as the live session built it, HTML rendered as it went. */
function liveEntries(events: readonly SessionEvent[]): TranscriptEntry[] {
  const live = new TranscriptBuilder();
  let panel = initialState;
  for (const e of events) for (const m of live.apply(e)) panel = reduce(panel, m);
  return panel.transcript;
}

test('EVT-1, UI-1: a long restore sends the latest rows, rendered, and the count before them; pages bring the rest back in order', () => {
  const events = stampEvents([started, ...chat(250)]);
  const all = liveEntries(events);
  assert.equal(all.length, 500);
  const restored = new TranscriptBuilder();
  restored.replay(events);
  const state = { type: 'state' as const, ...restored.snapshot() };
  assert.ok(HostNotification.safeParse(state).success);
  assert.equal(state.transcript.length, TRANSCRIPT_WINDOW);
  assert.equal(state.earlier, 500 - TRANSCRIPT_WINDOW);
  assert.deepEqual(
    state.transcript,
    all.slice(-TRANSCRIPT_WINDOW),
    'the tail as the live session showed it, HTML included',
  );

  let panel = reduce(initialState, state);
  const first = restored.earlierPage();
  assert.ok(HostNotification.safeParse(first).success);
  assert.equal(first.entries.length, TRANSCRIPT_WINDOW);
  assert.equal(first.earlier, 500 - 2 * TRANSCRIPT_WINDOW);
  assert.deepEqual(first.entries, all.slice(500 - 2 * TRANSCRIPT_WINDOW, 500 - TRANSCRIPT_WINDOW));
  panel = reduce(panel, first);
  const last = restored.earlierPage();
  assert.equal(last.earlier, 0);
  assert.deepEqual(last.entries, all.slice(0, 500 - 2 * TRANSCRIPT_WINDOW));
  panel = reduce(panel, last);
  assert.deepEqual(panel.transcript, all, 'the panel holds the whole transcript, in order');
  assert.equal(panel.earlier, 0);
  assert.deepEqual(
    restored.earlierPage(),
    { type: 'earlier', entries: [], earlier: 0 },
    'nothing earlier: an empty page',
  );
});

test('GATE-1, EVT-1: a pending gate older than the latest rows is still sent, and the rows start at it', () => {
  const events = stampEvents([started, ...chat(5), ...planning, ...chat(150, 5)]);
  const all = liveEntries(events);
  const gateAt = all.findIndex((e) => e.kind === 'approval');
  assert.ok(all.length - gateAt > TRANSCRIPT_WINDOW, 'the gate is older than the latest rows');
  const restored = new TranscriptBuilder();
  restored.replay(events);
  const snap = restored.snapshot();
  assert.equal(snap.earlier, gateAt);
  assert.equal(snap.transcript[0]?.kind, 'approval');
  assert.equal(snap.transcript[0]?.kind === 'approval' && snap.transcript[0].state, 'pending');
  assert.deepEqual(snap.transcript, all.slice(gateAt));
});

test('GATE-3, EVT-1: an event that changes a row the panel does not hold yet posts nothing for it; the page shows the change, rendered', () => {
  const stamped = stampEvents([
    started,
    ...chat(5),
    ...planning,
    ...chat(150, 5),
    { type: 'plan.approval.resolved', choice: 'execute', automatic: false, planFile: PLAN_FILE },
  ]);
  const events = stamped.slice(0, -1);
  const restored = new TranscriptBuilder();
  restored.replay(events);
  const snap = restored.snapshot();
  const posted = restored.apply(stamped.at(-1)!);
  const changed = posted.flatMap((m) => (m.type === 'entry' ? [m.entry] : []));
  assert.deepEqual(
    changed.map((e) => [e.kind, e.kind === 'approval' && e.state]),
    [['approval', 'resolved']],
    'only the gate the panel holds',
  );
  const page = restored.earlierPage();
  assert.equal(page.earlier, 0);
  assert.equal(page.entries.length, snap.earlier);
  const card = page.entries.find((e) => e.kind === 'plan');
  assert.ok(card && card.kind === 'plan');
  assert.equal(card.status, 'approved');
  assert.match(card.html, /<h1[^>]*>Shout flag<\/h1>/);
  const question = page.entries[0];
  assert.ok(question?.kind === 'user');
  assert.equal(question.html.trim(), '<p>question <strong>0</strong></p>');
});
