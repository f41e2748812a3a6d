/**
 * RO-1 … RO-4, MODE-1: the OS sandbox is the enforcement layer. These tests call the Shell port
 * directly, past the command policy, with commands the policy would refuse: what stops them here
 * is the sandbox alone. They need bubblewrap (installed by scripts/harness/setup.sh and .ci/run);
 * the first test fails, rather than skips, where it is missing.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createNodeShell, nodeShell } from '../../../src/node/shell';
import { sandboxLayout } from '../../../src/node/sandbox';
import type { ShellRequest } from '../../../src/core/ports';

let base: string;
let root: string;
let outside: string;
const KEY = 'sk-test-provider-key-0123456789';

before(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vtplan-sandbox-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'a.txt'), 'inside\n');
  fs.writeFileSync(path.join(outside, 'canary'), 'outside secret\n');
  fs.symlinkSync(path.join(outside, 'canary'), path.join(root, 'link-out'));
  process.env.VTPLAN_TEST_PROVIDER_KEY = KEY;
});

after(() => {
  delete process.env.VTPLAN_TEST_PROVIDER_KEY;
  fs.rmSync(base, { recursive: true, force: true });
});

const run = (command: string, mode: ShellRequest['mode'], extra: Partial<ShellRequest> = {}, shell = nodeShell) =>
  shell.run({ command, cwd: root, root, mode, network: false, timeoutMs: 20_000, maxOutputBytes: 64 * 1024, ...extra });

test('RO-1: this machine has the sandbox (bubblewrap), and the Shell port says so', async () => {
  const iso = await nodeShell.isolation();
  assert.equal(iso.sandboxed, true, `${iso.summary}: install bubblewrap (scripts/harness/setup.sh does)`);
  assert.match(iso.summary, /^sandbox: bubblewrap \d/);
});

test('RO-1, RO-3: in plan mode a write inside the workspace fails with a read-only file system, whatever program makes it', async () => {
  // Each of these is refused by the policy; run directly they meet the sandbox.
  for (const command of [
    'touch new.txt',
    'echo x > a.txt',
    'sed -n "1e touch sed-e.txt" a.txt',
    'awk \'BEGIN { print "x" > "awk.txt" }\'',
    'mkdir src/d',
    'rm a.txt',
  ]) {
    const r = await run(command, 'plan');
    assert.match(r.stderr.text, /Read-only file system/, command);
  }
  assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt', 'link-out', 'src']);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'inside\n');
  const read = await run('cat a.txt && ls src', 'plan');
  assert.equal(read.stdout.text, 'inside\n');
});

test('RO-2: nothing outside the workspace exists in the sandbox: parent folders, HOME, symlink targets', async () => {
  for (const mode of ['plan', 'build', 'auto'] as const) {
    const r = await run(
      `cat ../outside/canary; cat ${outside}/canary; cat link-out; ls ${os.homedir()}/.ssh; ls ${base}`,
      mode,
    );
    assert.doesNotMatch(r.stdout.text, /outside secret/, mode);
    assert.match(r.stderr.text, /No such file or directory/, mode);
    assert.equal(r.stdout.text.trim(), 'ws', `${mode}: the workspace's parent shows the workspace alone`);
  }
});

test('MODE-1: in build/auto the workspace is writable, `.vtcode/` is not, and a write outside fails', async () => {
  for (const mode of ['build', 'auto'] as const) {
    const r = await run(
      `echo ${mode} > ${mode}.txt; echo forged >> .vtcode/sessions.jsonl; mkdir -p .vtcode/sessions; rm -rf .vtcode; mv .vtcode moved; echo x > ${outside}/new`,
      mode,
    );
    assert.equal(fs.readFileSync(path.join(root, `${mode}.txt`), 'utf8'), `${mode}\n`);
    assert.match(r.stderr.text, /\.vtcode\/sessions\.jsonl: Read-only file system/);
    assert.match(r.stderr.text, /(Device or resource busy|Read-only file system)/);
    assert.deepEqual(fs.readdirSync(path.join(root, '.vtcode')), [], `${mode}: .vtcode untouched`);
    assert.equal(fs.existsSync(path.join(root, 'moved')), false);
    assert.equal(fs.existsSync(path.join(outside, 'new')), false);
    fs.rmSync(path.join(root, `${mode}.txt`));
  }
});

test('MODE-1: build/auto refuse to run when `.vtcode` is a symbolic link (it could point the runtime anywhere)', async () => {
  const ws = fs.mkdtempSync(path.join(base, 'linked-'));
  fs.symlinkSync(outside, path.join(ws, '.vtcode'));
  await assert.rejects(
    nodeShell.run({
      command: 'true',
      cwd: ws,
      root: ws,
      mode: 'auto',
      network: true,
      timeoutMs: 5_000,
      maxOutputBytes: 100,
    }),
    /\.vtcode is a symbolic link/,
  );
});

test('quality bar (keys are never printed): the provider key in the host environment reaches no command', async () => {
  for (const mode of ['plan', 'auto'] as const) {
    const r = await run('env; printenv; cat /proc/self/environ; cat /proc/1/environ; ps axeww', mode);
    assert.doesNotMatch(r.stdout.text + r.stderr.text, new RegExp(KEY), mode);
    assert.doesNotMatch(r.stdout.text, /VTPLAN_TEST_PROVIDER_KEY/, mode);
    assert.match(r.stdout.text, /^HOME=\/tmp\/home$/m, `${mode}: HOME is the sandbox's own`);
  }
});

test('RO-1: a fresh PID namespace: the host processes cannot be seen or signalled', async () => {
  const r = await run(`ps -e -o pid= | wc -l; kill -0 ${process.pid} && echo reached`, 'auto');
  assert.ok(Number(r.stdout.text.split('\n')[0]) <= 5, r.stdout.text);
  assert.doesNotMatch(r.stdout.text, /reached/);
});

test('RO-1: /tmp, HOME and tool caches are a throwaway per command: nothing is left behind, on the host or for the next command', async () => {
  const marker = `vtplan-scratch-${process.pid}`;
  const first = await run(
    `echo x > /tmp/${marker} && mkdir -p "$npm_config_cache" && touch "$HOME/.${marker}" && echo ok`,
    'plan',
  );
  assert.equal(first.stdout.text, 'ok\n', first.stderr.text);
  const second = await run(`ls /tmp/${marker} "$HOME/.${marker}" 2>&1 || echo gone`, 'plan');
  assert.match(second.stdout.text, /gone/);
  assert.equal(fs.existsSync(path.join(os.tmpdir(), marker)), false);
});

test('RO-1: the network: off in the sandbox unless the request allows it (vtplan.sandbox.network)', async () => {
  const server = http.createServer((_req, res) => res.end('pong'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const probe = `node -e "require('http').get('http://127.0.0.1:${port}', r => r.on('data', d => console.log(String(d)))).on('error', e => console.log(e.code))"`;
    const off = await run(probe, 'auto', { network: false });
    assert.equal(off.stdout.text.trim(), 'ECONNREFUSED', off.stderr.text);
    const on = await run(probe, 'auto', { network: true });
    assert.equal(on.stdout.text.trim(), 'pong', on.stderr.text);
  } finally {
    server.close();
  }
});

test('RO-1: a timeout kills the sandbox with everything in it', async () => {
  const marker = path.join(root, 'survived');
  // The background child holds a FIFO open for writing: end of file on our side means it is gone,
  // killed or finished (no sleep decides when to look).
  const fifo = path.join(root, 'child-alive');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  try {
    const childGone = new Promise<void>((resolve, reject) =>
      fs.createReadStream(fifo).on('error', reject).on('close', resolve).resume(),
    );
    // The child's 20 s is far beyond the 300 ms timeout however loaded the machine (at load 25 a
    // 1 s sleep was once outlived by a late kill); a kill that misses the child still fails: it
    // touches the marker, and the FIFO closes only then.
    const r = await run(`(exec 3>${fifo}; sleep 20; touch ${marker}) & sleep 60`, 'auto', { timeoutMs: 300 });
    assert.equal(r.timedOut, true);
    await childGone;
    assert.equal(fs.existsSync(marker), false, 'the child was killed before it could touch the marker');
  } finally {
    fs.rmSync(fifo, { force: true });
  }
});

test('RO-1: the layout mounts the workspace last and never binds HOME, `/` or a parent of the workspace', () => {
  const { args } = sandboxLayout({
    root,
    cwd: root,
    mode: 'plan',
    network: false,
    path: `${os.homedir()}:${base}:/:${process.env.PATH ?? ''}`,
    home: os.homedir(),
  });
  const binds = args.flatMap((a, i) => (a === '--ro-bind' || a === '--bind' ? [args[i + 1] ?? ''] : []));
  for (const forbidden of [os.homedir(), '/', base]) assert.equal(binds.includes(forbidden), false, forbidden);
  assert.deepEqual(args.slice(-5), ['--ro-bind', root, root, '--chdir', root]);
  assert.equal(args.includes('--share-net'), false);
});

test('RO-1: without a sandbox the Shell port says "unavailable — policy only", and still keeps keys and HOME out', async () => {
  const bare = createNodeShell({ bwrap: null });
  const iso = await bare.isolation();
  assert.equal(iso.sandboxed, false);
  assert.match(iso.summary, /^sandbox: unavailable \(bwrap not found\) — policy only$/);
  assert.ok(!iso.sandboxed && /apt-get install bubblewrap/.test(iso.remedy));
  const r = await run('env; echo "$HOME"', 'plan', {}, bare);
  assert.doesNotMatch(r.stdout.text, new RegExp(KEY));
  const home = r.stdout.text.trim().split('\n').at(-1) ?? '';
  assert.match(home, /vtplan-cmd-[^/]+\/home$/);
  assert.equal(fs.existsSync(home), false, 'the private HOME is removed after the command');
  const broken = await createNodeShell({ bwrap: '/nonexistent/bwrap' }).isolation();
  assert.match(broken.summary, /^sandbox: unavailable \(bwrap failed: .*ENOENT.*\) — policy only$/);
});

test('RO-1: a descriptor this process inherited (not close-on-exec) does not reach a command: it sees /dev/null there', () => {
  const secret = path.join(outside, 'fd-secret');
  fs.writeFileSync(secret, 'secret through a descriptor\n');
  const fd = fs.openSync(secret, 'r');
  try {
    // Descriptor 40: Node marks the low ones it inherits close-on-exec at start-up, not all.
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, '../../fixtures/shell/inherited-fd.ts'), root, '40'],
      {
        stdio: ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(37).fill('ignore'), fd],
        encoding: 'utf8',
        cwd: path.join(__dirname, '../../..'),
      },
    );
    const runs = child.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { stdout: string; stderr: string });
    assert.equal(runs.length, 2, child.stderr);
    for (const r of runs) {
      assert.doesNotMatch(
        r.stdout,
        /secret through a descriptor/,
        'control: without the fix the command reads the file through /proc/self/fd/40',
      );
      assert.equal(r.stdout, '/dev/null\n', r.stderr);
    }
  } finally {
    fs.closeSync(fd);
  }
});
