/**
 * Issue 19, rerun of src/core/policy/paths.ts (the workspace path rule, MODE-1 / RO-2): the hole its
 * survivors led to (a program with a command option hid the `sh -c` it runs; `env -S` split words
 * lead the rest of the command), the survivors that would let a path outside the workspace
 * through, and ordinary commands that must stay allowed (a false refusal is a usability bug).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace, checkCommandPaths } from '../../../src/core/policy';
import type { AgentMode } from '../../../src/core/vocabulary';

const ROOT = '/work/ws';
const MODES: readonly AgentMode[] = ['build', 'auto', 'plan'];

function reasonOf(command: string, mode: AgentMode = 'build'): string | null {
  const verdict = checkCommandPaths(command, ROOT, mode);
  return verdict.allowed ? null : (verdict.reason ?? '');
}

const PASSWD_BY = (via: string): string =>
  `the script run by \`${via}\`: \`/etc/passwd\` is outside the workspace (/work/ws); commands may only name paths inside it (every argument of \`cat\` counts as a possible path)`;

test('MODE-1, RO-2: a `sh -c` run behind a program with a command option of its own is still checked', () => {
  // Each of these read /etc/passwd in build and auto mode: the option letter inside another word
  // (`-uSOMETHING`, `-ce`, `-cx`) was taken as the program's own command option, and the `sh -c`
  // after it was never looked for.
  for (const [command, via] of [
    ["env -uSOMETHING sh -c 'cat /etc/passwd'", 'env -S'],
    ["env -Senv sh -c 'cat /etc/passwd'", 'env -S'],
    ["runuser -u nobody -- sh -ce 'cat /etc/passwd'", 'sh -ce'],
    ["flock .lock bash -cx 'cat /etc/passwd'", 'bash -cx'],
  ] as const) {
    for (const mode of MODES) {
      const verdict = checkCommandInWorkspace(command, mode, ROOT);
      assert.equal(verdict.allowed, false, `${command} (${mode})`);
      assert.match(
        verdict.paths.reason ?? '',
        /the script run by `(sh|bash) -c\w*`: `\/etc\/passwd` is outside the workspace/,
      );
      assert.ok(
        (verdict.paths.reason ?? '').startsWith(`the script run by \`${via}\``),
        `${command}: ${verdict.paths.reason}`,
      );
    }
  }
});

test('MODE-1, RO-2: the words `env -S` splits lead the rest of the command, which is checked with them', () => {
  // `env -S 'sh -c' 'cat /etc/passwd'` runs `sh -c 'cat /etc/passwd'`.
  for (const command of [
    "env -S 'sh -c' 'cat /etc/passwd'",
    "env -S'sh -c' 'cat /etc/passwd'",
    "env --split-string 'sh -c' 'cat /etc/passwd'",
    "env --split-string='sh -c' -- 'cat /etc/passwd'",
    "env -S 'bash -o pipefail -c' 'cat /etc/passwd'",
  ]) {
    for (const mode of MODES) {
      assert.equal(
        reasonOf(command, mode),
        `the script run by \`env -S\`: ${PASSWD_BY('sh -c').replace('sh -c', /bash/.test(command) ? 'bash -c' : 'sh -c')}`,
        command,
      );
    }
  }
  // An expansion among the following words stays an expansion in the joined command line.
  assert.match(
    reasonOf('env -S cat "$X"') ?? '',
    /^the script run by `env -S`: `\$X` expands a shell variable the workspace check cannot resolve/,
  );
  for (const command of [
    "env -S 'sh -c' 'cat README.md'",
    "env -S 'ls src' docs",
    "env -S 'make' build",
    "env -S 'sh -c' 'cat x' sh",
  ]) {
    assert.equal(reasonOf(command), null, command);
  }
});

test('MODE-1, RO-2: every word after the `-c` script is read as one too, not only the last', () => {
  // `sh -c SCRIPT NAME ARGS…`: the script is not the last word when `$0` or arguments follow it.
  for (const command of [
    "sh -c 'cat /etc/passwd' sh",
    "bash -c 'cat /etc/passwd' name a b",
    "timeout 5 sh -c 'cat /etc/passwd' sh",
  ]) {
    const via = command.startsWith('bash') ? 'bash -c' : 'sh -c';
    assert.equal(reasonOf(command), PASSWD_BY(via), command);
  }
});

test('RO-2: a special parameter (`$*`, `$?`, `$!`) in a word is an expansion the rule cannot resolve', () => {
  // `sh -c 'cat x$*' sh ' /etc/passwd'` word-splits into `cat x /etc/passwd`.
  for (const [command, shown] of [
    ['cat x$*', 'x${*}'],
    ['cat x/a$*', 'x/a${*}'],
    ['cat notes$?', 'notes${?}'],
    ['cat logs/run$!', 'logs/run${!}'],
  ] as const) {
    assert.equal(
      reasonOf(command),
      `\`${shown}\` expands a shell variable the workspace check cannot resolve, so it cannot prove the path stays inside the workspace (/work/ws); spell the path out (every argument of \`cat\` counts as a possible path)`,
      command,
    );
  }
  assert.match(
    reasonOf("sh -c 'cat x$*' sh ' /etc/passwd'") ?? '',
    /^the script run by `sh -c`: `x\$\{\*\}` expands a shell variable/,
  );
});

test('RO-2: `parallel` takes the file names it passes from its input and is refused like xargs', () => {
  for (const mode of MODES) {
    assert.equal(
      reasonOf('echo /etc/passwd | parallel cat', mode),
      'segment 2 of 2 (`parallel cat`): `parallel` takes the file names it passes from its input, which the workspace check cannot see; name the files on the command line instead',
    );
  }
});

test('MODE-1, RO-2: `--command` of runuser, script and flock is read as the command line it is', () => {
  for (const [command, via] of [
    ["runuser -u nobody --command='cat /etc/passwd'", 'runuser -c'],
    ["runuser -u nobody --command 'cat /etc/passwd'", 'runuser -c'],
    ["script -q --command='cat /etc/passwd' out.log", 'script -c'],
    ["script -q --command 'cat /etc/passwd' out.log", 'script -c'],
    ["flock build.lock --command='cat /etc/passwd'", 'flock -c'],
    ["flock build.lock --command 'cat /etc/passwd'", 'flock -c'],
    // getopt_long takes the shortest unambiguous abbreviation, down to one letter.
    ["env --s 'cat /etc/passwd'", 'env -S'],
    ["su --c 'cat /etc/passwd'", 'su -c'],
  ] as const) {
    assert.equal(reasonOf(command), PASSWD_BY(via), command);
  }
});

test('MODE-1: a substitution in a Perl script is not a glob that could match `..`', () => {
  // `.*` quoted is a literal word; only an unquoted one is a glob (`cat .*` reaches `..` in sh).
  for (const command of ["perl -pe 's/.*//' notes.txt", "git log --grep='.*'", "perl -ne 'print if /.?x/' a.txt"]) {
    assert.equal(reasonOf(command), null, command);
  }
  assert.match(reasonOf('cat .*') ?? '', /^the glob `\.\*` can match `\.\.`/);
});

