/**
 * MODE-1, RO-2: programs that run a command line given as an option's value (`su -c`, `runuser
 * -c`, `script -c`, `flock FILE -c`, `env -S`) had it through unchecked in build and auto mode:
 * `script -q -c 'cat /etc/passwd' /dev/null` read a file outside the workspace. The value is now
 * checked as a command of its own, in every spelling getopt accepts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandPaths } from '../../../src/core/policy';

const ROOT = '/work/ws';

function reasonOf(command: string): string | null {
  const verdict = checkCommandPaths(command, ROOT, 'build');
  return verdict.allowed ? null : (verdict.reason ?? '');
}

test('MODE-1, RO-2: a command line given to su, runuser, script, flock or env -S is checked', () => {
  for (const [command, via] of [
    ["su -c 'cat /etc/passwd'", 'su -c'],
    ["su root -lc 'cat /etc/passwd'", 'su -c'],
    ["su --command 'cat /etc/passwd'", 'su -c'],
    ["su --command='cat /etc/passwd'", 'su -c'],
    ["su --comm 'cat /etc/passwd'", 'su -c'],
    ["runuser -u nobody -c 'cat /etc/passwd'", 'runuser -c'],
    ["script -q -c 'cat /etc/passwd' /dev/null", 'script -c'],
    ["script -qc 'cat /etc/passwd' out.log", 'script -c'],
    ["flock lock -c 'cat /etc/passwd'", 'flock -c'],
    ["env -S 'cat /etc/passwd'", 'env -S'],
    ["env -S'cat /etc/passwd'", 'env -S'],
    ["env --split-string='cat /etc/passwd'", 'env -S'],
    ["env -iS 'cat /etc/passwd'", 'env -S'],
  ] as const) {
    assert.equal(
      reasonOf(command),
      `the script run by \`${via}\`: \`/etc/passwd\` is outside the workspace (/work/ws); commands may only name paths inside it (every argument of \`cat\` counts as a possible path)`,
      command,
    );
  }
});

test('MODE-1: a command line inside the workspace given to them stays allowed', () => {
  for (const command of [
    "su -c 'npm test'",
    "script -q -c 'npm test' out.log",
    "flock build.lock -c 'make -n'",
    "env -S 'ls src'",
    'env FOO=1 ls src',
    'script out.log',
    'su -l',
  ]) {
    assert.equal(reasonOf(command), null, command);
  }
});
