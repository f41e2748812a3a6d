import { test, beforeEach, afterEach } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { ShellRequest } from '../../../src/core/ports';
import { runCommandTool } from '../../../src/core/tools';
import { createNodeShell, nodeShell } from '../../../src/node/shell';
import { ctxFor, makeWorkspace, type Workspace } from './helpers';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write('a.txt', 'alpha\nbeta\n');
});
afterEach(() => ws.cleanup());

test('RO-2: plan mode runs a read-only command in the workspace root and reports the exit code', async () => {
  const r = await runCommandTool.run({ command: 'cat a.txt && pwd' }, ctxFor(ws));
  assert.ok(r.ok, r.content);
  assert.match(r.content, new RegExp(`^alpha\\nbeta\\n${ws.root}\\n\\[exit code 0 after \\d+\\.\\d s\\]$`));
  assert.match(r.summary, /^ran `cat a\.txt && pwd` \(exit 0, \d+\.\d s\)$/);
  assert.equal(r.target, 'cat a.txt && pwd');
  assert.equal(r.data?.exitCode, 0);
  assert.equal(r.data?.class, 'inspection');
});

test('RO-3: plan mode refuses a redirection with the policy reason before running it; the file is not created', async () => {
  const r = await runCommandTool.run({ command: 'echo x > f' }, ctxFor(ws));
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'refused');
  assert.match(r.content, /^Mutation blocked: output redirection `> f` writes a file/);
  assert.match(r.content, /the command was not run\.$/);
  assert.equal(ws.exists('f'), false);
});

test('RO-3: plan mode refuses in-place edits and unknown programs; nothing changes', async () => {
  for (const command of ['sed -i s/alpha/omega/ a.txt', 'touch new.txt', 'cat a.txt; rm a.txt']) {
    const r = await runCommandTool.run({ command }, ctxFor(ws));
    assert.equal(r.error?.code, 'refused', command);
    assert.match(r.content, /^Mutation blocked: /);
  }
  assert.equal(ws.read('a.txt'), 'alpha\nbeta\n');
  assert.equal(ws.exists('new.txt'), false);
});

