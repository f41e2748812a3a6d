/**
 * GATE-4, EVT-1 (issue 15 item 6): the approved handoff's phases travel as `handoff.phase` events.
 * The chat shows each phase's text and keeps the composer locked while a phase is under way; the
 * lock follows the structured phase, never the text of a notice. Logs written before the event
 * (the phases were plain notices then) still replay.
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import type { EventInput } from '../../../src/core/session/events';
import { readSessionLog, SessionLog } from '../../../src/core/session/log';
import { initialState, replay } from '../../../src/core/session/state';
import { HANDOFF_PHASE_LABEL } from '../../../src/core/vocabulary';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { nodeFileSystem } from '../../../src/node/fs';
import { HostNotification } from '../../../src/protocol';
import { sessionStarted, stampEvents } from '../../fixtures/events';

const PLAN_FILE = '.vtcode/plans/shout-flag.md';
const TRACKER_FILE = '.vtcode/plans/shout-flag.tasks.md';
const [PREPARING, RESTORING, STARTING] = [
  HANDOFF_PHASE_LABEL.preparing,
  HANDOFF_PHASE_LABEL.restoring,
  HANDOFF_PHASE_LABEL.starting,
];

/** What a fresh-context approval shows, live and after a reload. */
const FRESH_CONTEXT_NOTICES = [
  'Switched to Build mode.',
  PREPARING,
  'Fresh thread. Context was 7% used.',
  RESTORING,
  STARTING,
  'Implementing the approved plan.',
];

/** A plan waiting at the gate. */
const awaiting: EventInput[] = [
  sessionStarted(),
  { type: 'turn.started', agent: 'plan', kind: 'user', input: 'Add a shout flag' },
  { type: 'plan.persisted', planFile: PLAN_FILE, title: 'Shout flag' },
  { type: 'plan.approval.requested', planFile: PLAN_FILE },
  { type: 'turn.completed', status: 'awaiting_approval' },
];

/** A fresh-context handoff as the runtime emits it now (handoff.ts). */
const freshHandoff: EventInput[] = [
  { type: 'plan.approval.resolved', choice: 'fresh_context', automatic: false, planFile: PLAN_FILE },
  { type: 'mode.changed', from: 'plan', to: 'build', switchPath: 'plan_approval' },
  { type: 'handoff.phase', phase: 'preparing' },
  {
    type: 'context.reset',
    trigger: 'fresh_context',
    planPreserved: true,
    previousContextUsage: 0.07,
    toolBudgetReset: true,
  },
  { type: 'handoff.phase', phase: 'restoring' },
  { type: 'handoff.phase', phase: 'starting' },
  { type: 'tracker.updated', trackerFile: TRACKER_FILE, total: 1, completed: 0, inProgress: 0, blocked: 0 },
  { type: 'handoff.phase', phase: 'done' },
  { type: 'turn.started', agent: 'build', kind: 'implementation', input: 'The user approved the plan.' },
];

/** The same handoff as logs written before `handoff.phase` carry it: the phases as notices. */
const oldFreshHandoff: EventInput[] = [
  { type: 'plan.approval.resolved', choice: 'fresh_context', automatic: false, planFile: PLAN_FILE },
  { type: 'mode.changed', from: 'plan', to: 'build', switchPath: 'plan_approval' },
  { type: 'notice', level: 'info', text: 'Preparing fresh execution thread...' },
  {
    type: 'context.reset',
    trigger: 'fresh_context',
    planPreserved: true,
    previousContextUsage: 0.07,
    toolBudgetReset: true,
  },
  { type: 'notice', level: 'info', text: 'Restoring approved plan...' },
  { type: 'notice', level: 'info', text: 'Starting build...' },
  { type: 'tracker.updated', trackerFile: TRACKER_FILE, total: 1, completed: 0, inProgress: 0, blocked: 0 },
  { type: 'turn.started', agent: 'build', kind: 'implementation', input: 'The user approved the plan.' },
  { type: 'message.completed', text: 'Implemented.', finishReason: 'stop' },
  { type: 'turn.completed', status: 'idle' },
];

const noticeTexts = (b: TranscriptBuilder) =>
  b.snapshot().transcript.flatMap((e) => (e.kind === 'notice' ? [e.text] : []));
