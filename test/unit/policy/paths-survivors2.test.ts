import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandPaths } from '../../../src/core/policy';
import type { AgentMode } from '../../../src/core/vocabulary';

// Issue 19, second round on src/core/policy/paths.ts: the `sh -c` hole its survivors led to,
// ordinary commands the workspace rule must keep allowing (a false refusal is a usability bug),
// and what its refusals name.

const ROOT = '/work/ws';

function assertAllowed(commands: readonly string[], root = ROOT, mode?: AgentMode): void {
  for (const command of commands) {
    const verdict = checkCommandPaths(command, root, mode);
    assert.equal(verdict.allowed, true, `${command} must stay allowed: ${verdict.reason ?? ''}`);
  }
}

function assertRefused(commands: readonly string[], reason: RegExp, root = ROOT, mode?: AgentMode): void {
  for (const command of commands) {
    const verdict = checkCommandPaths(command, root, mode);
    assert.equal(verdict.allowed, false, `${command} must be refused`);
    assert.match(verdict.reason ?? '', reason, command);
  }
}

const SCRIPT_OUTSIDE = /^the script run by `\w+ -c`: `\/etc\/passwd` is outside the workspace \(\/work\/ws\)/;

test('MODE-1, RO-2: a `sh -c` script is checked whatever shell options come before or after `-c`', () => {
  const commands = [
    "bash -o pipefail -c 'cat /etc/passwd'",
    "sh -o errexit -c 'cat /etc/passwd'",
    "bash -O extglob -c 'cat /etc/passwd'",
    "bash --rcfile x -c 'cat /etc/passwd'",
    "bash +e -c 'cat /etc/passwd'",
    "bash -c -e 'cat /etc/passwd'",
    "bash -c -- 'cat /etc/passwd'",
    "zsh --emulate sh -c 'cat /etc/passwd'",
  ];
  for (const mode of ['build', 'auto'] as const) assertRefused(commands, SCRIPT_OUTSIDE, ROOT, mode);
});

test('MODE-1, RO-2: every shell, run by any program, has its `-c` script checked', () => {
  assertRefused(
    ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', '/bin/bash'].map((shell) => `${shell} -c 'cat /etc/passwd'`),
    SCRIPT_OUTSIDE,
  );
  assertRefused(
    [
      "setsid sh -c 'cat /etc/passwd'",
      "find . -exec sh -c 'cat /etc/passwd' \\;",
      "ionice -c3 sh -c 'cat /etc/passwd'",
      "nice -n 5 bash -c 'cat /etc/passwd'",
      "sudo -u me sh -c 'cat /etc/passwd'",
      "timeout 5 sh -c 'cat /etc/passwd'",
    ],
    SCRIPT_OUTSIDE,
  );
});

test('MODE-1, RO-2: `watch` runs its words as one command line, which is checked', () => {
  assertRefused(["watch -n 2 'cat /etc/passwd'"], /^the script run by `watch`: `\/etc\/passwd` is outside/);
  assertAllowed(['watch -n 2 ls src', 'watch git status']);
});

test('RO-2: shell scripts inside the workspace stay allowed, with or without shell options', () => {
  assertAllowed([
    "bash -o pipefail -c 'npm test | tee out.txt'",
    "sh -c 'cp a.txt b.txt' sh",
    'bash scripts/build.sh',
    'sh -c',
    'grep -c bash README.md',
    // `-c` is a script flag only after a shell: grep's count of a literal `$HOME` runs nothing.
    "grep -c '$HOME' README.md",
    // Only the words after `-c` are scripts: the `find` pattern before the shell is not one.
    "find . -name '.*' -exec sh -c 'ls -d' \\;",
  ]);
});

test('RO-2: a grep option value is read as the value, so a pattern that looks like a path stays a pattern', () => {
  const values: readonly (readonly [string, string])[] = [
    ['after-context', '2'],
    ['before-context', '2'],
    ['context', '2'],
    ['max-count', '1'],
    ['devices', 'skip'],
    ['directories', 'skip'],
    ['include', '*.ts'],
    ['exclude', '*.md'],
    ['exclude-dir', 'node_modules'],
    ['exclude-from', 'ignore.txt'],
    ['label', 'stdin'],
    ['binary-files', 'text'],
  ];
  assertAllowed(values.map(([option, value]) => `grep --${option} ${value} /api/ src`));
  assertAllowed(['grep --regexp /api/ src', 'grep --regexp=/api/ src', 'grep -e /api/ src']);
  assertAllowed(['egrep /api/ src', 'fgrep /api/ src', 'git --no-pager grep /api/ src']);
});

test('RO-2: an rg option value is read as the value; glob, replacement and pattern values are not paths', () => {
  const values: readonly (readonly [string, string])[] = [
    ['type', 'ts'],
    ['type-not', 'md'],
    ['max-count', '1'],
    ['max-depth', '2'],
    ['context', '2'],
    ['after-context', '2'],
    ['before-context', '2'],
    ['encoding', 'utf-8'],
    ['threads', '2'],
    ['ignore-file', '.rgignore'],
    ['sort', 'path'],
    ['sortr', 'path'],
  ];
  assertAllowed(values.map(([option, value]) => `rg --${option} ${value} /api/ src`));
  assertAllowed([
    'rg --regexp /api/ src',
    "rg --glob '/dist/**' /api/ src",
    "rg --iglob '/DIST/**' /api/ src",
    'rg --replace /v2/ /v1/ src',
  ]);
});

