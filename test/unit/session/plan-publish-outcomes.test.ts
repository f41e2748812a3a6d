/**
 * How a plan answer is published (src/core/session/turn/plan-publish.ts), as the caller sees it:
 * the rejection events and end reasons (SYN-4, EXEC-4), what is written and announced when it is
 * saved (STORE-1), how a failed or refused save ends the turn, and how an accepted mid-execution
 * revision is announced and continued (EXEC-4, MODE-7).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validatePlan } from '../../../src/core/plan';
import { nodeFileSystem } from '../../../src/node/fs';
import type { AppendFileSystem, FileSystem } from '../../../src/core/ports';
import { INVALID_PLAN, of, planText, REVISED_PLAN, useHarness, VALID_PLAN } from './harness';

const h = useHarness();
const PLAN_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';

/** The rejection reasons as plan.rejected must carry them: code, message and the line when there is one. */
function expectedReasons(plan: string) {
  return validatePlan(plan).errors.map((e) => ({
    code: e.code,
    message: e.message,
    ...(e.line ? { line: e.line } : {}),
  }));
}

/**
 * The Node file system, except that staging the temp file of the plan file first runs `onStage`
 * (an edit by the user at that moment, or a failing disk).
 */
function stagingFs(onStage: () => void): FileSystem & AppendFileSystem {
  return {
    ...nodeFileSystem,
    async writeNewFileDurable(path, content, mode) {
      if (path.includes('add-a-shout-flag-to-the-greeter.md')) onStage();
      return nodeFileSystem.writeNewFileDurable(path, content, mode);
    },
  };
}

test('SYN-4: each invalid draft is reported with its reasons and lines, only the last attempt as final, and the end reason lists every message', async () => {
  h.server.enqueue(
    { text: planText(INVALID_PLAN) },
    { text: planText(INVALID_PLAN) },
    { text: planText(INVALID_PLAN) },
  );
  const { session, events } = await h.start('plan');
  await session.submit('Make it shout');

  const reasons = expectedReasons(INVALID_PLAN);
  assert.ok(
    reasons.some((r) => 'line' in r),
    'the sample has an error with a line',
  );
  const rejected = of(events, 'plan.rejected');
  assert.deepEqual(
    rejected.map((r) => ({ attempt: r.attempt, final: r.final, reasons: r.reasons })),
    [
      { attempt: 0, final: false, reasons },
      { attempt: 1, final: false, reasons },
      { attempt: 2, final: true, reasons },
    ],
  );
  const end = of(events, 'turn.completed').at(-1);
  assert.equal(end?.status, 'blocked');
  assert.equal(end?.reason, `The plan is still invalid after 2 repairs: ${reasons.map((r) => r.message).join('; ')}`);
});

test('STORE-1: plan.persisted names the saved file and the plan title', async () => {
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan');
  await session.submit('Make it shout');
  assert.deepEqual(
    of(events, 'plan.persisted').map(({ planFile, title }) => ({ planFile, title })),
    [{ planFile: PLAN_FILE, title: 'Add a shout flag to the greeter' }],
  );
});

test("STORE-1: a re-plan with a new title overwrites the session's plan file instead of starting a second one", async () => {
  const retitled = VALID_PLAN.replace('# Add a shout flag to the greeter', '# Let the greeter shout');
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: planText(retitled) });
  const { session, events } = await h.start('plan');
  await session.submit('Make it shout');
  await session.submit('Retitle it');

  assert.deepEqual(
    of(events, 'plan.persisted').map((p) => p.planFile),
    [PLAN_FILE, PLAN_FILE],
  );
  assert.deepEqual(
    h.plansOnDisk().filter((f) => f.endsWith('.md') && !f.endsWith('.tasks.md')),
    ['add-a-shout-flag-to-the-greeter.md'],
  );
  assert.match(readFileSync(join(h.root, PLAN_FILE), 'utf8'), /^# Let the greeter shout/);
});

test('STORE-1: a plan file edited while the re-plan is being saved keeps the edit and ends the planning turn blocked with the path', async () => {
  let armed = false;
  const fs = stagingFs(() => {
    if (armed) writeFileSync(join(h.root, PLAN_FILE), '# My own edit\n');
  });
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: planText(REVISED_PLAN) });
  const { session, events } = await h.start('plan', h.deps({ fs }));
  await session.submit('Make it shout');
  armed = true;
  await session.submit('Revise it');

  assert.equal(readFileSync(join(h.root, PLAN_FILE), 'utf8'), '# My own edit\n');
  assert.deepEqual(
    of(events, 'turn.completed')
      .map(({ status, reason }) => ({ status, reason }))
      .at(-1),
    {
      status: 'blocked',
      reason: `${join(h.root, PLAN_FILE)} was edited outside the session; your edit was kept. Review it, then ask to re-plan.`,
    },
  );
  assert.equal(of(events, 'plan.persisted').length, 1);
  assert.equal(of(events, 'plan.approval.requested').length, 1, 'only the first draft went to the gate');
});

