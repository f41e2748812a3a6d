import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { commandEnvironment } from '../../../src/core/policy';

// Survivors of the quiet-machine rerun of command-env.ts (issue 19): the pass-through list is an
// allow-list, so each listed variable must reach the command and a look-alike name must not.

const OPTIONS = { mode: 'plan', root: '/work/ws', scratch: '/s' } as const;

test('RO-2: the locale, terminal and toolchain variables the host sets reach the command unchanged', () => {
  const host = {
    LANGUAGE: 'de:en',
    TZ: 'Europe/Berlin',
    NO_COLOR: '1',
    COLORTERM: 'truecolor',
    RUSTUP_HOME: '/opt/rustup',
    RUSTUP_TOOLCHAIN: 'stable',
    PYENV_ROOT: '/opt/pyenv',
    PYENV_VERSION: '3.12.1',
    NVM_DIR: '/opt/nvm',
    VOLTA_HOME: '/opt/volta',
    GOROOT: '/usr/lib/go',
    JAVA_HOME: '/usr/lib/jvm/java-17',
    VIRTUAL_ENV: '/work/ws/.venv',
  };
  const env = commandEnvironment(host, OPTIONS);
  for (const [key, value] of Object.entries(host)) assert.equal(env[key], value, key);
});

test('RO-2, MODE-1: only whole `LC_*` locale names pass; a secret whose name merely contains `LC_` stays behind', () => {
  const env = commandEnvironment(
    {
      LC_ALL: 'C.UTF-8',
      LC_TIME: 'en_GB.UTF-8',
      CI_LC_TOKEN: 'secret-1',
      LC_API_TOKEN2: 'secret-2',
      LC_key: 'secret-3',
    },
    OPTIONS,
  );
  assert.deepEqual([env.LC_ALL, env.LC_TIME], ['C.UTF-8', 'en_GB.UTF-8']);
  for (const key of ['CI_LC_TOKEN', 'LC_API_TOKEN2', 'LC_key']) assert.equal(key in env, false, key);
  assert.equal(
    Object.values(env).some((value) => value.startsWith('secret-')),
    false,
  );
});

test('RO-2: with the plan command environment, `git diff` and `git describe --dirty` run no repository hook (they refresh the index, which runs post-index-change)', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'vtplan-env-hook-')));
  try {
    const git = (args: string[], env: NodeJS.ProcessEnv) => spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    git(['init', '-q'], process.env);
    fs.writeFileSync(join(dir, 'f.txt'), 'a\n');
    git(['add', 'f.txt'], process.env);
    git(['-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', 'init'], process.env);
    const marker = join(dir, 'hook-ran');
    const hook = join(dir, '.git', 'hooks', 'post-index-change');
    fs.writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const plan = commandEnvironment(process.env, { mode: 'plan', root: dir, scratch: join(dir, '.scratch') });
    let stamp = Date.now() / 1000;
    const dirtyStat = () => fs.utimesSync(join(dir, 'f.txt'), (stamp += 10), stamp);
    for (const args of [['diff'], ['describe', '--dirty', '--always']]) {
      dirtyStat();
      assert.equal(git(args, plan).status, 0, args.join(' '));
      assert.equal(fs.existsSync(marker), false, `git ${args.join(' ')} ran the hook`);
    }
    dirtyStat();
    git(['diff'], process.env);
    assert.equal(fs.existsSync(marker), true, 'control: without the overrides git diff runs the hook');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