const lock = (b: TranscriptBuilder) => b.snapshot().status.inputLockedReason;

test('GATE-4: each handoff phase shows its text and locks the composer with it; `done` unlocks', () => {
  const events = stampEvents([...awaiting, ...freshHandoff]);
  const b = new TranscriptBuilder(() => 0.07);
  const locks: Array<[string, string | null]> = [];
  for (const e of events) {
    const sent = b.apply(e);
    for (const m of sent) assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
    if (e.type === 'handoff.phase') {
      locks.push([e.phase, lock(b)]);
      // The webview learns the lock from the status notification this phase sent.
      const status = sent.find((m) => m.type === 'status');
      assert.equal(status?.type === 'status' ? status.status.inputLockedReason : 'no status sent', lock(b), e.phase);
    }
  }
  assert.deepEqual(locks, [
    ['preparing', PREPARING],
    ['restoring', RESTORING],
    ['starting', STARTING],
    ['done', null],
  ]);
  assert.deepEqual(noticeTexts(b), FRESH_CONTEXT_NOTICES);
  assert.equal(b.snapshot().status.busy, true, 'the implementation turn runs');
});

test('GATE-4: a current-context handoff has no phase to show and ends unlocked', () => {
  const b = new TranscriptBuilder();
  b.replay(
    stampEvents([
      ...awaiting,
      { type: 'plan.approval.resolved', choice: 'execute', automatic: false, planFile: PLAN_FILE },
      { type: 'mode.changed', from: 'plan', to: 'build', switchPath: 'plan_approval' },
      { type: 'tracker.updated', trackerFile: TRACKER_FILE, total: 1, completed: 0, inProgress: 0, blocked: 0 },
      { type: 'handoff.phase', phase: 'done' },
    ]),
  );
  assert.equal(lock(b), null);
  assert.deepEqual(noticeTexts(b), ['Switched to Build mode.']);
});

test('GATE-4: notice text never locks the composer, even when it reads like a phase', () => {
  const b = new TranscriptBuilder();
  b.replay(
    stampEvents([
      ...awaiting,
      { type: 'notice', level: 'info', text: STARTING },
      { type: 'notice', level: 'info', text: PREPARING },
    ]),
  );
  assert.deepEqual(noticeTexts(b), [STARTING, PREPARING]);
  assert.equal(lock(b), null);
});

test('GATE-4: a log that ends inside a handoff is locked on replay until the resumed session starts', () => {
  const b = new TranscriptBuilder();
  // The window closed after "Starting build...": the handoff never reached `done`.
  b.replay(stampEvents([...awaiting, ...freshHandoff.slice(0, 6)]));
  assert.equal(lock(b), STARTING);
  const [resumed] = stampEvents([sessionStarted({ agent: 'build', resumed: true })]);
  b.apply({ ...resumed!, seq: 100, turn: 1 });
  assert.equal(lock(b), null, 'the handoff did not survive the process that ran it');
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

test('GATE-4, EVT-1, ADD-4: a session log from before handoff.phase (the phases as notices) still verifies, rebuilds the session and replays with the three texts', async () => {
  const root = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-old-handoff-'));
  dirs.push(root);
  const key = randomBytes(32);
  const id = 'old-handoff-1';
  const log = await SessionLog.open(nodeFileSystem, root, id, { key });
  for (const e of stampEvents([...awaiting, ...oldFreshHandoff], id)) await log.append(e);
  await log.sync();

  const contents = await readSessionLog(nodeFileSystem, root, id, key);
  assert.ok(contents);
  assert.deepEqual(contents.problems, [], 'every line of the old log verifies and parses');
  assert.equal(contents.events.filter((e) => e.type === 'handoff.phase').length, 0);
  const state = replay(
    initialState({ id, workspace: root, provider: 'openai', model: 'gpt-test', agent: 'plan' }),
    contents.events,
  );
  assert.equal(state.agent, 'build');
  assert.equal(state.pendingApproval, null);
  assert.equal(state.status, 'idle');

  const b = new TranscriptBuilder();
  b.replay(contents.events);
  assert.deepEqual(noticeTexts(b), FRESH_CONTEXT_NOTICES);
  assert.equal(lock(b), null);
  assert.equal(b.snapshot().status.mode, 'build');
});
