/**
 * `vtplan run` / `vtplan resume` as a user runs them: the built CLI in a child process, the real
 * OpenAI SDK against the scripted model server, files on a temp workspace (ADD-2, GATE-5).
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionEventSchema, type SessionEvent } from '../../../src/core/session/events';
import { ensureBuiltCli, scriptedProviderFlags, spawnBuiltCli } from '../../fixtures/cli';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';
import { SHOUT_FLAG_PLAN } from '../../fixtures/plans/shout-flag';

const repo = join(__dirname, '..', '..', '..');
let server: ModelServer;
let root: string;
/** The CLI's private key folder for these runs (never the user's real ~/.local/state). */
const stateHome = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-cli-state-')));

const PLAN = SHOUT_FLAG_PLAN;

before(async () => {
  ensureBuiltCli();
  server = await startModelServer();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-cli-')));
  cpSync(join(repo, 'examples', 'sample-workspace'), root, { recursive: true });
});

after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
});

function vtplan(args: string[], env: Record<string, string> = {}) {
  return spawnBuiltCli(args, { ...process.env, ...env });
}

const provider = () => scriptedProviderFlags(root, server);
const env = { VTPLAN_TEST_KEY: 'sk-cli-secret', XDG_STATE_HOME: stateHome };

function events(stdout: string): SessionEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => SessionEventSchema.parse(JSON.parse(line)));
}

test('ADD-2, EVT-1: vtplan run --jsonl plans, persists and waits for approval; the JSONL stream alone tells the lifecycle', async () => {
  server.enqueue(
    { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: '{"path":"src/greet.js"}' }] },
    { text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` },
  );
  const r = await vtplan(['run', ...provider(), '--jsonl', 'Add a --shout flag'], env);
  assert.equal(r.code, 0, r.stderr);
  const evs = events(r.stdout);
  assert.equal(evs[0]?.type, 'session.started');
  assert.deepEqual(
    evs.filter((e) => e.type === 'turn.completed').map((e) => e.type === 'turn.completed' && e.status),
    ['awaiting_approval'],
  );
  const persisted = evs.find((e) => e.type === 'plan.persisted');
  assert.ok(persisted && persisted.type === 'plan.persisted');
  assert.ok(existsSync(join(root, persisted.planFile)));
  const id = /session: (\S+)/.exec(r.stderr)?.[1];
  assert.equal(id, evs[0]?.session);
  assert.ok(!r.stdout.includes('sk-cli-secret') && !r.stderr.includes('sk-cli-secret'), 'the key is never printed');
  // STORE-2: the log's lines are tagged with a key kept outside the workspace, which resume uses too.
  assert.deepEqual(readdirSync(join(stateHome, 'vtplan', 'log-keys')).length, 1);
  assert.match(
    readFileSync(join(root, '.vtcode', 'sessions', `${id}.jsonl`), 'utf8').split('\n')[0] ?? '',
    /,"mac":"[0-9a-f]{64}"\}$/,
  );

  // GATE-5: resuming and saying "approve" runs exactly one implementation turn.
  server.enqueue(
    {
      toolCalls: [
        {
          name: 'edit_file',
          arguments: JSON.stringify({
            path: 'src/greet.js',
            old_string: 'function greet(name) {',
            new_string: 'function greet(name, shout = false) {',
          }),
        },
      ],
    },
    { toolCalls: [{ name: 'task_tracker', arguments: '{"action":"update","index":1,"status":"completed"}' }] },
    { text: 'Implemented.' },
  );
  const r2 = await vtplan(['resume', id!, ...provider(), '--jsonl', 'approve'], env);
  assert.equal(r2.code, 0, r2.stderr);
  const evs2 = events(r2.stdout);
  assert.equal(evs2.filter((e) => e.type === 'notice').length, 0, 'a genuine log resumes without an integrity warning');
  assert.equal(evs2.filter((e) => e.type === 'turn.started' && e.kind === 'implementation').length, 1);
  assert.match(readFileSync(join(root, 'src/greet.js'), 'utf8'), /shout = false/);
  assert.match(
    readFileSync(join(root, '.vtcode/plans/add-a-shout-flag.tasks.md'), 'utf8'),
    /- \[x\] Add a `shout` parameter/,
  );
});

test('ADD-2: usage errors exit 2 with a hint; a missing key variable is named', async () => {
  const noGoal = await vtplan(['run', ...provider()], env);
  assert.equal(noGoal.code, 2);
  assert.match(noGoal.stderr, /give the goal/);
  const badMode = await vtplan(['run', ...provider(), '--mode', 'yolo', 'x'], env);
  assert.equal(badMode.code, 2);
  assert.match(badMode.stderr, /--mode must be plan, build or auto/);
  const noKey = await vtplan(['run', ...provider(), 'x'], { XDG_STATE_HOME: stateHome });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /VTPLAN_TEST_KEY/);
  const unknownSession = await vtplan(['resume', 'nope-123', ...provider(), 'hi'], env);
  assert.equal(unknownSession.code, 2);
});

test('SYN-4: vtplan run exits 3 when planning ends blocked', async () => {
  const bad =
    '<proposed_plan>\n# X\n\n## Summary\nx\n\n## Implementation Steps\n1. Do things -> verify: [run checks]\n\n## Test Cases and Validation\n- run checks\n\n## Assumptions and Defaults\n- TBD\n</proposed_plan>';
  server.enqueue({ text: bad }, { text: bad }, { text: bad });
  const r = await vtplan(['run', ...provider(), 'Do things'], env);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stdout, /plan rejected/);
});

test('MODE-7, GATE-5: vtplan run --skip-confirmations implements a plan from the starting plan agent at once; /plan <goal> still waits for approve', async () => {
  server.enqueue({ text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` }, { text: 'Implemented without a gate.' });
  const r = await vtplan(['run', ...provider(), '--skip-confirmations', '--jsonl', 'Add a --shout flag'], env);
  assert.equal(r.code, 0, r.stderr);
  const evs = events(r.stdout);
  const resolved = evs.find((e) => e.type === 'plan.approval.resolved');
  assert.ok(
    resolved && resolved.type === 'plan.approval.resolved' && resolved.choice === 'auto_accept' && resolved.automatic,
  );
  assert.deepEqual(
    evs.filter((e) => e.type === 'turn.started').map((e) => e.type === 'turn.started' && e.kind),
    ['user', 'implementation'],
  );
  assert.deepEqual(
    evs.filter((e) => e.type === 'turn.completed').map((e) => e.type === 'turn.completed' && e.status),
    ['idle', 'idle'],
  );

  server.enqueue({ text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` });
  const explicit = await vtplan(
    ['run', ...provider(), '--skip-confirmations', '--jsonl', '/plan Add a --shout flag'],
    env,
  );
  assert.equal(explicit.code, 0, explicit.stderr);
  const evs2 = events(explicit.stdout);
  assert.equal(evs2.filter((e) => e.type === 'plan.approval.resolved').length, 0);
  assert.deepEqual(
    evs2.filter((e) => e.type === 'turn.completed').map((e) => e.type === 'turn.completed' && e.status),
    ['awaiting_approval'],
  );
});
