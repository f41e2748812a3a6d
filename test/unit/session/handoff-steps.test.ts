/**
 * The approval handoff's steps as its callers see them (src/core/session/handoff.ts): which plan
 * file is approved, why a plan is refused (missing, unreadable, invalid), the implementation
 * prompt, the checklist written from the plan (TRK-7, EXEC-4) and how it is read back, and the
 * context share shown before a fresh-context handoff (GATE-1).
 */
import { afterEach, beforeEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileSystem } from '../../../src/core/ports';
import { validatePlan } from '../../../src/core/plan';
import type { EventInput } from '../../../src/core/session/events';
import { contextUsage, destinationOf, handOff, refreshTrackerFromPlan } from '../../../src/core/session/handoff';
import { initialState, type SessionState } from '../../../src/core/session/state';
import { loadTracker, renderExpanded, walk, type Checklist } from '../../../src/core/tracker';
import { GLOBAL_TRACKER_FILE } from '../../../src/core/tracker/store';
import type { HandoffChoice } from '../../../src/core/vocabulary';
import { nodeFileSystem } from '../../../src/node/fs';
import { INVALID_PLAN, VALID_PLAN } from './harness';

const PLAN_FILE = '.vtcode/plans/shout.md';
const TRACKER_FILE = '.vtcode/plans/shout.tasks.md';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-handoff-steps-')));
  cpSync(join(__dirname, '..', '..', '..', 'examples', 'sample-workspace'), root, { recursive: true });
  mkdirSync(join(root, '.vtcode', 'plans'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function planningState(plans: Pick<SessionState, 'pendingApproval' | 'activePlan'>): SessionState {
  const state = initialState({ id: 's1', workspace: root, provider: 'openai', model: 'scripted', agent: 'plan' });
  return { ...state, ...plans };
}

const pending = (planFile = PLAN_FILE) => planningState({ pendingApproval: { planFile }, activePlan: null });

function approve(state: SessionState, fs: FileSystem = nodeFileSystem) {
  const events: EventInput[] = [];
  const run = handOff(
    {
      fs,
      root,
      emit: async (e) => {
        events.push(e);
      },
      state: () => state,
    },
    'execute',
    false,
  );
  return { run, events };
}

function writePlan(markdown: string): void {
  writeFileSync(join(root, PLAN_FILE), markdown);
}

async function checklistOnDisk(): Promise<Checklist> {
  const { checklist } = await loadTracker(nodeFileSystem, {
    root,
    planFile: join(root, PLAN_FILE),
    planActive: true,
  });
  assert.ok(checklist, 'a checklist was written');
  return checklist;
}

const errorNotice = (text: string): EventInput => ({
  type: 'notice',
  level: 'error',
  text,
  switchPath: 'plan_approval',
});

test('GATE-3: with no plan pending and none active, the handoff refuses with step no_plan and says so in an error notice', async () => {
  const { run, events } = approve(planningState({ pendingApproval: null, activePlan: null }));
  const reason = 'There is no persisted plan to approve yet.';
  assert.deepEqual(await run, { ok: false, step: 'no_plan', reason });
  assert.deepEqual(events, [errorNotice(reason)]);
});

test('GATE-3, TRK-7: with no plan pending, the active plan is the one approved and its checklist is written', async () => {
  writePlan(VALID_PLAN);
  const { run, events } = approve(
    planningState({ pendingApproval: null, activePlan: { planFile: PLAN_FILE, title: null } }),
  );
  const result = await run;
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(
    events.find((e) => e.type === 'plan.approval.resolved'),
    { type: 'plan.approval.resolved', choice: 'execute', automatic: false, planFile: PLAN_FILE },
  );
  assert.deepEqual(
    walk((await checklistOnDisk()).items).map(({ item }) => item.description),
    ['Add the `shout` parameter to `greet` in src/greet.js', 'Cover the new parameter in test/greet.test.js'],
  );
});

test('GATE-3: a plan file deleted before approval is refused with step validate and "no longer exists; ask for a new plan"', async () => {
  const { run, events } = approve(pending());
  const reason = `The plan file ${PLAN_FILE} no longer exists; ask for a new plan.`;
  assert.deepEqual(await run, { ok: false, step: 'validate', reason });
  assert.deepEqual(events, [errorNotice(reason)]);
});

test('GATE-3: a plan file swapped for a symlink is refused with step validate and "cannot be read, so it was not approved"', async () => {
  writeFileSync(join(root, 'elsewhere.md'), VALID_PLAN);
  symlinkSync(join(root, 'elsewhere.md'), join(root, PLAN_FILE));
  const { run, events } = approve(pending());
  const result = await run;
  assert.equal(result.ok, false);
  assert.equal(result.ok === false && result.step, 'validate');
  const prefix = `The plan file ${PLAN_FILE} cannot be read, so it was not approved: `;
  assert.ok(
    result.ok === false && result.reason.startsWith(prefix) && result.reason.endsWith('.'),
    JSON.stringify(result),
  );
  assert.ok(result.ok === false && result.reason.length > prefix.length + 1, 'the read error is part of the reason');
  assert.deepEqual(events, [errorNotice(result.ok === false ? result.reason : '')]);
});

test('GATE-3: any other failure to read the plan file is not turned into a refusal: handOff rejects with that error', async () => {
  writePlan(VALID_PLAN);
  const failing: FileSystem = {
    ...nodeFileSystem,
    readText: async (p) => {
      if (p === join(root, PLAN_FILE)) throw new Error('EIO: i/o error reading the plan');
      return nodeFileSystem.readText(p);
    },
  };
  const { run, events } = approve(pending(), failing);
  await assert.rejects(run, /EIO: i\/o error reading the plan/);
  assert.deepEqual(events, [], 'no approval and no notice');
});

test('GATE-3: an invalid plan file is refused with step validate; the reason lists every validator error, "line N: " before those that have a line, joined by "; "', async () => {
  // INVALID_PLAN without its Summary: a missing section (no line) and step/placeholder errors (with lines).
  const markdown = INVALID_PLAN.replace('## Summary\nMake it shout.\n\n', '');
  writePlan(markdown);
  const errors = validatePlan(markdown).errors;
  assert.ok(errors.some((e) => !e.line) && errors.filter((e) => e.line).length >= 2, JSON.stringify(errors));
  const listed = errors.map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message)).join('; ');
  const reason = `The plan file ${PLAN_FILE} is not valid any more, so it was not approved: ${listed}`;
  const { run, events } = approve(pending());
  assert.deepEqual(await run, { ok: false, step: 'validate', reason });
  assert.deepEqual(events, [errorNotice(reason)]);
});