test('MODE-1: auto mode runs a mutating command unattended; a non-zero exit is ok:false with stderr shown', async () => {
  const made = await runCommandTool.run({ command: 'echo x > f' }, ctxFor(ws, { mode: 'auto' }));
  assert.ok(made.ok);
  assert.equal(ws.read('f'), 'x\n');
  const failing = await runCommandTool.run(
    { command: 'echo out; echo oops >&2; exit 3' },
    ctxFor(ws, { mode: 'auto' }),
  );
  assert.equal(failing.ok, false);
  assert.equal(failing.error?.code, 'command_failed');
  assert.match(failing.content, /^out\n\[stderr\]\noops\n\[exit code 3 after/);
  assert.equal(failing.data?.exitCode, 3);
  assert.match(failing.summary, /\(exit 3, /);
});

test('MODE-1: build mode asks first; a yes runs the command, a no does not', async () => {
  const asked: string[] = [];
  const yes = await runCommandTool.run(
    { command: 'echo y > yes.txt' },
    ctxFor(ws, { mode: 'build', confirm: async (c) => (asked.push(c), true) }),
  );
  assert.ok(yes.ok);
  assert.deepEqual(asked, ['echo y > yes.txt']);
  assert.equal(ws.read('yes.txt'), 'y\n');
  const no = await runCommandTool.run(
    { command: 'echo n > no.txt' },
    ctxFor(ws, { mode: 'build', confirm: async () => false }),
  );
  assert.equal(no.error?.code, 'declined');
  assert.match(no.content, /The user declined to run `echo n > no\.txt`/);
  assert.equal(ws.exists('no.txt'), false);
  const nobody = await runCommandTool.run({ command: 'echo z > z.txt' }, ctxFor(ws, { mode: 'build' }));
  assert.equal(nobody.error?.code, 'refused');
  assert.equal(ws.exists('z.txt'), false);
});

test('RO-2, MODE-1: a command naming a path outside the workspace is refused: the tool refuses `cat /etc/hosts` in every mode before running or asking', async () => {
  for (const mode of ['plan', 'build', 'auto'] as const) {
    const ran: string[] = [];
    const asked: string[] = [];
    const ctx = ctxFor(ws, { mode, confirm: async (c) => (asked.push(c), true) });
    ctx.ports = {
      ...ctx.ports,
      shell: { ...nodeShell, run: async (request) => (ran.push(request.command), nodeShell.run(request)) },
    };
    const r = await runCommandTool.run({ command: 'cat /etc/hosts' }, ctx);
    assert.equal(r.ok, false, mode);
    assert.equal(r.error?.code, 'refused', mode);
    assert.match(
      r.content,
      new RegExp(
        `^Path blocked: \`/etc/hosts\` is outside the workspace \\(${ws.root}\\); commands may only name paths inside it.*The command was not run\\.$`,
      ),
      mode,
    );
    assert.deepEqual(ran, [], `${mode}: the shell never ran`);
    assert.deepEqual(asked, [], `${mode}: nobody was asked to confirm`);
  }
  // A path outside through `cd` or `..` is refused the same way; inside the workspace the command runs.
  for (const command of ['cd .. && ls', `cat ${ws.outside}/x`, 'cat ../outside/x']) {
    const r = await runCommandTool.run({ command }, ctxFor(ws, { mode: 'auto' }));
    assert.match(r.content, /^Path blocked: /, command);
  }
  const inside = await runCommandTool.run({ command: `cat ${ws.root}/a.txt` }, ctxFor(ws, { mode: 'auto' }));
  assert.ok(inside.ok, inside.content);
});

// `sleep 600` outlives the test's deadline: only the kill can end these commands in time.
test(
  'run_command: a `sleep 600` with a 200 ms timeout is killed and reports timedOut',
  { timeout: 60_000 },
  async () => {
    const r = await runCommandTool.run({ command: 'sleep 600' }, ctxFor(ws, { mode: 'auto', commandTimeoutMs: 200 }));
    assert.equal(r.ok, false);
    assert.equal(r.error?.code, 'timed_out');
    assert.equal(r.data?.timedOut, true);
    assert.match(r.content, /\[timed out after 0\.2 s; the command was killed\]$/);
  },
);

test('run_command: timeout_seconds from the model overrides the default, within the cap', async () => {
  const r = await runCommandTool.run(
    { command: 'sleep 5', timeout_seconds: 1 },
    ctxFor(ws, { mode: 'auto', commandTimeoutMs: 60_000 }),
  );
  assert.equal(r.data?.timedOut, true);
  const tooLong = await runCommandTool.run({ command: 'true', timeout_seconds: 100000 }, ctxFor(ws));
  assert.match(tooLong.content, /`timeout_seconds`: Too big/);
});

test('run_command: the whole process group is killed on timeout, children included', async () => {
  const marker = path.join(ws.root, 'child-survived');
  // The background child holds a FIFO open for writing: end of file on our side means it is gone,
  // killed or finished (no sleep decides when to look).
  const fifo = path.join(ws.root, 'child-alive');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const childGone = new Promise<void>((resolve, reject) =>
    fs.createReadStream(fifo).on('error', reject).on('close', resolve).resume(),
  );
  const r = await runCommandTool.run(
    { command: `(exec 3>${fifo}; sleep 1; touch ${marker}) & sleep 5` },
    ctxFor(ws, { mode: 'auto', commandTimeoutMs: 200 }),
  );
  assert.equal(r.data?.timedOut, true);
  await childGone;
  assert.equal(fs.existsSync(marker), false, 'the child was killed before it could touch the marker');
});

test('EXEC-5: aborting the turn kills a running command and reports it cancelled', { timeout: 60_000 }, async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 150);
  const r = await runCommandTool.run({ command: 'sleep 600' }, ctxFor(ws, { mode: 'auto', signal: controller.signal }));
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'cancelled');
  assert.match(r.content, /\[cancelled after .* the command was killed\]$/);
  const before = await runCommandTool.run({ command: 'echo never' }, ctxFor(ws, { signal: controller.signal }));
  assert.equal(before.error?.code, 'cancelled');
});

