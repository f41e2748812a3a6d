/**
 * Issue 15 item 6 (EVT-1, MODE-1, MODE-7, GATE-1, GATE-4, NAV-6): one vocabulary. Every value of
 * src/core/vocabulary.ts is accepted by each schema that carries it — the core's events, the
 * webview protocol, the settings contribution and the CLI — and a value outside it is refused by
 * each, so no side can drift to its own spelling.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCommandCommand } from '../../../src/cli/commands/check-command';
import { parseMode } from '../../../src/cli/flags';
import { captureIO } from '../../fixtures/cli';
import { eventPrinter, exitCodeFor } from '../../../src/cli/transcript';
import { budgetExhaustedSchema } from '../../../src/core/guards';
import {
  EventSequencer,
  SessionEventSchema,
  type EventInput,
  type SessionEvent,
} from '../../../src/core/session/events';
import { destinationOf } from '../../../src/core/session/handoff';
import {
  AGENT_MODES,
  APPROVAL_CHOICE_LABEL,
  APPROVAL_CHOICES,
  BUDGET_KIND_LABEL,
  BUDGET_KINDS,
  GATE_CHOICES,
  GRANTABLE_BUDGET_KINDS,
  HANDOFF_CHOICES,
  HANDOFF_PHASE_LABEL,
  HANDOFF_PHASES,
  TURN_STATUSES,
} from '../../../src/core/vocabulary';
import { HostNotification, INITIAL_STATUS, WebviewCommand } from '../../../src/protocol';

const REPO = join(__dirname, '..', '..', '..');
const seq = new EventSequencer('s-vocab', { now: () => Date.parse('2026-12-01T10:00:00Z') });
/** Stamps without the sequencer's validation, so a value outside the vocabulary can be offered to the schema. */
const envelope = { session: 's-vocab', turn: 1, seq: 1, ts: '2026-12-01T10:00:00.000Z' };
const parsesAsEvent = (input: object): boolean => SessionEventSchema.safeParse({ ...envelope, ...input }).success;

/** What `vtplan run --jsonl` prints for an event, read back as a JSONL consumer would. */
function cliJsonl(event: SessionEvent): unknown {
  const io = captureIO({ cwd: REPO });
  eventPrinter(io, true)(event);
  return JSON.parse(io.out);
}

function approvalEntry(choice: string): unknown {
  const synopsis = { title: 'Plan', summary: 'S', steps: [], overflow: null };
  return {
    type: 'entry',
    entry: {
      kind: 'approval',
      id: 'g1',
      planFile: '.vtcode/plans/p.md',
      synopsis,
      contextUsage: 0,
      state: 'resolved',
      choice,
    },
  };
}

test('MODE-1: every agent mode is one the events, the protocol, the CLI and the settings contribution accept; no other is', async () => {
  for (const mode of AGENT_MODES) {
    const event = seq.stamp({ type: 'mode.changed', from: 'plan', to: mode });
    assert.deepEqual(
      SessionEventSchema.parse(cliJsonl(event)),
      event,
      `${mode}: the CLI's JSONL carries the event's value`,
    );
    assert.ok(
      parsesAsEvent({
        type: 'session.started',
        agent: mode,
        provider: 'openai',
        model: 'm',
        workspace: '/ws',
        resumed: false,
      }),
      mode,
    );
    assert.ok(
      HostNotification.safeParse({ type: 'status', status: { ...INITIAL_STATUS, mode } }).success,
      `${mode}: protocol`,
    );
    assert.equal(parseMode(mode), mode, `${mode}: vtplan --mode`);
    const io = captureIO({ cwd: REPO });
    assert.equal(await checkCommandCommand.run(['--mode', mode, '--', 'ls'], io), 0);
    assert.match(io.out, new RegExp(`\\b${mode} mode\\b`), `${mode}: vtplan check-command judged in that mode`);
  }
  assert.equal(parsesAsEvent({ type: 'mode.changed', from: 'plan', to: 'duck' }), false);
  assert.equal(
    HostNotification.safeParse({ type: 'status', status: { ...INITIAL_STATUS, mode: 'duck' } }).success,
    false,
  );
  assert.throws(() => parseMode('duck'), /--mode must be plan, build or auto, not 'duck'/);
  assert.throws(() => parseMode(undefined), /--mode must be plan, build or auto$/);

  const settings = (
    JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { enum?: string[]; enumDescriptions?: string[] }> } };
    }
  ).contributes.configuration.properties['vtplan.defaultAgent'];
  assert.deepEqual(
    settings?.enum,
    [...AGENT_MODES],
    'package.json offers exactly the agent modes for vtplan.defaultAgent',
  );
  assert.equal(settings?.enumDescriptions?.length, AGENT_MODES.length);
});

