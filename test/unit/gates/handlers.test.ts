/**
 * The planning gates for other agents (issue 18 items 2 and 3): the shared handlers called
 * directly, over a real temp workspace. The MCP surface is tested in test/unit/cli/mcp.test.ts.
 */
import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GATE_TOOLS, findGate, gateJsonSchema, type GateContext, type ReadyPlan } from '../../../src/core/gates';
import { taskTrackerTool } from '../../../src/core/tools';
import { loadTracker, locateNewestTracker } from '../../../src/core/tracker';
import { nodeFileSystem } from '../../../src/node/fs';
import { ctxFor, makeWorkspace, type Workspace } from '../tools/helpers';

const FIXTURES = path.join(__dirname, '../../fixtures/plans');
const READY_PLAN = fs.readFileSync(path.join(FIXTURES, 'valid/docs-only-readme.md'), 'utf8');
const READY_SLUG = 'refresh-readme-and-install-guide-for-2-0';
/** Step 1 has no `verify:` (line 17). */
const NOT_READY_PLAN = fs.readFileSync(path.join(FIXTURES, 'invalid/step_missing_verify--no-verify.md'), 'utf8');

let ws: Workspace;
let ready: ReadyPlan[];
let ctx: GateContext;
beforeEach(() => {
  ws = makeWorkspace();
  ready = [];
  ctx = { root: ws.root, fs: nodeFileSystem, onPlanReady: (plan) => void ready.push(plan) };
});
afterEach(() => ws.cleanup());

const call = (name: Parameters<typeof findGate>[0], input: unknown) => findGate(name).handler(input, ctx);

test('issue 18 item 3: one table of four gates; reading ones are marked read-only; task_tracker shares the chat tool schema', () => {
  assert.deepEqual(
    GATE_TOOLS.map((g) => [g.name, g.readOnly]),
    [
      ['validatePlan', true],
      ['checkCommand', true],
      ['taskTracker', false],
      ['savePlan', false],
    ],
  );
  assert.equal(findGate('taskTracker').inputSchema, taskTrackerTool.schema);
  for (const gate of GATE_TOOLS) {
    assert.ok(gate.title.length > 0 && gate.description.length > 80, gate.name);
    assert.equal(gateJsonSchema(gate).type, 'object', gate.name);
  }
  assert.deepEqual(Object.keys((gateJsonSchema(findGate('checkCommand')) as { properties: object }).properties), [
    'command',
    'mode',
  ]);
});

