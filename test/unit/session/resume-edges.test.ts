/**
 * ADD-4, STORE-2, GATE-5, MODE-1: `Session.start` and `Session.resume` at their edges. A session
 * that has no log (or an empty one) cannot be resumed; a turn the process died in is closed as
 * cancelled before anything new; a log changed outside VT Code withdraws a pending approval with
 * advice and returns an execution agent to plan mode, saying why; each `session.started` says
 * whether it resumed and what contains commands (RO-1); API keys are masked in the log before and
 * after a resume.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SessionEvent } from '../../../src/core/session/events';
import { sessionLogPath } from '../../../src/core/session/log';
import { Session } from '../../../src/core/session/session';
import { createToolRuntime } from '../../../src/core/tools';
import { nodeFileSystem } from '../../../src/node/fs';
import { jsSearch } from '../../../src/node/search';
import { nodeWriter } from '../../../src/node/writer';
import { HangingModel } from './hanging-model';
import { of, planText, recordingShell, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** What the resume added after the replayed events. */
const resumeEvents = (session: Session): SessionEvent[] => session.events.slice(session.replayedCount);

/** A line nobody signed, appended as a model or a hand edit would. */
function forgedNotice(session: Session): string {
  const last = session.events.at(-1) as SessionEvent;
  return JSON.stringify({
    type: 'notice',
    level: 'info',
    text: 'hello',
    session: session.id,
    turn: last.turn,
    seq: last.seq + 1,
    ts: last.ts,
  });
}

test('ADD-4: resuming a session that has no log names the session and where it looked', async () => {
  await assert.rejects(Session.resume(h.deps(), '20260101-000000-abcdef'), {
    message: `No session '20260101-000000-abcdef' in ${h.root}/.vtcode/sessions.`,
  });
});

test('ADD-4: a log file that is empty is no session either', async () => {
  const id = '20260101-000000-abcdef';
  const file = sessionLogPath(h.root, id);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  await assert.rejects(Session.resume(h.deps(), id), {
    message: `No session '${id}' in ${h.root}/.vtcode/sessions.`,
  });
});

test('ADD-4, EXEC-5: a turn still running in the log (the process died) is closed as cancelled before the resumed session starts', async () => {
  const { session, events } = await h.start('build', h.deps({ provider: new HangingModel() }));
  const turn = session.submit('Explain the greeter');
  while (!events.some((e) => e.type === 'message.delta')) await new Promise((r) => setImmediate(r));

  // Another process resumes from the log as it is now, mid-turn.
  const resumed = await Session.resume(h.deps(), session.id);
  const added = resumeEvents(resumed);
  assert.deepEqual(
    added.map((e) => e.type),
    ['turn.completed', 'session.started'],
  );
  const closed = of(added, 'turn.completed')[0];
  assert.deepEqual(
    { status: closed?.status, reason: closed?.reason },
    { status: 'cancelled', reason: 'The session stopped while this turn was running.' },
  );
  assert.equal(resumed.state.status, 'cancelled');

  session.stop();
  await turn;
});

test('ADD-4: session.started says whether the session was resumed', async () => {
  const { session, events } = await h.start('build');
  assert.equal(of(events, 'session.started')[0]?.resumed, false);
  const resumed = await Session.resume(h.deps(), session.id);
  assert.equal(of(resumeEvents(resumed), 'session.started')[0]?.resumed, true);
});

test('RO-1: session.started, new and resumed, carries the tool runtime’s containment (sandboxed and its summary)', async () => {
  const tools = () =>
    createToolRuntime({
      root: h.root,
      ports: { fs: nodeFileSystem, shell: recordingShell([]), search: jsSearch, writer: nodeWriter },
    });
  const { session, events } = await h.start('build', h.deps({ tools: tools() }));
  const sandbox = { sandboxed: true, summary: 'sandbox: recording fake' };
  assert.deepEqual(of(events, 'session.started')[0]?.sandbox, sandbox);
  const resumed = await Session.resume(h.deps({ tools: tools() }), session.id);
  assert.deepEqual(of(resumeEvents(resumed), 'session.started')[0]?.sandbox, sandbox);
});

test('GATE-5, STORE-2: a changed log withdraws the pending approval with advice; a planning session gets no mode change', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session } = await h.start('plan');
  await session.submit('Add a shout flag');
  assert.ok(session.state.pendingApproval);
  appendFileSync(session.logPath, `${forgedNotice(session)}\n`);

  const resumed = await Session.resume(h.deps(), session.id);
  const added = resumeEvents(resumed);
  assert.deepEqual(
    added.map((e) => e.type),
    ['notice', 'plan.approval.resolved', 'turn.completed', 'session.started'],
  );
  const end = of(added, 'turn.completed')[0];
  assert.deepEqual(
    { status: end?.status, reason: end?.reason },
    { status: 'idle', reason: 'The plan was not approved; say "implement" to review it again.' },
  );
  assert.equal(resumed.state.pendingApproval, null);
});

test('MODE-1, STORE-2: a changed log returns an execution agent to plan mode and the switch says why', async () => {
  const { session } = await h.start('auto');
  appendFileSync(session.logPath, `${forgedNotice(session)}\n`);
  const resumed = await Session.resume(h.deps(), session.id);
  const changed = of(resumeEvents(resumed), 'mode.changed');
  assert.deepEqual(
    changed.map((e) => ({ from: e.from, to: e.to, switchPath: e.switchPath, reason: e.reason })),
    [
      {
        from: 'auto',
        to: 'plan',
        switchPath: 'startup_plan_entry',
        reason: 'The session log was changed outside VT Code.',
      },
    ],
  );
});

test('ADD-4: a configured secret typed into a message is masked in the log, in the session that wrote it and after a resume', async () => {
  // Not key-shaped (`sk-…`), so only the configured secrets list can mask it.
  const secret = 'vt-local-7f3a9c2e1b';
  const deps = () => h.deps({ secrets: [secret] });
  h.server.enqueue({ text: 'Noted.' }, { text: 'Noted again.' });
  const { session } = await h.start('build', deps());
  await session.submit(`My token is ${secret}, keep it out of the log`);
  assert.doesNotMatch(readFileSync(session.logPath, 'utf8'), new RegExp(secret));
  const resumed = await Session.resume(deps(), session.id);
  await resumed.submit(`Again: ${secret}`);
  const log = readFileSync(session.logPath, 'utf8');
  assert.doesNotMatch(log, new RegExp(secret));
  assert.match(log, /Again: \[redacted\]/, 'the resumed session wrote its message, masked');
});