test('EVT-1, GATE-1: every approval choice travels in the event, the CLI JSON and the gate entry; only the four gate choices come back from the webview', () => {
  for (const choice of APPROVAL_CHOICES) {
    const event = seq.stamp({ type: 'plan.approval.resolved', choice, automatic: false });
    assert.deepEqual(SessionEventSchema.parse(cliJsonl(event)), event, choice);
    assert.ok(HostNotification.safeParse(approvalEntry(choice)).success, `${choice}: a resolved gate can show it`);
    assert.ok(APPROVAL_CHOICE_LABEL[choice].length > 0);
    const command = WebviewCommand.safeParse({ type: 'approve', planFile: '.vtcode/plans/p.md', choice });
    assert.equal(
      command.success,
      (GATE_CHOICES as readonly string[]).includes(choice),
      `${choice}: the gate offers it iff it is one of the four`,
    );
  }
  assert.deepEqual(
    [...GATE_CHOICES],
    ['execute', 'fresh_context', 'switch_auto', 'revise'],
    'GATE-1: the four choices, in the order keyed 1-4',
  );
  assert.equal(parsesAsEvent({ type: 'plan.approval.resolved', choice: 'approve', automatic: false }), false);
  assert.equal(HostNotification.safeParse(approvalEntry('automatic')).success, false);
  // MODE-7: only Switch to Auto goes to auto; the others build.
  assert.deepEqual(
    HANDOFF_CHOICES.map((c) => [c, destinationOf(c)]),
    [
      ['execute', 'build'],
      ['fresh_context', 'build'],
      ['switch_auto', 'auto'],
      ['auto_accept', 'build'],
    ],
  );
});

test('EVT-1, ADD-2: every turn status travels in the event and the CLI JSON and has an exit code (0 waiting or idle, 3 blocked, 1 failed or stopped)', () => {
  const codes: Record<string, number> = {};
  for (const status of TURN_STATUSES) {
    const event = seq.stamp({ type: 'turn.completed', status });
    assert.deepEqual(SessionEventSchema.parse(cliJsonl(event)), event, status);
    codes[status] = exitCodeFor(status);
  }
  assert.deepEqual(codes, { idle: 0, awaiting_approval: 0, awaiting_input: 0, blocked: 3, cancelled: 1, failed: 1 });
  assert.equal(parsesAsEvent({ type: 'turn.completed', status: 'done' }), false);
  assert.throws(() => exitCodeFor('done' as 'idle'), /Unhandled turn status: "done"/);
});

test("NAV-6, EXEC-3: every budget kind travels in budget_exhausted and the guards' record; only the grantable ones pause a turn", () => {
  for (const kind of BUDGET_KINDS) {
    const event = seq.stamp({ type: 'budget_exhausted', kind, used: 3, max: 3 });
    assert.deepEqual(SessionEventSchema.parse(cliJsonl(event)), event, kind);
    assert.ok(
      budgetExhaustedSchema.safeParse({ type: 'budget_exhausted', budget: kind, used: 3, max: 3 }).success,
      `${kind}: guards`,
    );
    assert.ok(BUDGET_KIND_LABEL[kind].length > 0);
    const suspended: EventInput = {
      type: 'turn.suspended',
      reason: kind as 'tool_loop',
      interviewId: 'i',
      calls: [],
      firstCallEmitted: false,
    };
    assert.equal(
      parsesAsEvent(suspended),
      (GRANTABLE_BUDGET_KINDS as readonly string[]).includes(kind),
      `${kind}: suspends iff grantable`,
    );
  }
  assert.equal(parsesAsEvent({ type: 'budget_exhausted', kind: 'wall_clock', used: 1, max: 1 }), false);
  assert.equal(
    budgetExhaustedSchema.safeParse({ type: 'budget_exhausted', budget: 'wall_clock', used: 1, max: 1 }).success,
    false,
  );
});

test('GATE-4: every handoff phase travels in the event and the CLI JSON; the readable CLI prints the three texts and nothing for done', () => {
  const readable: string[] = [];
  for (const phase of HANDOFF_PHASES) {
    const event = seq.stamp({ type: 'handoff.phase', phase });
    assert.deepEqual(SessionEventSchema.parse(cliJsonl(event)), event, phase);
    const io = captureIO({ cwd: REPO });
    eventPrinter(io, false)(event);
    readable.push(io.out);
  }
  assert.deepEqual(readable, [
    '● Preparing fresh execution thread...\n',
    '● Restoring approved plan...\n',
    '● Starting build...\n',
    '',
  ]);
  assert.deepEqual(Object.values(HANDOFF_PHASE_LABEL), [
    'Preparing fresh execution thread...',
    'Restoring approved plan...',
    'Starting build...',
  ]);
  assert.equal(parsesAsEvent({ type: 'handoff.phase', phase: 'finished' }), false);
});
