/**
 * `vtplan mcp` (issue 18 item 2, ADD-2): the built dist/cli.js served over stdio and driven by the
 * MCP SDK's own client, as Claude Code, Codex or VS Code would drive it. The gates' behaviour in
 * detail is pinned in test/unit/gates/handlers.test.ts; this file pins the protocol surface.
 */
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from '../../../src/cli/run';
import type { CliIO } from '../../../src/cli/io';
import { TASK_TRACKER_TOOL } from '../../../src/core/tools/task-tracker';
import { makeWorkspace, type Workspace } from '../tools/helpers';

const repo = join(__dirname, '..', '..', '..');
const cli = join(repo, 'dist', 'cli.js');
const FIXTURES = join(repo, 'test/fixtures/plans');
const READY_PLAN = fs.readFileSync(join(FIXTURES, 'valid/docs-only-readme.md'), 'utf8');
const NOT_READY_PLAN = fs.readFileSync(join(FIXTURES, 'invalid/step_missing_verify--no-verify.md'), 'utf8');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestSourceMtime(p) : fs.statSync(p).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

let ws: Workspace;
let client: Client;
let stderr = '';
const clientErrors: Error[] = [];

before(async () => {
  // A dist/cli.js older than the sources (say, from before `mcp` existed) would test the wrong program.
  if (!fs.existsSync(cli) || fs.statSync(cli).mtimeMs < newestSourceMtime(join(repo, 'src'))) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' });
    assert.equal(build.status, 0, 'scripts/build.mjs failed');
  }
  ws = makeWorkspace();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--workspace', ws.root],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'vtplan-test', version: '0.0.0' });
  // A line on stdout that is not a protocol message lands here.
  client.onerror = (err) => void clientErrors.push(err);
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  ws?.cleanup();
});

async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return { ...result, text: first.type === 'text' ? first.text : '' };
}

test('issue 18 item 2: tools/list offers the four gates with titles, annotations and the zod-derived input schemas', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => [t.name, t.title, t.annotations?.readOnlyHint, t.annotations?.destructiveHint]),
    [
      ['validatePlan', 'Validate plan', true, false],
      ['checkCommand', 'Check command', true, false],
      ['taskTracker', 'Task tracker', false, false],
      ['savePlan', 'Save plan', false, false],
    ],
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const schema = (name: string) => byName.get(name)?.inputSchema as { properties: Record<string, unknown> } & object;
  assert.deepEqual(Object.keys(schema('validatePlan').properties), ['plan', 'path']);
  assert.deepEqual((schema('checkCommand').properties.mode as { enum: string[] }).enum, ['plan', 'build', 'auto']);
  assert.equal((schema('savePlan') as { additionalProperties?: boolean }).additionalProperties, false);
  // item 3: the chat's task_tracker schema, field for field.
  assert.deepEqual(
    Object.keys(schema('taskTracker').properties),
    Object.keys((TASK_TRACKER_TOOL.parameters as { properties: object }).properties),
  );
  assert.match(byName.get('savePlan')?.description ?? '', /does not approve the plan/);
});

test('PLAN-2 … PLAN-6: validatePlan over MCP: a ready plan, and a plan that is not ready with code, step and line', async () => {
  const ok = await callTool('validatePlan', { plan: READY_PLAN });
  assert.equal(ok.isError, undefined);
  assert.match(ok.text, /^The plan is ready \(3 steps, 0 warnings\)\./);
  assert.equal(ok.structuredContent?.ready, true);

  const bad = await callTool('validatePlan', { plan: NOT_READY_PLAN });
  assert.equal(bad.isError, undefined, 'a not-ready verdict is not a tool error');
  assert.match(bad.text, /\[step 1, line 17\] step_missing_verify/);
  assert.equal(bad.structuredContent?.ready, false);
});

test('validatePlan over MCP refuses a path out of the workspace as an error result', async () => {
  fs.writeFileSync(join(ws.outside, 'plan.md'), READY_PLAN);
  fs.symlinkSync(join(ws.outside, 'plan.md'), join(ws.root, 'out.md'));
  for (const path of ['../outside/plan.md', 'out.md']) {
    const r = await callTool('validatePlan', { path });
    assert.equal(r.isError, true, path);
    assert.match(r.text, /outside the workspace/, path);
  }
});

test('RO-2, MODE-1: checkCommand over MCP gives the verdict with the workspace path rule', async () => {
  const r = await callTool('checkCommand', { command: 'git log --oneline -5' });
  assert.equal(r.structuredContent?.allowed, true, r.text);
  const out = await callTool('checkCommand', { command: 'cat /etc/hostname', mode: 'build' });
  assert.equal(out.isError, undefined);
  assert.equal(out.structuredContent?.allowed, false);
  assert.match(out.text, /^rejected \(inspection, build mode, outside the workspace\)/);
});

