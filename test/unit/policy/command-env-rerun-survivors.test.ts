import { test } from 'node:test';
import assert from 'node:assert/strict';
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