test('NAV-5: long output keeps its start and its end within the preview limit and says how to see the rest', async () => {
  const r = await runCommandTool.run({ command: 'seq 1 20000' }, ctxFor(ws, { previewBytes: 2048 }));
  assert.ok(r.ok);
  assert.ok(Buffer.byteLength(r.content) <= 2048, `${Buffer.byteLength(r.content)} bytes`);
  assert.ok(r.content.startsWith('1\n2\n3\n'));
  assert.match(
    r.content,
    /\n20000\n\[output cut to the preview limit: showed \d+ of 108894 bytes\. Re-run with `\| tail -n 80`/,
  );
  assert.match(r.content, /\[… \d+ bytes cut here …\]/);
  assert.match(r.content, /\[exit code 0 after .*\]$/);
  assert.ok(r.truncated);
});

test('Shell port: each stream keeps its head and tail under the byte cap and counts what it dropped', async () => {
  const r = await nodeShell.run({
    command: 'seq 1 100000',
    cwd: ws.root,
    root: ws.root,
    mode: 'auto',
    network: false,
    timeoutMs: 10_000,
    maxOutputBytes: 1000,
  });
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout.totalBytes, 588895);
  assert.equal(r.stdout.omittedBytes, 588895 - 1000);
  assert.ok(r.stdout.text.startsWith('1\n2\n'));
  assert.ok(r.stdout.text.endsWith('99999\n100000\n'));
  assert.match(r.stdout.text, /\[… 587895 bytes of output omitted …\]/);
  assert.equal(r.stderr.totalBytes, 0);
});

test('Shell port: stdin is closed, a signal exit is reported, a missing cwd rejects', async () => {
  const request = (command: string, cwd = ws.root): ShellRequest => ({
    command,
    cwd,
    root: ws.root,
    mode: 'auto',
    network: false,
    timeoutMs: 2000,
    maxOutputBytes: 100,
  });
  const cat = await nodeShell.run(request('cat'));
  assert.equal(cat.timedOut, false);
  assert.equal(cat.exitCode, 0);
  // Inside the sandbox bwrap reports a signal death the way a shell does, as 128 + the signal number.
  const killed = await nodeShell.run(request('kill -9 $$'));
  assert.deepEqual([killed.exitCode, killed.signal], [137, null]);
  const bare = await createNodeShell({ bwrap: null }).run(request('kill -9 $$'));
  assert.deepEqual([bare.exitCode, bare.signal], [null, 'SIGKILL']);
  await assert.rejects(nodeShell.run(request('true', path.join(ws.root, 'missing'))), /could not start/);
});

test('RO-1: without an OS sandbox, plan mode runs inspection commands only: a test runner (project code) is refused with the reason and the remedy', async () => {
  const ran: string[] = [];
  const bare = createNodeShell({ bwrap: null });
  const ctx = ctxFor(ws, { mode: 'plan' });
  ctx.ports = {
    ...ctx.ports,
    shell: {
      isolation: () => bare.isolation(),
      run: async (request) => (ran.push(request.command), bare.run(request)),
    },
  };
  const test = await runCommandTool.run({ command: 'npm test' }, ctx);
  assert.equal(test.error?.code, 'refused');
  assert.match(
    test.content,
    /^Not run: sandbox: unavailable \(bwrap not found\) — policy only\. Without an OS sandbox plan mode runs only inspection commands that cannot reach outside the workspace, and this one runs project code \(verification\)\. Use read_file, list_dir, find_files and grep instead\. To run agent commands in an OS sandbox, install bubblewrap/,
  );
  const ls = await runCommandTool.run({ command: 'ls' }, ctx);
  assert.ok(ls.ok, ls.content);
  assert.deepEqual(ran, ['ls']);
  // With the sandbox the same test runner runs (and fails here: there is no package.json).
  const sandboxed = await runCommandTool.run({ command: 'npm test' }, ctxFor(ws, { mode: 'plan' }));
  assert.notEqual(sandboxed.error?.code, 'refused', sandboxed.content);
});