test('TRK-1: taskTracker over MCP creates, updates, adds and lists the workspace checklist', async () => {
  const created = await callTool('taskTracker', { action: 'create', title: 'MCP work', items: ['One', 'Two'] });
  assert.equal(created.structuredContent?.status, 'created', created.text);
  await callTool('taskTracker', { action: 'update', index: 1, status: 'completed' });
  await callTool('taskTracker', { action: 'add', description: 'Three' });
  const listed = await callTool('taskTracker', { action: 'list' });
  const checklist = JSON.parse(listed.text) as { checklist: { items: Array<{ description: string; status: string }> } };
  assert.deepEqual(
    checklist.checklist.items.map((i) => [i.description, i.status]),
    [
      ['One', 'completed'],
      ['Two', 'pending'],
      ['Three', 'pending'],
    ],
  );
  assert.match(ws.read('.vtcode/tasks/current_task.md'), /- \[x\] One/);
});

test('STORE-1, GATE-6: savePlan over MCP saves a ready plan, records it for approval in VS Code (and says so on stderr), refuses one that is not ready', async () => {
  const refused = await callTool('savePlan', { plan: NOT_READY_PLAN });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^Not saved: the plan is not ready\./);
  assert.equal(ws.exists('.vtcode/plans/fix-off-by-one-in-parser-cursor-advance.md'), false);

  const saved = await callTool('savePlan', { plan: READY_PLAN });
  assert.equal(saved.isError, undefined, saved.text);
  const rel = '.vtcode/plans/refresh-readme-and-install-guide-for-2-0.md';
  assert.equal(saved.structuredContent?.path, rel);
  assert.ok(ws.exists(rel));
  // GATE-6: recorded for VS Code, which offers it "Ready to code?" (test/exthost/mcp-approval.test.ts).
  const record = JSON.parse(ws.read('.vtcode/approvals/refresh-readme-and-install-guide-for-2-0.json')) as object;
  assert.deepEqual(
    { ...record, savedAt: typeof (record as { savedAt?: unknown }).savedAt },
    {
      version: 1,
      plan: rel,
      title: 'Refresh README and install guide for 2.0',
      savedBy: 'vtplan mcp',
      savedAt: 'string',
    },
  );
  await until(() => stderr.includes(`vtplan mcp: plan ready for your approval: ${rel}`));
});

test('bad input gets an MCP error result with the zod message, and the server keeps answering', async () => {
  const mode = await callTool('checkCommand', { command: 'ls', mode: 'yolo' });
  assert.equal(mode.isError, true);
  assert.match(mode.text, /Invalid option: expected one of "plan"\|"build"\|"auto"/);
  assert.match(mode.text, /checkCommand/);

  const both = await callTool('validatePlan', { plan: READY_PLAN, path: 'x.md' });
  assert.equal(both.isError, true);
  assert.match(both.text, /give exactly one of `plan` \(the markdown\) or `path`/);

  const missing = await callTool('taskTracker', { items: [] });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /action/);

  const unknown = await callTool('deletePlan', {});
  assert.equal(unknown.isError, true);
  assert.match(unknown.text, /Tool deletePlan not found/);

  const still = await callTool('checkCommand', { command: 'ls' });
  assert.equal(still.structuredContent?.allowed, true);
  assert.deepEqual(clientErrors, [], 'stdout carried protocol messages only');
  assert.match(
    stderr,
    new RegExp(`^vtplan mcp: serving validatePlan, checkCommand, taskTracker, savePlan for ${ws.root}\\n`),
  );
});

test('ADD-2: vtplan mcp ends with exit 0 when its client closes stdin, having written nothing to stdout', () => {
  const r = spawnSync(process.execPath, [cli, 'mcp', '--workspace', ws.root], { input: '', encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
});

async function cliRun(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    readStdin: async () => '',
    cwd: ws.root,
    env: {},
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

test('ADD-2: vtplan mcp --help prints the usage, the tools and the client setup lines', async () => {
  const r = await cliRun('mcp', '--help');
  assert.equal(r.code, 0);
  assert.match(r.out, /^Usage: vtplan mcp \[--workspace DIR\]\n/);
  assert.match(r.out, /\n {2}validatePlan {2}read-only/);
  assert.match(r.out, /\n {2}savePlan {6}writes \.vtcode\//);
  assert.match(r.out, /claude mcp add vtplan -- node \/path\/to\/dist\/cli\.js mcp --workspace \/path\/to\/project/);
  assert.match(r.out, /\[mcp_servers\.vtplan\]/);
  assert.match(r.out, /\.vscode\/mcp\.json/);
  assert.match(r.out, /VS Code with VT Code Planning open on DIR asks "Ready to code\?"/);
});

test('ADD-2: vtplan mcp refuses a workspace that is not a folder and stray arguments (exit 2)', async () => {
  const missing = await cliRun('mcp', '--workspace', 'nope');
  assert.equal(missing.code, 2);
  assert.equal(missing.err, `vtplan mcp: workspace ${join(ws.root, 'nope')} does not exist\n`);
  fs.writeFileSync(join(ws.root, 'file.txt'), 'x');
  assert.match((await cliRun('mcp', '--workspace', 'file.txt')).err, /is not a folder/);
  assert.equal((await cliRun('mcp', 'extra')).code, 2);
  assert.equal((await cliRun('mcp', '--port', '3')).code, 2);
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), `condition not met; stderr so far:\n${stderr}`);
}