test('PLAN-2 … PLAN-6: validatePlan reports a ready plan with its steps', async () => {
  const r = await call('validatePlan', { plan: READY_PLAN });
  assert.equal(r.ok, true, r.text);
  assert.equal(r.data.ready, true);
  assert.match(r.text, /^The plan is ready \(3 steps, 0 warnings\)\./);
  assert.match(
    r.text,
    /\n1\. Remove the `--legacy-mode` section from README\.md -> files: \[README\.md\] -> verify: \[/,
  );
  assert.equal((r.data.steps as unknown[]).length, 3);
});

test('PLAN-3, PLAN-8: validatePlan says why a plan is not ready: code, step, line, and the format to follow', async () => {
  const r = await call('validatePlan', { plan: NOT_READY_PLAN });
  assert.equal(r.ok, true, 'a verdict is a successful call');
  assert.equal(r.data.ready, false);
  assert.match(r.text, /^The plan is not ready: 1 error, 0 warnings\. Fix every error and validate again\./);
  assert.match(r.text, /\n- \[step 1, line 17\] step_missing_verify: Step 1 has no `verify:`/);
  assert.match(r.text, /\nPlan format:\n- Required sections: `## Summary`/);
  assert.deepEqual(r.data.errors, [
    {
      code: 'step_missing_verify',
      message: (r.data.errors as Array<{ message: string }>)[0]?.message,
      step: 1,
      section: 'Implementation Steps',
      line: 17,
    },
  ]);
});

test('PLAN-1: validatePlan takes a response holding a <proposed_plan> block; lines point into the response', async () => {
  const response = `Here is the plan.\n\n<proposed_plan>\n${NOT_READY_PLAN}</proposed_plan>\n`;
  const r = await call('validatePlan', { plan: response });
  assert.match(r.text, /\[step 1, line 20\] step_missing_verify/);
});

test('PLAN-2: validatePlan reads a workspace-relative plan file', async () => {
  ws.write('.vtcode/plans/draft.md', NOT_READY_PLAN);
  const r = await call('validatePlan', { path: '.vtcode/plans/draft.md' });
  assert.equal(r.ok, true, r.text);
  assert.equal(r.data.path, '.vtcode/plans/draft.md');
  assert.match(r.text, /^`\.vtcode\/plans\/draft\.md` is not ready: 1 error/);
});

test('validatePlan refuses a path outside the workspace, by `..`, absolute or through a symlink, and reads nothing', async () => {
  fs.writeFileSync(path.join(ws.outside, 'secret.md'), READY_PLAN);
  fs.symlinkSync(path.join(ws.outside, 'secret.md'), path.join(ws.root, 'link.md'));
  fs.symlinkSync(ws.outside, path.join(ws.root, 'linkdir'));
  const cases: Array<[string, RegExp]> = [
    ['../outside/secret.md', /climbs out with `\.\.`/],
    [path.join(ws.outside, 'secret.md'), /is an absolute path/],
    ['link.md', /resolves through a symbolic link to `.*\/outside\/secret\.md`/],
    ['linkdir/secret.md', /resolves through a symbolic link/],
  ];
  for (const [given, why] of cases) {
    const r = await call('validatePlan', { path: given });
    assert.equal(r.ok, false, given);
    assert.equal(r.error?.code, 'outside_workspace', given);
    assert.match(r.text, why, given);
    assert.equal(r.data.ready, undefined, `${given}: no report of the outside file`);
  }
});

test('validatePlan: a missing file, a folder, both or neither input are errors with a clear message', async () => {
  assert.equal((await call('validatePlan', { path: 'nope.md' })).error?.code, 'not_found');
  fs.mkdirSync(path.join(ws.root, 'dir'));
  assert.match((await call('validatePlan', { path: 'dir' })).text, /`dir` is a folder/);
  for (const input of [{}, { plan: READY_PLAN, path: 'x.md' }]) {
    const r = await call('validatePlan', input);
    assert.equal(r.error?.code, 'invalid_args');
    assert.match(
      r.text,
      /^Invalid arguments for validatePlan: .*give exactly one of `plan` \(the markdown\) or `path`/,
    );
  }
  const r = await call('validatePlan', { plan: READY_PLAN, extra: 1 });
  assert.match(r.text, /unknown field `extra`/);
});

test('RO-2, RO-3: checkCommand judges like run_command: read-only passes in plan mode, a mutation does not', async () => {
  const ok = await call('checkCommand', { command: 'rg -n TODO src | head -5' });
  assert.equal(ok.ok, true);
  assert.equal(ok.data.allowed, true);
  assert.equal(ok.data.mode, 'plan', 'plan is the default mode');
  assert.match(ok.text, /^allowed \(inspection, plan mode\)/);

  const rm = await call('checkCommand', { command: 'rm -rf build', mode: 'plan' });
  assert.equal(rm.ok, true, 'a rejection is a verdict, not a failed call');
  assert.equal(rm.data.allowed, false);
  assert.equal(rm.data.class, 'mutation');
  assert.match(rm.text, /^rejected \(mutation, plan mode\): /);

  const build = await call('checkCommand', { command: 'rm -rf build', mode: 'build' });
  assert.equal(build.data.allowed, true);

  const redirect = await call('checkCommand', { command: 'cat a.txt > b.txt' });
  assert.equal(redirect.data.allowed, false);
  assert.match(redirect.text, /redirection/);
});

test('MODE-1: checkCommand applies the workspace path rule in every mode', async () => {
  const r = await call('checkCommand', { command: 'cat /etc/passwd', mode: 'auto' });
  assert.equal(r.data.allowed, false);
  assert.deepEqual(r.data.root, ws.root);
  assert.match(
    r.text,
    /^rejected \(inspection, auto mode, outside the workspace\): `\/etc\/passwd` is outside the workspace/,
  );
});

test('checkCommand: a bad mode or an empty command is invalid input with the zod message', async () => {
  const mode = await call('checkCommand', { command: 'ls', mode: 'yolo' });
  assert.equal(mode.error?.code, 'invalid_args');
  assert.match(mode.text, /`mode`: Invalid option: expected one of "plan"\|"build"\|"auto"/);
  assert.match((await call('checkCommand', { command: '  ' })).text, /`command`: the command is empty/);
  assert.match((await call('checkCommand', {})).text, /`command`: Invalid input: expected string, received undefined/);
});

test('TRK-1: taskTracker lists, creates, updates and adds over the workspace checklist the Tasks view reads', async () => {
  const empty = await call('taskTracker', { action: 'list' });
  assert.equal(empty.ok, true);
  assert.equal(empty.data.status, 'empty');

  const created = await call('taskTracker', { action: 'create', title: 'Ship it', items: ['Write code', 'Test it'] });
  assert.equal(created.data.status, 'created', created.text);
  const updated = await call('taskTracker', { action: 'update', index_path: '1', status: 'completed' });
  assert.equal(updated.data.status, 'updated', updated.text);
  const added = await call('taskTracker', { action: 'add', description: 'Release notes', parent_index_path: '2' });
  assert.equal(added.data.status, 'updated', added.text);

  // What the Tasks view shows: the same location rule, read from disk.
  const snapshot = await loadTracker(nodeFileSystem, await locateNewestTracker(nodeFileSystem, ws.root));
  assert.equal(snapshot.checklist?.title, 'Ship it');
  assert.deepEqual(
    snapshot.checklist?.items.map((i) => [i.description, i.status, i.children.map((c) => c.description)]),
    [
      ['Write code', 'completed', []],
      ['Test it', 'pending', ['Release notes']],
    ],
  );
  const listed = JSON.parse((await call('taskTracker', { action: 'list' })).text) as {
    checklist: { completed: number };
  };
  assert.equal(listed.checklist.completed, 1);
});

test('TRK-7: taskTracker updates the approved plan sidecar, the checklist the Tasks view follows', async () => {
  ws.write(`.vtcode/plans/${READY_SLUG}.md`, READY_PLAN);
  ws.write(`.vtcode/plans/${READY_SLUG}.tasks.md`, '# Refresh\n\n- [ ] Remove the section\n- [ ] Replace the link\n');
  const r = await call('taskTracker', { action: 'update', index: 2, status: 'in_progress' });
  assert.equal(r.ok, true, r.text);
  assert.match(ws.read(`.vtcode/plans/${READY_SLUG}.tasks.md`), /- \[~\] Replace the link/);
});

test('issue 18 item 3, TRK-3: taskTracker answers exactly what the chat tool answers, refusals included', async () => {
  ws.write('.vtcode/tasks/current_task.md', '# Work\n\n- [x] One\n- [ ] Two\n');
  for (const input of [
    { action: 'list' },
    { action: 'update', index: 9, status: 'completed' },
    { action: 'create', items: '["a"]' },
  ]) {
    const gate = await call('taskTracker', input);
    const chat = await taskTrackerTool.run(input, ctxFor(ws));
    assert.equal(gate.text, chat.content, JSON.stringify(input));
    assert.equal(gate.ok, chat.ok, JSON.stringify(input));
  }
  const refused = await call('taskTracker', { action: 'create', items: '["a"]' });
  assert.equal(refused.error?.code, 'json_string');
});

test('STORE-1, GATE-3: savePlan saves a ready plan under .vtcode/plans/ and tells the host, which asks the user', async () => {
  const r = await call('savePlan', { plan: READY_PLAN });
  assert.equal(r.ok, true, r.text);
  const rel = `.vtcode/plans/${READY_SLUG}.md`;
  assert.equal(r.data.path, rel);
  assert.match(
    r.text,
    new RegExp(
      `^Saved the plan to \`${rel.replace(/\./g, '\\.')}\` \\(3 steps, 0 warnings\\)\\. It is not approved yet`,
    ),
  );
  assert.match(ws.read(rel), /^# Refresh README and install guide for 2\.0\n/);
  assert.equal(fs.statSync(path.join(ws.root, rel)).mode & 0o777, 0o600, 'private (STORE-2)');
  assert.deepEqual(ready, [
    {
      slug: READY_SLUG,
      path: path.join(ws.root, rel),
      relativePath: rel,
      title: 'Refresh README and install guide for 2.0',
      status: 'written',
    },
  ]);
  const again = await call('savePlan', { plan: READY_PLAN });
  assert.equal(again.data.status, 'unchanged');
  assert.equal(ready.length, 2, 'an unchanged ready plan is offered for approval again');
});

test('STORE-1: savePlan refuses a plan that is not ready: nothing written, nobody told, the errors to fix', async () => {
  const r = await call('savePlan', { plan: NOT_READY_PLAN });
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'not_ready');
  assert.match(r.text, /^Not saved: the plan is not ready\.\n\nThe plan is not ready: 1 error/);
  assert.match(r.text, /\[step 1, line 17\] step_missing_verify/);
  assert.equal(ws.exists('.vtcode'), false);
  assert.deepEqual(ready, []);
});

test('STORE-1: savePlan keeps a valid plan when a broken revision is saved under its slug', async () => {
  await call('savePlan', { plan: READY_PLAN });
  const before = ws.read(`.vtcode/plans/${READY_SLUG}.md`);
  const r = await call('savePlan', { plan: NOT_READY_PLAN, slug: READY_SLUG });
  assert.equal(r.error?.code, 'not_ready');
  assert.match(r.text, new RegExp(`The valid plan already at \`\\.vtcode/plans/${READY_SLUG}\\.md\` was kept\\.`));
  assert.equal(ws.read(`.vtcode/plans/${READY_SLUG}.md`), before);
});

test('STORE-2: savePlan refuses to write through a symlinked plans folder that leads out of the workspace', async () => {
  fs.mkdirSync(path.join(ws.root, '.vtcode'));
  fs.symlinkSync(ws.outside, path.join(ws.root, '.vtcode/plans'));
  const r = await call('savePlan', { plan: READY_PLAN });
  assert.equal(r.ok, false, r.text);
  assert.match(r.error?.code ?? '', /^store_(symlink|outside_root)$/);
  assert.deepEqual(fs.readdirSync(ws.outside), []);
  assert.deepEqual(ready, []);
});

test('savePlan: a slug that is not a plan name is invalid input', async () => {
  const r = await call('savePlan', { plan: READY_PLAN, slug: '../escape' });
  assert.equal(r.error?.code, 'invalid_args');
  assert.match(r.text, /`slug`: use lower-case letters, digits and single dashes/);
  assert.equal(ws.exists('.vtcode'), false);
});
