import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandEnvironment } from '../../../src/core/policy';

test('RO-2, MODE-1: the plan command environment is exactly the allow-listed host variables plus the scratch caches and the git overrides', () => {
  const env = commandEnvironment(
    { LANG: 'C.UTF-8', TZ: undefined, HOME: '/home/u', PATH: '/usr/bin' },
    { mode: 'plan', root: '/work/ws', scratch: '/s' },
  );
  assert.deepEqual(env, {
    LANG: 'C.UTF-8',
    PATH: '/usr/bin',
    XDG_CACHE_HOME: '/s/cache',
    XDG_CONFIG_HOME: '/s/config',
    XDG_DATA_HOME: '/s/data',
    XDG_STATE_HOME: '/s/state',
    npm_config_cache: '/s/npm-cache',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    GOCACHE: '/s/go-build',
    GOPATH: '/s/go',
    CARGO_TARGET_DIR: '/s/cargo-target',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONPYCACHEPREFIX: '/s/pycache',
    PYTEST_ADDOPTS: '-p no:cacheprovider',
    HOME: '/s/home',
    TMPDIR: '/s',
    SHELL: '/bin/sh',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CEILING_DIRECTORIES: '/work',
    GIT_CONFIG_COUNT: '4',
    GIT_CONFIG_KEY_0: 'core.fsmonitor',
    GIT_CONFIG_VALUE_0: 'false',
    GIT_CONFIG_KEY_1: 'safe.bareRepository',
    GIT_CONFIG_VALUE_1: 'explicit',
    GIT_CONFIG_KEY_2: 'core.pager',
    GIT_CONFIG_VALUE_2: 'cat',
    GIT_CONFIG_KEY_3: 'core.hooksPath',
    GIT_CONFIG_VALUE_3: '/dev/null',
    GIT_OPTIONAL_LOCKS: '0',
  });
});

test('MODE-1: a git identity sets only the parts it has (a name without an email sets no email)', () => {
  const options = { mode: 'build', root: '/work/ws', scratch: '/s' } as const;
  const named = commandEnvironment({}, { ...options, gitIdentity: { name: 'Ada' } });
  assert.deepEqual([named.GIT_AUTHOR_NAME, named.GIT_COMMITTER_NAME], ['Ada', 'Ada']);
  assert.equal('GIT_AUTHOR_EMAIL' in named, false);
  assert.equal('GIT_COMMITTER_EMAIL' in named, false);
  const mailed = commandEnvironment({}, { ...options, gitIdentity: { email: 'ada@example.org' } });
  assert.deepEqual([mailed.GIT_AUTHOR_EMAIL, mailed.GIT_COMMITTER_EMAIL], ['ada@example.org', 'ada@example.org']);
  assert.equal('GIT_AUTHOR_NAME' in mailed, false);
  assert.equal('GIT_COMMITTER_NAME' in mailed, false);
});

test('RO-2: a toolchain location from the sandbox fills in only what the host did not set', () => {
  const env = commandEnvironment(
    { CARGO_HOME: '/host/cargo' },
    {
      mode: 'plan',
      root: '/work/ws',
      scratch: '/s',
      toolchain: { CARGO_HOME: '/sandbox/cargo', RUSTUP_HOME: '/sandbox/rustup' },
    },
  );
  assert.deepEqual([env.CARGO_HOME, env.RUSTUP_HOME], ['/host/cargo', '/sandbox/rustup']);
});

test('RO-2: a workspace root written with trailing slashes still keeps its own folders off PATH, and git stops at its parent', () => {
  for (const root of ['/work/ws/', '/work/ws//']) {
    const env = commandEnvironment(
      { PATH: '/work/ws/node_modules/.bin:/work/ws/bin:/usr/bin' },
      { mode: 'plan', root, scratch: '/s' },
    );
    assert.equal(env.PATH, '/usr/bin', root);
    assert.equal(env.GIT_CEILING_DIRECTORIES, '/work', root);
  }
  // A root directly below `/` has `/` as its parent.
  assert.equal(commandEnvironment({}, { mode: 'plan', root: '/ws', scratch: '/s' }).GIT_CEILING_DIRECTORIES, '/');
});
