// Every way a read-only-looking command can print the environment or a secret file (RO-2,
// MODE-1), each judged by what run_command asks (checkCommandInWorkspace in plan mode): refused by
// the read-only policy, refused by the workspace path rule, or allowed, and why. The kind of a
// refusal matters to the model: `unknown` (it may print secrets) is not `mutation` (it runs or
// changes something). Rows added from the survivors of `npm run mutate policy` (docs/testing.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand, checkCommandInWorkspace } from '../../../src/core/policy';

const ROOT = '/work/ws';
const plan = (c: string) => checkCommandInWorkspace(c, 'plan', ROOT);

type Refusal = [command: string, kind: 'unknown' | 'mutation', reason: RegExp];

const SECRETS = 'the environment, which holds secrets \\(API keys, tokens\\)';
const ENV_PRINTS = new RegExp(`^\`env\` without a command prints ${SECRETS}$`);
const ENV_RUNS =
  /^`env` with a command runs it with a changed environment, which the policy cannot see; run the inner command directly$/;
const PS_ENV = (word: string, letter: string) =>
  new RegExp(
    `^\`ps ${word}\`: the option \`${letter}\` prints each process's environment \\(procps \`e\`; macOS \`e\`, \`E\`, \`-E\`\\), which holds secrets \\(API keys, tokens\\)$`,
  );
const LISTS = (shown: string) => new RegExp(`^\`${shown}\` lists the shell's variables, among them ${SECRETS}$`);
const CHANGES = (name: string) => new RegExp(`^\`${name}\` changes shell or process state$`);
const ENVIRON_FILE = (word: string) =>
  new RegExp(`^\`${word.replace(/[*]/g, '\\$&')}\` may be a process environment, which holds secrets`);

