/**
 * The CLI searches with `rg` from PATH when there is one (issue 16 item 2): the built CLI in a
 * child process, a grep call from the scripted model, and an `rg` on PATH that notes each run
 * before handing over to the real ripgrep.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { SessionEventSchema } from '../../../src/core/session/events';
import { ensureBuiltCli, scriptedProviderFlags, spawnBuiltCli } from '../../fixtures/cli';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';
import { findRipgrep } from '../tools/helpers';

const repo = join(__dirname, '..', '..', '..');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-cli-rg-')));
const root = join(base, 'ws');
const bin = join(base, 'bin');
const marker = join(base, 'rg-ran.txt');
let server: ModelServer;

before(async () => {
  ensureBuiltCli();
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

function vtplan(args: string[], pathEnv: string) {
  const env = { ...process.env, PATH: pathEnv, VTPLAN_TEST_KEY: 'sk-test', XDG_STATE_HOME: join(base, 'state') };
  return spawnBuiltCli(args, env);
}

async function grepThroughCli(pathEnv: string): Promise<string> {
  server.enqueue({ toolCalls: [{ name: 'grep', arguments: '{"pattern":"function greet"}' }] }, { text: 'Found it.' });
  const r = await vtplan(['run', ...scriptedProviderFlags(root, server), '--jsonl', 'Where is greet?'], pathEnv);
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