test('RO-2: sed and awk scripts, separators and assignments given by option stay what they are', () => {
  assertAllowed([
    'sed --expression /^x/d notes.txt',
    'sed --expression=/^x/d notes.txt',
    'sed --line-length 80 -n /^x/p notes.txt',
    "awk -F / '{print $2}' paths.txt",
    "awk --field-separator / '/^a/ {print $2}' paths.txt",
    "awk --assign x=1 '/^a/ {print x}' data.csv",
    "awk -v x=1 '/^a/ {print x}' data.csv",
  ]);
  assertAllowed(['gawk', 'mawk', 'nawk'].map((awk) => `${awk} '/^a/ {print}' data.csv`));
});

test('RO-2: when an option gives the pattern or script, every operand is a path', () => {
  const outside = /^`\/etc\/passwd` is outside the workspace/;
  assertRefused(
    ['rg -e TODO /etc/passwd', 'rg -f pats.txt /etc/passwd', 'sed -e s/a/b/ /etc/passwd', 'sed -f x.sed /etc/passwd'],
    outside,
  );
  assertRefused(['awk -f prog.awk /etc/passwd', 'awk --file prog.awk /etc/passwd'], outside);
});

test('RO-2: the value of a find name predicate is a pattern, not a path', () => {
  const predicates = ['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex'];
  assertAllowed([...predicates, '-lname', '-ilname'].map((p) => `find . ${p} '~*'`));
});

test('RO-2: cd flags and `--` are not folders; the one folder after them is followed', () => {
  assertAllowed([
    'cd -- src/a && cat ../../README.md',
    'cd -P src/a && cat ../../README.md',
    'cd -LP src/a && cat ../../README.md',
    'cd x-L && ls',
  ]);
  assertRefused(['cd src* && ls'], /`cd src\*`: the folder is a glob; name it explicitly$/);
});

test('RO-2: a workspace root given with a trailing slash is the same root', () => {
  assertAllowed(['cat /work/ws/README.md', 'cd src && cat ../README.md'], '/work/ws/');
  assertRefused(['cat .vtcode/x'], /^`\.vtcode\/x` names the runtime's own folder/, '/work/ws/');
});

test('MODE-1: with the file system root as workspace, its runtime folder is still refused', () => {
  assertRefused(['cat /.vtcode/plan.md'], /^`\/\.vtcode\/plan\.md` names the runtime's own folder/, '/');
});

test('RO-2: a file URL naming another host is refused and says so', () => {
  assertRefused(['curl file://host/etc/passwd'], /^`file:\/\/host\/etc\/passwd` names a file on another host, outside/);
});

test('RO-2: only `--files-from`-like options read a file list; a file named like one is a file', () => {
  assertAllowed(['echo -files0-from', 'cat ./files-from ./files0-from']);
});

test('RO-2: only generic programs get the "every argument counts as a possible path" note', () => {
  for (const command of ['grep x /etc/passwd', 'git grep x /etc/passwd', 'find /etc/passwd']) {
    const reason = checkCommandPaths(command, ROOT).reason ?? '';
    assert.match(reason, /^`\/etc\/passwd` is outside the workspace/, command);
    assert.doesNotMatch(reason, /counts as a possible path/, command);
  }
});

test('RO-2: the standard streams and /dev/null are the only absolute paths outside allowed', () => {
  assertAllowed(['cat /dev/stdin > /dev/stdout 2> /dev/stderr', 'cat README.md > /dev/null']);
  assertRefused(['cat /dev/tty'], /^`\/dev\/tty` is outside the workspace/);
});

test('RO-2: a detached grep value that looks like an option is read as one, so the word stays checked', () => {
  assertRefused(['grep -e -/tmp/x src'], /^`\/x` is outside the workspace/);
  // An option as the last word has no value to take.
  assertAllowed(['grep TODO src -n', 'grep --regexp']);
});

test('RO-2: a pattern attached to -e inside a cluster is a pattern; -e ending a cluster takes nothing', () => {
  assertAllowed(['grep -e/api/ src', 'grep -ie/api/ src']);
  assertRefused(['grep -/x/e -r src', 'grep -/x/e'], /^`\/e` is outside the workspace/);
});

test('RO-2: the folder named by git -C is not the subcommand, even when it is called grep', () => {
  assertRefused(['git -C grep -e/etc/passwd'], /^`\/etc\/passwd` is outside the workspace/);
});

test('RO-2: one `..` from a subfolder stays inside, and a name that only starts with `..` is no step up', () => {
  assertAllowed(['cd src && cat ../ab ../..notes']);
});

test('RO-2: with the file system root as workspace, `..` cannot leave it', () => {
  assertAllowed(['cat ../etc/hosts'], '/');
});

test('MODE-1: with the file system root as workspace, `..` from inside the plans folder is still checked', () => {
  assertRefused(
    ['cd .vtcode/plans && cat ../x'],
    /^segment 2 of 2 \(`cat \.\.\/x`\): `\.\.\/x` names the runtime's own folder/,
    '/',
    'plan',
  );
});

test('RO-2: a long option value is read after its `=`, not from the first slash', () => {
  assertAllowed(['tsc --outDir=dist/esm']);
});

test('RO-2: a lone `/` attached to a short option is a separator, not the root folder', () => {
  assertAllowed(['cut -d/ -f1 paths.txt']);
});

test('RO-2: a redirection target the shell parser cannot read is refused and named', () => {
  assertRefused(['cat README.md > ${x'], /^redirection `> \$\{x`: the shell parser cannot read the command/);
});

test('RO-2: exactly as many folder changes as the check follows stay allowed', () => {
  assertAllowed([`${Array.from({ length: 32 }, () => 'cd .').join(' && ')} && ls`]);
});