test('RO-1, RO-2: without an OS sandbox, plan mode runs no command while a symlink leads outside the workspace, nor git while the repository config names programs', async () => {
  const bare = createNodeShell({ bwrap: null });
  const own = makeWorkspace();
  try {
    const ctx = ctxFor(own, { mode: 'plan' });
    ctx.ports = { ...ctx.ports, shell: bare };
    own.write('a.txt', 'inside\n');
    own.write('sub/b.txt', 'b\n');
    fs.symlinkSync('../a.txt', path.join(own.root, 'sub', 'inner-link'));
    fs.symlinkSync(path.join(own.root, 'sub'), path.join(own.root, 'sub-link'));
    assert.ok((await runCommandTool.run({ command: 'cat a.txt' }, ctx)).ok, 'links that stay inside are fine');
    fs.writeFileSync(path.join(own.outside, 'canary'), 'outside secret\n');
    fs.symlinkSync(path.join(own.outside, 'canary'), path.join(own.root, 'sub', 'deep-link'));
    const viaLink = await runCommandTool.run({ command: 'grep -R . .' }, ctx);
    assert.equal(viaLink.error?.code, 'refused');
    assert.match(
      viaLink.content,
      /`sub\/deep-link` is a symbolic link to .*\/outside\/canary, outside the workspace, and a command could read through it/,
    );
    assert.doesNotMatch(viaLink.content, /outside secret/);
    fs.rmSync(path.join(own.root, 'sub', 'deep-link'));
    fs.symlinkSync(path.join(own.outside, 'later'), path.join(own.root, 'dangling'));
    assert.match(
      (await runCommandTool.run({ command: 'ls' }, ctx)).content,
      /`dangling` is a symbolic link to \(a missing target\)/,
    );
    fs.rmSync(path.join(own.root, 'dangling'));

    spawnSync('git', ['init', '-q'], { cwd: own.root });
    assert.ok((await runCommandTool.run({ command: 'git status --short' }, ctx)).ok, 'a plain repository is fine');
    spawnSync('git', ['config', 'diff.vt.textconv', 'touch pwned; cat'], { cwd: own.root });
    const git = await runCommandTool.run({ command: 'git log -p -1' }, ctx);
    assert.match(git.content, /the repository's \.git\/config sets `textconv`, a program git would run/);
    assert.ok((await runCommandTool.run({ command: 'cat a.txt' }, ctx)).ok, 'commands without git still run');
    // With the sandbox the same repository is harmless: git runs, the program cannot write.
    assert.notEqual(
      (await runCommandTool.run({ command: 'git status --short' }, ctxFor(own, { mode: 'plan' }))).error?.code,
      'refused',
    );
  } finally {
    own.cleanup();
  }
});

test('EXEC-5: stopping the turn ends a build-mode confirmation nobody answers; the command does not run and the prompt sees the signal', async () => {
  const controller = new AbortController();
  let seen: AbortSignal | undefined;
  const never = (_command: string, signal: AbortSignal) => ((seen = signal), new Promise<boolean>(() => undefined));
  const pending = runCommandTool.run(
    { command: 'echo x > stopped.txt' },
    ctxFor(ws, { mode: 'build', confirm: never, signal: controller.signal }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(seen, controller.signal, 'the prompt is given the turn signal, so it can withdraw its question');
  controller.abort();
  const r = await pending;
  assert.equal(r.error?.code, 'cancelled');
  assert.match(
    r.content,
    /The turn was stopped while `echo x > stopped\.txt` waited for confirmation; the command was not run\./,
  );
  assert.equal(ws.exists('stopped.txt'), false);
});