/** Refused by the read-only policy. */
const POLICY_REFUSES: Refusal[] = [
  ['printenv', 'unknown', new RegExp(`^\`printenv\` prints ${SECRETS}$`)],
  ['printenv OPENAI_API_KEY', 'unknown', /^`printenv` prints the environment/],
  ['printenv -0', 'unknown', /^`printenv` prints the environment/],
  // env: options and assignments only print; the first other word is a command that env runs.
  ['env', 'unknown', ENV_PRINTS],
  ['env | grep KEY', 'unknown', /^segment 1 of 2 \(`env`\): `env` without a command prints the environment/],
  ['env -0', 'unknown', ENV_PRINTS],
  ['env --null', 'unknown', ENV_PRINTS],
  ['env -i', 'unknown', ENV_PRINTS],
  ['env -', 'unknown', ENV_PRINTS],
  ['env --', 'unknown', ENV_PRINTS],
  ['env -u HOME', 'unknown', ENV_PRINTS],
  ['env -uHOME', 'unknown', ENV_PRINTS],
  ['env --unset HOME', 'unknown', ENV_PRINTS],
  ['env --unset=HOME', 'unknown', ENV_PRINTS],
  ['env -C src', 'unknown', ENV_PRINTS],
  ['env --chdir src', 'unknown', ENV_PRINTS],
  ['env --chdir=src', 'unknown', ENV_PRINTS],
  ['env A=1', 'unknown', ENV_PRINTS],
  ['env A_B2=1 C=', 'unknown', ENV_PRINTS],
  // env(1) takes every word holding `=` as an assignment, a name sh would refuse included.
  ['env 1A=b', 'unknown', ENV_PRINTS],
  ['env -u HOME -C src A=1', 'unknown', ENV_PRINTS],
  ['env ls', 'mutation', ENV_RUNS],
  ['env -i sh', 'mutation', ENV_RUNS],
  ['env A=1 ls', 'mutation', ENV_RUNS],
  ['env -u HOME ls', 'mutation', ENV_RUNS],
  ['env -u HOME -C src ls', 'mutation', ENV_RUNS],
  ['env --unset=HOME ls', 'mutation', ENV_RUNS],
  ['env --chdir=src ls', 'mutation', ENV_RUNS],
  ['env -- ls', 'mutation', ENV_RUNS],
  // `-S` / `--split-string` run the command their value spells, attached or not.
  ["env -S 'sh -c id'", 'mutation', ENV_RUNS],
  ['env -Sid', 'mutation', ENV_RUNS],
  ['env --split-string=id', 'mutation', ENV_RUNS],
  ['env -i --split-string=id', 'mutation', ENV_RUNS],
  // ps: procps `e` and macOS `e`/`E` in a BSD cluster, macOS `-E` in a dash cluster.
  ['ps e', 'unknown', PS_ENV('e', 'e')],
  ['ps axe', 'unknown', PS_ENV('axe', 'e')],
  ['ps auxeww', 'unknown', PS_ENV('auxeww', 'e')],
  ['ps eww 1234', 'unknown', PS_ENV('eww', 'e')],
  ['ps -p 1 eww', 'unknown', PS_ENV('eww', 'e')],
  ['ps -o pid e', 'unknown', PS_ENV('e', 'e')],
  ['ps -eo pid e', 'unknown', PS_ENV('e', 'e')],
  ['ps -opid e', 'unknown', PS_ENV('e', 'e')],
  ['ps axo pid,user e', 'unknown', PS_ENV('e', 'e')],
  // A long option without a value, or with its value after `=`, leaves the next word a BSD cluster.
  ['ps --forest e', 'unknown', PS_ENV('e', 'e')],
  ['ps --no-headers e', 'unknown', PS_ENV('e', 'e')],
  ['ps --pid=1 e', 'unknown', PS_ENV('e', 'e')],
  ['ps --format=pid,args e', 'unknown', PS_ENV('e', 'e')],
  ['ps E', 'unknown', PS_ENV('E', 'E')],
  ['ps auxE', 'unknown', PS_ENV('auxE', 'E')],
  ['ps -E', 'unknown', PS_ENV('-E', 'E')],
  ['ps -Eww', 'unknown', PS_ENV('-Eww', 'E')],
  ['ps -wwE', 'unknown', PS_ENV('-wwE', 'E')],
  ['ps -AE', 'unknown', PS_ENV('-AE', 'E')],
  ['ps -Ep 1', 'unknown', PS_ENV('-Ep', 'E')],
  ['ps -p 1 -E', 'unknown', PS_ENV('-E', 'E')],
  ['ps -A -o pid,command -E', 'unknown', PS_ENV('-E', 'E')],
  // macOS reads `-e` as "show the environment" only in legacy mode, which an assignment would ask for.
  ['COMMAND_MODE=legacy ps -e', 'unknown', /^`COMMAND_MODE=legacy` sets an environment variable for the command/],
  // /proc/<pid>/environ, however it is named or read.
  ['cat /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['cat /proc/1/environ', 'unknown', ENVIRON_FILE('/proc/1/environ')],
  ['cat "/proc/self/environ"', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['strings /proc/self/task/1/environ', 'unknown', ENVIRON_FILE('/proc/self/task/1/environ')],
  ['head -c 4096 /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['xxd /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['od -c /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['grep -a KEY /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['sed -n p /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ["tr '\\0' '\\n' < /proc/self/environ", 'unknown', ENVIRON_FILE('/proc/self/environ')],
  // Programs that print the lines of a file they were told to read as data, in their errors.
  ['wc --files0-from=/proc/self/environ', 'unknown', ENVIRON_FILE('--files0-from=/proc/self/environ')],
  ['date -f /proc/self/environ', 'unknown', ENVIRON_FILE('/proc/self/environ')],
  ['cat /proc/self/env*', 'unknown', ENVIRON_FILE('/proc/self/env*')],
  ['cat /proc/*/environ', 'unknown', ENVIRON_FILE('/proc/*/environ')],
  ['cat /proc/[0-9]*/environ', 'unknown', /^an unquoted `\[…\]` is a glob; quote it$/],
  // The shell's own listings: with options only they list; with names (or `set` with options) they set.
  ['set', 'unknown', LISTS('set')],
  ['export', 'unknown', LISTS('export')],
  ['export -p', 'unknown', LISTS('export -p')],
  ['declare -x', 'unknown', LISTS('declare -x')],
  ['declare -p', 'unknown', LISTS('declare -p')],
  ['declare -p -x', 'unknown', LISTS('declare -p -x')],
  ['declare -xi', 'unknown', LISTS('declare -xi')],
  ['typeset', 'unknown', LISTS('typeset')],
  ['typeset -x', 'unknown', LISTS('typeset -x')],
  ['readonly', 'unknown', LISTS('readonly')],
  ['readonly -p', 'unknown', LISTS('readonly -p')],
  ['set -x', 'mutation', CHANGES('set')],
  ['set -e', 'mutation', CHANGES('set')],
  ['set -- a b', 'mutation', CHANGES('set')],
  ['export A=1', 'mutation', CHANGES('export')],
  ['export A=-p', 'mutation', CHANGES('export')],
  ['declare x=1', 'mutation', CHANGES('declare')],
  ['declare -x A', 'mutation', CHANGES('declare')],
  ['local', 'mutation', CHANGES('local')],
  ['compgen -v', 'unknown', /^`compgen` is not on the read-only allow-list$/],
  ['compgen -e', 'unknown', /^`compgen` is not on the read-only allow-list$/],
  // Expansions, and the languages of allowed programs.
  ['echo $OPENAI_API_KEY', 'unknown', /variable/],
  ['printf %s "${TOKEN}"', 'unknown', /variable/],
  ['awk \'BEGIN { print ENVIRON["HOME"] }\'', 'mutation', /awk `ENVIRON` \/ `PROCINFO` expose the environment/],
  ['awk \'BEGIN { getline l < "/pro" "c/1/environ"; print l }\'', 'mutation', /awk `getline` reads from a command/],
  ['jq -n env', 'unknown', /`env` \/ `\$ENV` print the environment/],
  ["jq -n '$ENV.PATH'", 'unknown', /`env` \/ `\$ENV` print the environment/],
  ["sed '1r /proc/self/environ' README.md", 'unknown', ENVIRON_FILE('1r /proc/self/environ')],
  ["sed '1r .env.local' README.md", 'unknown', /`r`/],
  ["node -e 'console.log(process.env)'", 'mutation', /is an interpreter/],
  ["python3 -c 'import os; print(os.environ)'", 'mutation', /is an interpreter/],
  // Programs with an environment listing of their own.
  ['make -p', 'mutation', /only the dry run `make -n` is allowed/],
  ['make -np', 'unknown', /^`make -np` is not allowed in plan mode/],
  ['go env', 'mutation', /only `go test` and `go version` are allowed/],
  ['npm run env', 'unknown', /^`npm run env` runs a package script/],
  ['npm config list', 'mutation', /^`npm config` installs, changes or runs packages$/],
  ['systemctl show-environment', 'mutation', /^`systemctl` changes system state$/],
  // git: its configuration and credential helpers can hold tokens.
  ['git var -l', 'unknown', /`git var -l` prints all configuration, which can hold credentials/],
  ['git var', 'unknown', /^`git var`: name exactly one variable/],
  ['git config --global --list', 'unknown', /names configuration outside the workspace/],
  ['git credential fill', 'mutation', /^`git credential` changes the repository/],
  ['git credential-store get', 'unknown', /^`git credential-store` is not a read-only git subcommand/],
  ['git credential-osxkeychain get', 'unknown', /^`git credential-osxkeychain` is not a read-only git subcommand/],
];

test('RO-2: every command that prints the environment is refused in plan mode by the read-only policy, with its reason and kind', () => {
  for (const [command, kind, reason] of POLICY_REFUSES) {
    const v = plan(command);
    assert.deepEqual([v.allowed, v.refusedBy, v.class], [false, 'policy', kind], command);
    assert.match(v.reason ?? '', reason, command);
  }
});

test('RO-2, MODE-1: secret files outside the workspace, /proc included however it is reached, are refused by the workspace path rule', () => {
  for (const [command, reason] of [
    ['cat ~/.aws/credentials', /^`~\/\.aws\/credentials` names a home folder/],
    ['cat ~/.netrc', /^`~\/\.netrc` names a home folder/],
    ['cat /etc/shadow', /^`\/etc\/shadow` is outside the workspace/],
    ['cat ../other/.env', /^`\.\.\/other\/\.env` resolves to \/work\/other\/\.env, outside the workspace/],
    // Neither word spells `/proc/…/environ`, so the policy's own check does not fire; /proc is outside anyway.
    ['cat /pro?/self/environ', /^`\/pro\?\/self\/environ` is outside the workspace/],
    ['grep -r KEY /proc/self', /^`\/proc\/self` is outside the workspace/],
    ['cd /proc/self && cat environ', /^segment 1 of 2 \(`cd \/proc\/self`\): `\/proc\/self` is outside the workspace/],
    ['git -C ~ config --list', /^`~` names a home folder/],
  ] as const) {
    const v = plan(command);
    assert.deepEqual([v.allowed, v.refusedBy], [false, 'paths'], command);
    assert.match(v.reason ?? '', reason, command);
  }
});

test('RO-2: ps reads the word after an option that takes a value as that value, never as the BSD option `e`', () => {
  // procps reads these words as the option's value (`ps --pid e` fails with "process ID list
  // syntax error"), so none of them prints an environment.
  for (const c of [
    'ps',
    'ps -e',
    'ps -ef',
    'ps -A',
    'ps aux',
    'ps ax',
    'ps -eo pid,comm',
    'ps -o pid,user,etime',
    'ps -eo pid,user',
    'ps -opid,user',
    'ps -ef -o user',
    'ps -u eve',
    'ps -p1 -o user',
    // An `E` in an option's value is no option: `-C` selects processes by name.
    'ps -C Emacs',
    'ps -CEmacs',
    'ps axo pid,user',
    'ps --sort etime -e',
    'ps --user eve',
    'ps --User eve',
    'ps --group wheel',
    'ps --Group wheel',
    'ps --format user,etime',
    'ps --tty console',
    'ps --pid e',
    'ps --ppid e',
    'ps --quick-pid e',
    'ps --sid e',
    'ps --cols e',
    'ps --columns e',
    'ps --rows e',
    'ps --width e',
  ])
    assert.deepEqual([c, plan(c).allowed, plan(c).class], [c, true, 'inspection']);
});

test('RO-2: reading the workspace, its own .env included, is allowed: commands never see the host environment or HOME', () => {
  // What a command can reach of the host's secrets is its environment and the user's files; the
  // environment is an allow-list (command-env.ts) and HOME a throwaway folder. Workspace files are
  // the agent's to read (read_file reads them too).
  for (const c of [
    'cat .env',
    'rg -n API_KEY .env.example',
    'git config --get user.name',
    'git config --list',
    'git var GIT_EDITOR',
    'locale',
    'id',
  ])
    assert.deepEqual([c, plan(c).allowed, plan(c).reason], [c, true, null]);
  // /proc files other than environ are not secrets; only the path rule refuses them.
  assert.equal(checkCommand('cat /proc/cpuinfo', 'plan').allowed, true);
});
