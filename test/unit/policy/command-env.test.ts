import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { withPlanCommandEnv } from '../../../src/core/policy';

test('RO-2: the plan command environment drops injected programs and overrides git config', () => {
  const env = withPlanCommandEnv({ HOME: '/home/u', GIT_EXTERNAL_DIFF: './evil', RIPGREP_CONFIG_PATH: '/x', GIT_CONFIG_KEY_7: 'core.pager', CDPATH: '/etc', UNDEF: undefined });
  assert.equal(env.HOME, '/home/u');
  // CDPATH would let `cd lib` leave the workspace behind the path check's back (RO-2: no tool touches a path outside the workspace).
  for (const gone of ['GIT_EXTERNAL_DIFF', 'RIPGREP_CONFIG_PATH', 'GIT_CONFIG_KEY_7', 'CDPATH', 'UNDEF']) assert.equal(gone in env, false, gone);
  assert.equal(env.GIT_CONFIG_COUNT, '3');
  assert.deepEqual([env.GIT_CONFIG_KEY_0, env.GIT_CONFIG_VALUE_0], ['core.fsmonitor', 'false']);
  assert.equal(env.GIT_PAGER, 'cat');
});

test('RO-2: PATH keeps only absolute entries, so `cd dir && ls` cannot run a workspace `ls`', () => {
  assert.equal(withPlanCommandEnv({ PATH: '/usr/bin::.:bin:/bin:./node_modules/.bin:' }).PATH, '/usr/bin:/bin');
  assert.equal('PATH' in withPlanCommandEnv({}), false);
});

test('RO-2: with the plan command environment, git status does not run a repository fsmonitor hook', () => {
  const dir = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-env-'));
  try {
    const marker = join(dir, 'hook-ran');
    const git = (args: string[], env: NodeJS.ProcessEnv) => spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    git(['init', '-q'], process.env);
    git(['config', 'core.fsmonitor', `touch ${marker}; false`], process.env);
    git(['status', '--short'], withPlanCommandEnv(process.env));
    assert.equal(fs.existsSync(marker), false);
    git(['status', '--short'], process.env);
    assert.equal(fs.existsSync(marker), true, 'control: without the overrides the hook runs');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('RO-2: with the plan command environment, git refuses a bare repository embedded in the workspace', () => {
  const dir = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-env-'));
  try {
    const bare = join(dir, 'embedded');
    spawnSync('git', ['init', '-q', '--bare', bare]);
    const probe = (env: NodeJS.ProcessEnv) => spawnSync('git', ['-C', bare, 'rev-parse', '--git-dir'], { env, encoding: 'utf8' });
    assert.equal(probe(process.env).status, 0, 'control: plain git accepts it');
    const refused = probe(withPlanCommandEnv(process.env));
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /bare/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
