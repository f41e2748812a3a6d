import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { commandEnvironment } from '../../../src/core/policy';

const planEnv = (base: Record<string, string | undefined>) =>
  commandEnvironment(base, { mode: 'plan', root: '/work/ws', scratch: '/tmp/scratch' });

test('RO-2, MODE-1: a command environment is an allow-list: keys, tokens and injected programs never reach a command, in any mode', () => {
  const host = {
    HOME: '/home/u',
    LANG: 'de_DE.UTF-8',
    LC_ALL: 'C',
    TERM: 'xterm',
    PATH: '/usr/bin:/bin',
    OPENAI_API_KEY: 'sk-host-key-123456',
    ANTHROPIC_API_KEY: 'k',
    GITHUB_TOKEN: 'ghp_x',
    SSH_AUTH_SOCK: '/run/ssh',
    AWS_SECRET_ACCESS_KEY: 'a',
    GIT_EXTERNAL_DIFF: './evil',
    RIPGREP_CONFIG_PATH: '/x',
    GIT_CONFIG_KEY_7: 'core.pager',
    BASH_ENV: '/x',
    LD_PRELOAD: '/x.so',
    NODE_OPTIONS: '--require /x.js',
    CDPATH: '/etc',
    UNDEF: undefined,
    CARGO_HOME: '/opt/cargo',
  };
  for (const mode of ['plan', 'build', 'auto'] as const) {
    const env = commandEnvironment(host, { mode, root: '/work/ws', scratch: '/tmp/s' });
    for (const gone of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GITHUB_TOKEN',
      'SSH_AUTH_SOCK',
      'AWS_SECRET_ACCESS_KEY',
      'GIT_EXTERNAL_DIFF',
      'RIPGREP_CONFIG_PATH',
      'GIT_CONFIG_KEY_7',
      'BASH_ENV',
      'LD_PRELOAD',
      'NODE_OPTIONS',
      'CDPATH',
      'UNDEF',
    ]) {
      assert.equal(gone in env, false, `${mode}: ${gone}`);
    }
    assert.deepEqual(
      [env.LANG, env.LC_ALL, env.TERM, env.CARGO_HOME],
      ['de_DE.UTF-8', 'C', 'xterm', '/opt/cargo'],
      mode,
    );
    // HOME and every cache live in the throwaway folder: ~/.ssh or ~/.gitconfig are not the user's.
    assert.deepEqual(
      [env.HOME, env.TMPDIR, env.npm_config_cache, env.XDG_CACHE_HOME],
      ['/tmp/s/home', '/tmp/s', '/tmp/s/npm-cache', '/tmp/s/cache'],
      mode,
    );
    assert.equal(env.GIT_PAGER, 'cat');
    assert.equal(env.GIT_CEILING_DIRECTORIES, '/work', `${mode}: git does not read a repository above the workspace`);
  }
});

test('RO-2: plan mode adds the git overrides and sends build outputs and bytecode to the scratch folder; build/auto keep them in the workspace', () => {
  const plan = planEnv({});
  assert.equal(plan.GIT_CONFIG_COUNT, '4');
  assert.deepEqual([plan.GIT_CONFIG_KEY_0, plan.GIT_CONFIG_VALUE_0], ['core.fsmonitor', 'false']);
  assert.deepEqual([plan.CARGO_TARGET_DIR, plan.PYTHONDONTWRITEBYTECODE], ['/tmp/scratch/cargo-target', '1']);
  const build = commandEnvironment(
    {},
    { mode: 'build', root: '/work/ws', scratch: '/tmp/s', gitIdentity: { name: 'Ada', email: 'ada@example.org' } },
  );
  assert.equal('GIT_CONFIG_COUNT' in build, false);
  assert.equal('CARGO_TARGET_DIR' in build, false);
  assert.deepEqual([build.GIT_AUTHOR_NAME, build.GIT_COMMITTER_EMAIL], ['Ada', 'ada@example.org']);
});

test('RO-2: PATH keeps only absolute entries outside the workspace, so neither `cd dir && ls` nor a workspace node_modules/.bin can replace `ls`', () => {
  assert.equal(planEnv({ PATH: '/usr/bin::.:bin:/bin:./node_modules/.bin:' }).PATH, '/usr/bin:/bin');
  assert.equal(
    planEnv({ PATH: '/work/ws/node_modules/.bin:/work/ws:/usr/bin:/work/wsx/bin' }).PATH,
    '/usr/bin:/work/wsx/bin',
  );
  assert.equal(planEnv({}).PATH, '/usr/local/bin:/usr/bin:/bin');
});

test('RO-2: with the plan command environment, git status does not run a repository fsmonitor hook', () => {
  const dir = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-env-'));
  try {
    const marker = join(dir, 'hook-ran');
    const git = (args: string[], env: NodeJS.ProcessEnv) => spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    git(['init', '-q'], process.env);
    git(['config', 'core.fsmonitor', `touch ${marker}; false`], process.env);
    git(['status', '--short'], planEnv(process.env));
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
    const probe = (env: NodeJS.ProcessEnv) =>
      spawnSync('git', ['-C', bare, 'rev-parse', '--git-dir'], { env, encoding: 'utf8' });
    assert.equal(probe(process.env).status, 0, 'control: plain git accepts it');
    const refused = probe(planEnv(process.env));
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /bare/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
