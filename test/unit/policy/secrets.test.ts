import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

const plan = (c: string) => checkCommand(c, 'plan');

test('RO-2: commands that print the environment (secrets) are refused in plan mode, with the reason', () => {
  const refused: [string, RegExp][] = [
    ['printenv', /`printenv` prints the environment, which holds secrets/],
    ['printenv PATH', /`printenv` prints the environment/],
    ['env', /`env` without a command prints the environment/],
    ['env | head', /`env` without a command prints the environment/],
    ['env -u HOME', /`env` without a command prints the environment/],
    ['env A=1', /`env` without a command prints the environment/],
    ['env -i sh', /with a command runs it/],
    ['env A=1 ls', /with a command runs it/],
    ['env -u HOME -C src ls', /with a command runs it/],
    ["env -S 'sh -c id'", /with a command runs it/],
    ['ps e', /BSD option `e` prints each process's environment/],
    ['ps axe', /BSD option `e`/],
    ['ps auxeww', /BSD option `e`/],
    ['ps -p 1 eww', /BSD option `e`/],
    ['ps -o pid e', /BSD option `e`/],
    ['ps -eo pid e', /BSD option `e`/],
    ['ps -opid e', /BSD option `e`/],
    ['ps axo pid,user e', /BSD option `e`/],
    ['cat /proc/self/environ', /`\/proc\/self\/environ` may be a process environment/],
    ['cat /proc/1/environ', /process environment/],
    ['strings /proc/self/task/1/environ', /process environment/],
    ['xxd /proc/self/environ', /process environment/],
    ["tr '\\0' '\\n' < /proc/self/environ", /process environment/],
    ['cat "/proc/self/environ"', /process environment/],
    ['cat /proc/self/env*', /process environment/],
    ['export -p', /lists the shell's variables, among them the environment/],
    ['export', /lists the shell's variables/],
    ['set', /lists the shell's variables/],
    ['declare -x', /lists the shell's variables/],
    ['declare -p', /lists the shell's variables/],
    ['typeset -x', /lists the shell's variables/],
    ['readonly -p', /lists the shell's variables/],
    ['compgen -v', /not on the read-only allow-list/],
    ['git var -l', /prints all configuration, which can hold credentials/],
    ['git var', /name exactly one variable/],
  ];
  for (const [c, why] of refused) assert.match(plan(c).reason ?? 'ALLOWED', why, c);
  for (const c of ['export A=1', 'set -e', 'declare x=1'])
    assert.match(plan(c).reason ?? '', /changes shell or process state/, c);
  for (const c of [
    'ps',
    'ps -e',
    'ps -ef',
    'ps aux',
    'ps -eo pid,comm',
    'ps -o pid,user,etime',
    'ps -eo pid,user',
    'ps -opid,user',
    'ps -ef -o user',
    'ps -u user',
    'ps --sort etime -e',
    'ps axo pid,user',
    'ps ax',
    'git var GIT_EDITOR',
    'cat /proc/cpuinfo',
  ])
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
});
