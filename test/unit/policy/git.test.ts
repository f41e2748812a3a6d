import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

const plan = (c: string) => checkCommand(c, 'plan');

test('RO-2, RO-3: git REV:PATH and :PATH forms whose path leaves the workspace (leading `/`, a `..` component) are refused', () => {
  const refused = [
    'git show HEAD:../secret.txt',
    'git show HEAD:/etc/passwd',
    'git show HEAD:src/../../x',
    'git show main~2:./../x',
    'git show :../x',
    'git show :0:../x',
    'git show :2:/x',
    'git cat-file -p HEAD:../x',
    'git ls-tree HEAD:../',
    'git diff HEAD:../a HEAD:b',
    'git log -L 1,5:../x',
    'git show HEAD@{1}:../x',
    'git show "HEAD@{2024-01-01 10:00:00}:../x"',
  ];
  for (const c of refused) assert.match(plan(c).reason ?? 'ALLOWED', /the path after `:` leaves the workspace/, c);
  for (const c of [
    'git show HEAD:package.json',
    'git show HEAD~1:src/a.ts',
    'git show :src/a.ts',
    'git show "HEAD@{2024-01-01 10:00:00}:a"',
    'git log --since "2024-01-01 10:00" -1',
    'git log --format="%h: %s" -3',
    'git diff HEAD~1..HEAD',
    'git log @{u}..',
    'git grep "http://x" -- src',
    'git grep -e "a:/b" -- src',
  ]) {
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  }
});

test('RO-2, RO-3: git top-of-repository pathspec magic and :/message revisions are refused; other magic is not', () => {
  for (const c of [
    "git grep foo -- ':/'",
    "git grep foo -- ':/*.env'",
    "git log -- ':(top)x'",
    "git log -- ':(exclude,top)x'",
    "git log -- ':( top )x'",
    "git log -- ':!/x'",
    "git log -- ':^/x'",
    'git show :/fix',
    "git log -- ':(top'",
  ]) {
    assert.match(plan(c).reason ?? 'ALLOWED', /top-of-repository pathspec magic/, c);
  }
  assert.match(plan("git log -- ':(icase)../x'").reason ?? 'ALLOWED', /leaves the workspace/);
  for (const c of [
    "git log -- ':!vendor'",
    "git log -- ':^vendor'",
    "git log -- ':(exclude)vendor'",
    "git log -- ':(icase)readme'",
    "git ls-files -- ':(glob)src/**/*.ts'",
  ]) {
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  }
});

test('RO-2: git --no-index (any two files) is refused; -C stays allowed [seed wins] while --git-dir, --work-tree, --exec-path and -c are not', () => {
  for (const c of ['git diff --no-index a b', 'git diff --no-ind a b', 'git grep --no-index foo'])
    assert.match(plan(c).reason ?? 'ALLOWED', /reads any files/, c);
  for (const c of [
    'git --git-dir=/x/.git log',
    'git --git-dir /x log',
    'git --work-tree=/ status',
    'git --exec-path=/tmp log',
    'git --exec-path',
    'git -c core.pager=sh log',
    'git --namespace=x log',
  ])
    assert.equal(plan(c).allowed, false, c);
  assert.equal(plan('git -C sub log -1').allowed, true);
});

test('RO-2: git config read forms are allowed; writes, edits and other scopes (--global, --system, --file, --blob) are refused', () => {
  for (const c of [
    'git config --get user.name',
    'git config --get-all remote.origin.fetch',
    'git config --get-regexp "^remote\\."',
    'git config --list',
    'git config -l',
    'git config -lz',
    'git config --list --show-origin --show-scope',
    'git config --local --list',
    'git config --type=bool --get core.bare',
    'git config --type bool --get core.bare',
    'git config --get --default=x a.b',
    'git config get user.name',
    'git config get --all remote.origin.fetch',
    'git config list --show-origin',
    'git config --get-urlmatch http.proxy https://x.org',
  ]) {
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'inspection'], `${c}: ${plan(c).reason}`);
  }
  const refused: [string, RegExp][] = [
    ['git config user.name x', /sets or edits configuration/],
    ['git config user.name', /sets or edits configuration/],
    ['git config set user.name x', /sets or edits configuration/],
    ['git config --add a.b c', /not a read option/],
    ['git config --unset a.b', /not a read option/],
    ['git config --replace-all a.b c', /not a read option/],
    ['git config --edit', /not a read option/],
    ['git config -e', /not a read option/],
    ['git config --remove-section a', /not a read option/],
    ['git config --glob --list', /not a read option/],
    ['git config --global --list', /configuration outside the workspace/],
    ['git config --global user.name x', /configuration outside the workspace/],
    ['git config --system -l', /configuration outside the workspace/],
    ['git config --file /tmp/x -l', /configuration outside the workspace/],
    ['git config -f x -l', /configuration outside the workspace/],
    ['git config -lf x', /configuration outside the workspace/],
    ['git config --blob HEAD:x -l', /configuration outside the workspace/],
    ['git config get --global user.name', /configuration outside the workspace/],
    ['git config --list extra', /sets a value/],
    ['git config --get a.b c d', /sets a value/],
  ];
  for (const [c, why] of refused) assert.match(plan(c).reason ?? 'ALLOWED', why, c);
});

test('RO-2: git submodule status is allowed; every other submodule command is refused', () => {
  for (const c of [
    'git submodule',
    'git submodule status',
    'git submodule status --recursive',
    'git submodule --quiet status',
    'git submodule status -- lib/x',
  ])
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
  for (const c of [
    'git submodule update --init',
    'git submodule foreach rm -rf .',
    'git submodule add https://x/y',
    'git submodule sync',
    'git submodule status --init',
  ])
    assert.equal(plan(c).allowed, false, c);
});