test('MODE-1, RO-2: a lone `/` attached to a folder option is the root folder, refused; only after a separator option is it a separator', () => {
  // `tar -C/ -xf a.tar` extracted into /, `env -C/ cat etc/passwd` read /etc/passwd.
  for (const [command, program] of [
    ['tar -C/ -xf a.tar', 'tar'],
    ['env -C/ cat etc/passwd', 'env'],
    ['make -C/ -f x', 'make'],
  ] as const) {
    for (const mode of MODES) {
      assert.equal(
        reasonOf(command, mode),
        `\`/\` is outside the workspace (/work/ws); commands may only name paths inside it (every argument of \`${program}\` counts as a possible path)`,
        command,
      );
    }
  }
  assert.match(reasonOf('git -C/ status') ?? '', /^`\/` is outside the workspace/);
  for (const command of [
    'cut -d/ -f2 a.txt',
    'cut -sd/ -f2 a.txt',
    'paste -d/ a b',
    'sort -k1.5 -t/ names.txt',
    'join -t/ a b',
    'column -t -s/ a.txt',
    'column -t -o/ a.txt',
    'split -t/ a.txt',
  ]) {
    assert.equal(reasonOf(command), null, command);
  }
});

test('RO-2: from a subfolder, a glob whose `..` component stays inside is allowed', () => {
  // Only a component holding `*`, `?` or `[` is a glob that could match `..`; a literal `..` is resolved.
  for (const command of ['cd src && ls ../*.md', 'cd test/unit && cat ../../docs/*.md']) {
    assert.equal(reasonOf(command), null, command);
  }
  assert.match(
    reasonOf('cd src && ls ../../*.md') ?? '',
    /^segment 2 of 2 \(`ls \.\.\/\.\.\/\*\.md`\): `\.\.\/\.\.\/\*\.md` resolves to \/work\/\*\.md from `src`, outside the workspace/,
  );
});

test('MODE-1, RO-2: the words after `env -S VALUE` are joined after it, however many follow', () => {
  // `env -S 'sh -c' 'cat /etc/passwd' sh a b` runs `sh -c 'cat /etc/passwd' sh a b`.
  assert.equal(
    reasonOf("env -S 'sh -c' 'cat /etc/passwd' sh a b"),
    `the script run by \`env -S\`: ${PASSWD_BY('sh -c')}`,
  );
});

test('RO-2: a command option with nothing after it gives an empty command line, refused as unreadable', () => {
  for (const [command, via] of [
    ['su -c', 'su -c'],
    ['flock build.lock -c', 'flock -c'],
    ['env -S', 'env -S'],
  ] as const) {
    assert.equal(
      reasonOf(command),
      `the script run by \`${via}\`: the workspace check cannot read the command: the command is empty`,
      command,
    );
  }
});

test('MODE-1, RO-2: only a lone `/` counts as a separator, and only for the separator options', () => {
  // `sort -o/tmp/names.ts` writes outside even though `t` (sort's separator letter) precedes the `s`;
  // `cp -t/` copies into the root folder: `t` is a separator letter of sort, not of cp.
  for (const [command, shown, program] of [
    ['sort -o/tmp/names.ts names.ts', '/tmp/names.ts', 'sort'],
    ['cp -t/ notes.txt', '/', 'cp'],
    ['mv -t/ notes.txt', '/', 'mv'],
  ] as const) {
    assert.equal(
      reasonOf(command),
      `\`${shown}\` is outside the workspace (/work/ws); commands may only name paths inside it (every argument of \`${program}\` counts as a possible path)`,
      command,
    );
  }
});
