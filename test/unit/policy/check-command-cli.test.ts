import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliCaptured } from '../../fixtures/cli';

function cli(...argv: string[]) {
  return runCliCaptured(argv);
}

function cliIn(cwd: string, ...argv: string[]) {
  return runCliCaptured(argv, { cwd });
}

test('ADD-2, RO-2: check-command --json prints exactly the contract (extended by root and paths) and exits 0 when allowed', async () => {
  const r = await cli('check-command', '--json', '--', 'rg -n foo src | head -5');
  assert.equal(r.code, 0);
  assert.equal(
    r.out,
    '{"allowed": true, "class": "inspection", "reason": null, "segments": [{"command": "rg -n foo src", "allowed": true, "reason": null}, {"command": "head -5", "allowed": true, "reason": null}], "root": "/", "paths": {"allowed": true, "reason": null}}\n',
  );
  assert.deepEqual(Object.keys(JSON.parse(r.out) as object), [
    'allowed',
    'class',
    'reason',
    'segments',
    'root',
    'paths',
  ]);
});

test('ADD-2, RO-2, MODE-1: check-command applies the lexical workspace path rule (a command naming a path outside the workspace is refused; symlinks are not resolved) in every mode; --root defaults to the current folder', async () => {
  for (const mode of ['plan', 'build', 'auto']) {
    const r = await cli('check-command', '--mode', mode, '--root', '/work/ws', '--json', '--', 'cat /etc/hosts');
    assert.equal(r.code, 1, mode);
    const v = JSON.parse(r.out) as {
      allowed: boolean;
      class: string;
      reason: string;
      root: string;
      paths: { allowed: boolean; reason: string };
    };
    assert.equal(v.allowed, false);
    assert.equal(v.class, 'inspection');
    assert.equal(v.root, '/work/ws');
    assert.equal(v.paths.allowed, false);
    assert.match(
      v.reason,
      /^`\/etc\/hosts` is outside the workspace \(\/work\/ws\); commands may only name paths inside it/,
    );
    assert.equal(v.paths.reason, v.reason);
  }
  const fromCwd = await cliIn('/work/ws', 'check-command', '--', 'cd src && cat ../package.json');
  assert.equal(fromCwd.code, 0, fromCwd.out);
  const text = await cliIn('/work/ws', 'check-command', '--', 'cd .. && ls');
  assert.equal(text.code, 1);
  assert.match(
    text.out,
    /^rejected \(inspection, plan mode, outside the workspace\): segment 1 of 2 \(`cd \.\.`\): `\.\.` resolves to \/work, outside the workspace \(\/work\/ws\)/,
  );
  const relative = await cliIn('/work', 'check-command', '--root=ws', '--json', '--', 'ls ws');
  assert.equal(relative.code, 0);
  assert.match(relative.out, /"root": "\/work\/ws"/);
  // The read-only policy still speaks first in plan mode: a mutation is reported as one.
  const both = await cliIn('/work/ws', 'check-command', '--', 'rm /etc/hosts');
  assert.match(both.out, /^rejected \(mutation, plan mode\): `rm` creates, changes or deletes files/);
});

test('ADD-2, RO-3: check-command exits 1 on a rejected command and names the segment', async () => {
  const r = await cli('check-command', '--json', '--', 'ls && rm -rf x');
  assert.equal(r.code, 1);
  const v = JSON.parse(r.out) as { allowed: boolean; class: string; reason: string; segments: { allowed: boolean }[] };
  assert.equal(v.allowed, false);
  assert.equal(v.class, 'mutation');
  assert.match(v.reason, /segment 2 of 2/);
  assert.deepEqual(
    v.segments.map((s) => s.allowed),
    [true, false],
  );
  const text = await cli('check-command', '--', 'sed -i s/a/b/ f');
  assert.equal(text.code, 1);
  assert.match(text.out, /^rejected \(mutation, plan mode\): `sed -i` edits files in place/);
});

test('ADD-2: --mode build allows but classifies; plan is the default', async () => {
  const build = await cli('check-command', '--mode', 'build', '--json', '--', 'rm -rf x');
  assert.equal(build.code, 0);
  assert.match(build.out, /"allowed": true, "class": "mutation", "reason": null/);
  assert.equal((await cli('check-command', '--mode=auto', '--', 'rm x')).code, 0);
  assert.equal((await cli('check-command', '--', 'rm x')).code, 1);
});

test('ADD-2: usage errors exit 2 with a hint on stderr', async () => {
  for (const argv of [
    ['--mode', 'yolo', '--', 'ls'],
    ['--mode'],
    ['--root'],
    ['--root=', '--', 'ls'],
    ['--frobnicate', '--', 'ls'],
    ['--json'],
    ['--', 'ls', '-la'],
    ['--', '  '],
  ]) {
    const r = await cli('check-command', ...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.out, '');
    assert.match(r.err, /^vtplan check-command: .+\n/, argv.join(' '));
  }
});