test('GATE-6, TRK-7: the implementation prompt names the plan file, carries the trimmed plan, then the checklist file and its expanded rendering', async () => {
  writePlan(`\n\n${VALID_PLAN}\n\n`);
  const { run } = approve(pending());
  const result = await run;
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(
    result.ok && result.implementationPrompt,
    [
      `The user approved the plan in ${PLAN_FILE}. Implement it now, step by step.`,
      '',
      VALID_PLAN,
      '',
      `Checklist (${TRACKER_FILE}); keep it current with task_tracker as you work:`,
      renderExpanded(await checklistOnDisk()),
    ].join('\n'),
  );
});

test('TRK-7: a plan with no numbered or checkbox Implementation Steps yields no checklist, and says why', async () => {
  const markdown = '# Notes\n\n## Implementation Steps\nJust prose, no list.\n';
  writePlan(markdown);
  assert.deepEqual(await refreshTrackerFromPlan(nodeFileSystem, root, join(root, PLAN_FILE), markdown), {
    ok: false,
    reason:
      'The checklist could not be written: the plan has no numbered or checkbox Implementation Steps to turn into tasks.',
  });
});

test('TRK-7, STORE-2: an existing checklist that cannot be read (a directory at its path) stops the refresh with "The existing checklist could not be read"', async () => {
  writePlan(VALID_PLAN);
  mkdirSync(join(root, TRACKER_FILE));
  const result = await refreshTrackerFromPlan(nodeFileSystem, root, join(root, PLAN_FILE), VALID_PLAN);
  assert.equal(result.ok, false);
  assert.match(result.ok === false ? result.reason : '', /^The existing checklist could not be read: \S/);
});

const CHECKBOX_PLAN = `# Greeter

## Implementation Steps
- [x] Add the  Shout  parameter -> outcome: greet takes a second argument
- [ ] Document the notable changes
  - [ ] Mention it in README.md
`;

