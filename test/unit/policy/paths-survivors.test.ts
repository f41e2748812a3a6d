import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandPaths } from '../../../src/core/policy';

// Issue 19: commands that today's workspace rule refuses and that a surviving mutant of
// src/core/policy/paths.ts let through. Each group names the part of the rule it pins.

const ROOT = '/work/ws';

function assertRefused(commands: readonly string[], reason: RegExp): void {
  for (const command of commands) {
    const verdict = checkCommandPaths(command, ROOT);
    assert.equal(verdict.allowed, false, `${command} must be refused`);
    assert.match(verdict.reason ?? '', reason, command);
  }
}

const OUTSIDE = /`\/etc\/passwd` is outside the workspace \(\/work\/ws\); commands may only name paths inside it/;

test('RO-2: a scheme-like `x://` inside an absolute path does not make it a URL', () => {
  assertRefused(['cat /etc/a://b'], /^`\/etc\/a:\/\/b` is outside the workspace/);
});

test('RO-2: only a leading NAME= is an assignment; a program word holding `=` still has its arguments checked', () => {
  assertRefused(['./run=1 /etc/passwd'], OUTSIDE);
});

test('RO-2: an assignment before the program does not end the check of its arguments', () => {
  assertRefused(['FOO=1 cat /etc/passwd'], OUTSIDE);
});

test('RO-2: a path with `..` after a plain folder is resolved, not taken as plainly relative', () => {
  assertRefused(['cat a/b/../../..'], /^`a\/b\/\.\.\/\.\.\/\.\.` resolves to \/work, outside the workspace/);
});

test('RO-2: bracket globs and dot globs that may match `..` are refused in any component', () => {
  for (const glob of ['a/[.][.]', 'a/b/[.]?', 'src/[.]?', 'src/.*', 'src/.[.x]*']) {
    const verdict = checkCommandPaths(`ls ${glob}`, ROOT);
    assert.equal(verdict.allowed, false, glob);
    assert.ok((verdict.reason ?? '').startsWith(`the glob \`${glob}\` can match \`..\``), verdict.reason ?? '');
  }
  // A bracket of one character matches one character, never the two of `..`: `[*]` is the file `*`.
  assert.equal(checkCommandPaths('ls a/[*]', ROOT).allowed, true);
});

test('RO-2: a glob program word that may match `..` is refused', () => {
  assertRefused(['.*/x'], /^the glob `\.\*\/x` can match `\.\.`/);
});

test('MODE-1, RO-2: a bracket in an absolute path counts as a glob that may name the runtime folder', () => {
  assertRefused(
    ['cat /work/ws/.[v]tcode/x'],
    /^`\/work\/ws\/\.\[v\]tcode\/x` names the runtime's own folder `\.vtcode\/`/,
  );
});

test('RO-2: an attached short-option value starting with `~`, `..` or a variable is checked', () => {
  assertRefused(['tar -C~ -x'], /^`~` names a home folder/);
  assertRefused(['gcc -I.. a.c'], /^`\.\.` resolves to \/work, outside/);
  assertRefused(['gcc -I$HOME a.c'], /^`\$HOME` expands a shell variable/);
});

test('RO-2: after `--` or a lone `-` pattern, the next grep operand is a file, not the pattern', () => {
  assertRefused(['grep -- -x /etc/passwd', 'grep - /etc/passwd'], OUTSIDE);
});

test('RO-2: a long pattern option supplies the pattern, so the first operand is a file', () => {
  assertRefused(
    [
      'grep --regexp=x /etc/passwd',
      'grep --file=x /etc/passwd',
      'grep /etc/passwd --regexp foo',
      'rg --regexp=x /etc/passwd',
      'rg --file=x /etc/passwd',
      'sed --expression=p /etc/passwd',
      'sed --file=x.sed /etc/passwd',
      'awk --file=prog.awk /etc/passwd',
    ],
    OUTSIDE,
  );
});

test('RO-2: grep options that take no value, or a value that is a file, do not exempt the next word', () => {
  assertRefused(
    [
      'grep --count x /etc/passwd',
      'grep --max-count=1 x /etc/passwd',
      'grep -m5 x /etc/passwd',
      'grep -f /etc/passwd src',
      'grep --exclude-from /etc/passwd x .',
    ],
    OUTSIDE,
  );
});

test('RO-2: a git global option value named `grep` is not the grep subcommand; other subcommands have no pattern', () => {
  assertRefused(
    [
      'git -C grep /etc/passwd',
      'git -c grep /etc/passwd',
      'git --git-dir grep /etc/passwd',
      'git --work-tree grep /etc/passwd',
      'git --namespace grep /etc/passwd',
      'git log /etc/passwd',
    ],
    OUTSIDE,
  );
});

test('RO-2: find pattern predicates exempt only their own value, and only for find', () => {
  assertRefused(['cat -name /etc/passwd', 'find . -newer /etc/passwd'], OUTSIDE);
});

test('RO-2: file lists given by abbreviated or find-style options are refused', () => {
  for (const command of ['du --files0=list', 'wc --files-=list', 'tar --files-from=list', 'find . -files0-from list']) {
    const verdict = checkCommandPaths(command, ROOT);
    assert.equal(verdict.allowed, false, command);
    assert.match(verdict.reason ?? '', /reads file names from a list the workspace check cannot see/);
  }
});

test('RO-2: a shell script given by an option cluster holding `c`, also behind env, is checked', () => {
  assertRefused(["bash -cx 'cat /etc/passwd'"], /^the script run by `bash -cx`: `\/etc\/passwd` is outside/);
  assertRefused(["env sh -c 'cat /etc/passwd'"], /^the script run by `sh -c`: `\/etc\/passwd` is outside/);
});

test('RO-2: scripts nested four deep are refused even when the innermost is harmless', () => {
  assertRefused(
    ['eval eval eval eval ls'],
    /scripts nested more than 3 deep \(`eval`\) are more than the workspace check follows$/,
  );
});

test('RO-2: popd returns to the folder before pushd, so `..` after it is resolved from the root', () => {
  assertRefused(
    ['pushd src && popd && cat ../x'],
    /^segment 3 of 3 \(`cat \.\.\/x`\): `\.\.\/x` resolves to \/work\/x, outside/,
  );
});

test('RO-2: cd with two folders, or a glob folder, is refused rather than followed', () => {
  assertRefused(['cd src /etc && ls'], /\(`cd src \/etc`\): `cd` takes one folder; run the commands separately$/);
  assertRefused(['cd s* && cat ../x'], /\(`cd s\*`\): `cd s\*`: the folder is a glob; name it explicitly$/);
});

test('RO-2: a command of assignments only is allowed', () => {
  assert.equal(checkCommandPaths('FOO=bar', ROOT).allowed, true);
});