test('STORE-1: a save that fails ends the planning turn blocked with the error, and nothing goes to the gate', async () => {
  const fs = stagingFs(() => {
    throw new Error('disk full');
  });
  h.server.enqueue({ text: planText(VALID_PLAN) });
  const { session, events } = await h.start('plan', h.deps({ fs }));
  await session.submit('Make it shout');

  const end = of(events, 'turn.completed').at(-1);
  assert.equal(end?.status, 'blocked');
  assert.match(end?.reason ?? '', /^Could not save the plan: could not write .*: disk full$/);
  assert.equal(of(events, 'plan.persisted').length, 0);
  assert.equal(of(events, 'plan.approval.requested').length, 0);
});

test('EXEC-4: an invalid revision with no plan in the session is rejected with its reasons and lines, naming no file', async () => {
  h.server.enqueue({ text: planText(INVALID_PLAN) });
  const { session, events } = await h.start('build');
  await session.submit('Add a shout flag');

  const reasons = expectedReasons(INVALID_PLAN);
  assert.deepEqual(of(events, 'plan.rejected').at(-1)?.reasons, reasons);
  assert.deepEqual(
    of(events, 'turn.completed')
      .map(({ status, reason }) => ({ status, reason }))
      .at(-1),
    {
      status: 'blocked',
      reason: `The revised plan was rejected and nothing was overwritten: ${reasons.map((r) => r.message).join('; ')}`,
    },
  );
});

test('EXEC-4: a revision whose plan file was edited during the save ends the execution turn blocked with the path', async () => {
  let armed = false;
  const fs = stagingFs(() => {
    if (armed) writeFileSync(join(h.root, PLAN_FILE), '# My own edit\n');
  });
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: planText(REVISED_PLAN) });
  const { session, events } = await h.start('plan', h.deps({ fs }));
  await session.submit('Make it shout');
  armed = true;
  await session.approve('execute');

  assert.equal(readFileSync(join(h.root, PLAN_FILE), 'utf8'), '# My own edit\n');
  assert.deepEqual(
    of(events, 'turn.completed')
      .map(({ status, reason }) => ({ status, reason }))
      .at(-1),
    {
      status: 'blocked',
      reason: `${join(h.root, PLAN_FILE)} was edited outside the session; your edit was kept. Review it, then ask to re-plan.`,
    },
  );
});

test('EXEC-4: a saved revision whose checklist cannot be read ends the execution turn blocked, saying the plan was saved and why the checklist was not', async () => {
  const sidecar = join(h.root, '.vtcode/plans/add-a-shout-flag-to-the-greeter.tasks.md');
  let armed = false;
  const fs = stagingFs(() => {
    if (!armed) return;
    // The checklist becomes unreadable (a folder where the file was) while the revision is saved.
    rmSync(sidecar, { force: true });
    mkdirSync(sidecar);
  });
  h.server.enqueue({ text: planText(VALID_PLAN) }, { text: planText(REVISED_PLAN) });
  const { session, events } = await h.start('plan', h.deps({ fs }));
  await session.submit('Make it shout');
  armed = true;
  await session.approve('execute');

  assert.equal(readFileSync(join(h.root, PLAN_FILE), 'utf8'), `${REVISED_PLAN}\n`);
  const end = of(events, 'turn.completed').at(-1);
  assert.equal(end?.status, 'blocked');
  assert.match(
    end?.reason ?? '',
    /^The revised plan was saved to \.vtcode\/plans\/add-a-shout-flag-to-the-greeter\.md, but the existing checklist could not be read: \S/,
  );
  assert.equal(end?.reason?.split('existing checklist').length, 2, 'the checklist reason appears once, as written');
});

test('EXEC-4: a revision outside an approved turn waits at the gate with its reason', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) });
  const { session, events } = await h.start('build');
  await session.submit('Add a shout flag');
  assert.deepEqual(
    of(events, 'turn.completed')
      .map(({ status, reason }) => ({ status, reason }))
      .at(-1),
    {
      status: 'awaiting_approval',
      reason: 'The agent revised the plan during execution; review it before work continues.',
    },
  );
});

test('EXEC-4: under auto the accepted revision is announced as accepted by Auto, and the work continues with tools open', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await h.start('auto');
  await session.submit('Add a shout flag');

  assert.equal(
    of(events, 'notice').at(-1)?.text,
    `The agent proposed a revised plan during execution; Auto accepted it (${PLAN_FILE}) and work continues.`,
  );
  assert.deepEqual(
    of(events, 'directive').map((d) => [d.kind, d.toolsClosed]),
    [['handoff', false]],
  );
  assert.equal(h.body(1).tool_choice, 'auto');
});

test('EXEC-4, MODE-7: in build with plan confirmation off the revision is announced as accepted because confirmation is off', async () => {
  h.server.enqueue({ text: planText(REVISED_PLAN) }, { text: 'Implemented.' });
  const { session, events } = await h.start('build', h.deps({ planConfirmation: 'skip' }));
  await session.submit('Add a shout flag');

  assert.equal(
    of(events, 'notice').at(-1)?.text,
    `The agent proposed a revised plan during execution; plan confirmation is off, so it was accepted (${PLAN_FILE}) and work continues.`,
  );
});
