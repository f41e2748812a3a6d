import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/run';
import type { CliIO } from '../../../src/cli/io';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), readStdin: async () => '', cwd: '/', env: {} };
  const code = await runCli(argv, io);
  return { code, out, err };
}

test('ADD-2, RO-2: check-command --json prints exactly the contract and exits 0 when allowed', async () => {
  const r = await cli('check-command', '--json', '--', 'rg -n foo src | head -5');
  assert.equal(r.code, 0);
  assert.equal(
    r.out,
    '{"allowed": true, "class": "inspection", "reason": null, "segments": [{"command": "rg -n foo src", "allowed": true, "reason": null}, {"command": "head -5", "allowed": true, "reason": null}]}\n',
  );
  assert.deepEqual(Object.keys(JSON.parse(r.out) as object), ['allowed', 'class', 'reason', 'segments']);
});

test('ADD-2, RO-3: check-command exits 1 on a rejected command and names the segment', async () => {
  const r = await cli('check-command', '--json', '--', 'ls && rm -rf x');
  assert.equal(r.code, 1);
  const v = JSON.parse(r.out) as { allowed: boolean; class: string; reason: string; segments: { allowed: boolean }[] };
  assert.equal(v.allowed, false);
  assert.equal(v.class, 'mutation');
  assert.match(v.reason, /segment 2 of 2/);
  assert.deepEqual(v.segments.map((s) => s.allowed), [true, false]);
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
  for (const argv of [['--mode', 'yolo', '--', 'ls'], ['--mode'], ['--frobnicate', '--', 'ls'], ['--json'], ['--', 'ls', '-la'], ['--', '  ']]) {
    const r = await cli('check-command', ...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.out, '');
    assert.match(r.err, /^vtplan check-command: .+\n/, argv.join(' '));
  }
});
