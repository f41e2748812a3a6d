/**
 * The CLI searches with `rg` from PATH when there is one (issue 16 item 2): the built CLI in a
 * child process, a grep call from the scripted model, and an `rg` on PATH that notes each run
 * before handing over to the real ripgrep.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { SessionEventSchema } from '../../../src/core/session/events';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';
import { findRipgrep } from '../tools/helpers';

const repo = join(__dirname, '..', '..', '..');
const cli = join(repo, 'dist', 'cli.js');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-cli-rg-')));
const root = join(base, 'ws');
const bin = join(base, 'bin');
const marker = join(base, 'rg-ran.txt');
let server: ModelServer;

before(async () => {
  if (!existsSync(cli)) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' });
  server = await startModelServer();
  cpSync(join(repo, 'examples', 'sample-workspace'), root, { recursive: true });
  const realRg = findRipgrep();
  assert.ok(
    realRg,
    'no rg binary: install VS Code into .cache with scripts/harness/setup.sh, put rg on PATH or set VTPLAN_RG',
  );
  mkdirSync(bin);
  writeFileSync(join(bin, 'rg'), `#!/bin/sh\necho "$@" >> '${marker}'\nexec '${realRg}' "$@"\n`, { mode: 0o755 });
});

after(async () => {
  await server.close();
  rmSync(base, { recursive: true, force: true });
});

function vtplan(args: string[], pathEnv: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: pathEnv, VTPLAN_TEST_KEY: 'sk-test', XDG_STATE_HOME: join(base, 'state') };
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function grepThroughCli(pathEnv: string): Promise<string> {
  server.enqueue({ toolCalls: [{ name: 'grep', arguments: '{"pattern":"function greet"}' }] }, { text: 'Found it.' });
  const r = await vtplan(
    [
      'run',
      '--workspace',
      root,
      '--provider',
      'openai',
      '--model',
      'scripted',
      '--base-url',
      server.openaiBaseUrl,
      '--api-key-env',
      'VTPLAN_TEST_KEY',
      '--jsonl',
      'Where is greet?',
    ],
    pathEnv,
  );
  assert.equal(r.code, 0, r.stderr);
  const results = r.stdout
    .trim()
    .split('\n')
    .map((line) => SessionEventSchema.parse(JSON.parse(line)))
    .flatMap((e) => (e.type === 'tool.result' ? [e] : []));
  assert.equal(results.length, 1, r.stdout);
  return JSON.stringify(results[0]);
}

test('the CLI greps with the rg it finds on PATH, and with the JS fallback when PATH has none', async () => {
  const withRg = await grepThroughCli(`${bin}${delimiter}${process.env.PATH ?? ''}`);
  assert.match(withRg, /src\/greet\.js:\d+: function greet/);
  assert.match(readFileSync(marker, 'utf8'), /--json .*-e function greet/);

  rmSync(marker);
  const withoutRg = await grepThroughCli('/nonexistent-bin');
  assert.match(withoutRg, /src\/greet\.js:\d+: function greet/);
  assert.equal(existsSync(marker), false, 'no rg ran');
});