test("TRK-7: the checklist keeps the plan's checked steps completed, sub-steps under their step, and an outcome only where the plan gives one", async () => {
  writePlan(CHECKBOX_PLAN);
  const result = await refreshTrackerFromPlan(nodeFileSystem, root, join(root, PLAN_FILE), CHECKBOX_PLAN);
  assert.equal(result.ok, true, JSON.stringify(result));
  const items = (await checklistOnDisk()).items;
  assert.deepEqual(
    items.map((i) => ({
      description: i.description,
      status: i.status,
      outcome: i.outcome,
      children: i.children.map((c) => c.description),
    })),
    [
      {
        description: 'Add the Shout parameter',
        status: 'completed',
        outcome: 'greet takes a second argument',
        children: [],
      },
      {
        description: 'Document the notable changes',
        status: 'pending',
        outcome: null,
        children: ['Mention it in README.md'],
      },
    ],
  );
});

test('EXEC-4, TRK-7: a revision keeps completed only the steps that were completed before (same words, ignoring letter case); other steps start from the plan', async () => {
  const before = `# Greeter

## Implementation Steps
- [x] Add the  Shout  parameter
- [x] Document the notable changes
- [ ] Mention it in README.md
`;
  writePlan(before);
  assert.equal((await refreshTrackerFromPlan(nodeFileSystem, root, join(root, PLAN_FILE), before)).ok, true);
  const revised = `# Greeter

## Implementation Steps
1. add THE shout PARAMETER
2. Document the not able changes
3. Mention it in README.md
`;
  writePlan(revised);
  const result = await refreshTrackerFromPlan(nodeFileSystem, root, join(root, PLAN_FILE), revised);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(
    (await checklistOnDisk()).items.map((i) => [i.description, i.status]),
    [
      ['add THE shout PARAMETER', 'completed'],
      ['Document the not able changes', 'pending'],
      ['Mention it in README.md', 'pending'],
    ],
  );
});

test('MODE-7: an unknown handoff choice throws "Unhandled handoff choice" instead of picking a destination', () => {
  assert.throws(() => destinationOf('bogus' as HandoffChoice), /^Error: Unhandled handoff choice: "bogus"$/);
});

/** The node file system, except that once the checklist is written, its two copies (sidecar and global) read as `content(path)`. */
function checklistReadsBackAs(content: (file: string) => string | null): FileSystem {
  const copies = [join(root, TRACKER_FILE), join(root, GLOBAL_TRACKER_FILE)];
  let written = false;
  return {
    ...nodeFileSystem,
    rename: async (from, to) => {
      await nodeFileSystem.rename(from, to);
      if (to === copies[1]) written = true;
    },
    readText: async (p) => (written && copies.includes(p) ? content(p) : nodeFileSystem.readText(p)),
  };
}

test('TRK-7: a checklist that reads back missing after the write is refused: "reads back empty; approval was not given"', async () => {
  writePlan(VALID_PLAN);
  const result = await refreshTrackerFromPlan(
    checklistReadsBackAs(() => null),
    root,
    join(root, PLAN_FILE),
    VALID_PLAN,
  );
  assert.deepEqual(result, {
    ok: false,
    reason: 'The checklist was written but reads back empty; approval was not given.',
  });
});

test('TRK-7: a checklist that reads back without items after the write is refused: "reads back empty; approval was not given"', async () => {
  writePlan(VALID_PLAN);
  const fs = checklistReadsBackAs((file) => readFileSync(file, 'utf8').replace(/^\s*- \[.\].*$/gm, ''));
  const result = await refreshTrackerFromPlan(fs, root, join(root, PLAN_FILE), VALID_PLAN);
  assert.deepEqual(result, {
    ok: false,
    reason: 'The checklist was written but reads back empty; approval was not given.',
  });
});

test('TRK-7: a checklist that cannot be read back after the write is refused: "written but could not be read back"', async () => {
  writePlan(VALID_PLAN);
  const fs = checklistReadsBackAs(() => {
    throw new Error('EIO: the disk went away');
  });
  const result = await refreshTrackerFromPlan(fs, root, join(root, PLAN_FILE), VALID_PLAN);
  assert.deepEqual(result, {
    ok: false,
    reason: 'The checklist was written but could not be read back: EIO: the disk went away',
  });
});

test('GATE-1: context usage counts message text and tool-call JSON at 4 characters a token of a 128k window, capped at 1', () => {
  const toolCalls = [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/greet.js"}' }];
  const state: SessionState = {
    ...pending(),
    history: [
      { role: 'user', content: 'x'.repeat(4_000) },
      { role: 'assistant', content: 'abc', toolCalls },
    ],
  };
  const chars = 4_000 + 3 + JSON.stringify(toolCalls).length;
  assert.equal(contextUsage(state), chars / 4 / 128_000);
  assert.equal(contextUsage(state, 1_000), 1);
});
