import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCommandInWorkspace, checkCommandPaths } from '../../../src/core/policy';

const ROOT = '/work/ws';
const FOLDER_REASON =
  "names the runtime's own folder `.vtcode/` (session logs and plans; writing there would forge the session's record), which commands may not touch";

const DASH = ['dash'];
const BASH = ['bash'];
const BUSYBOX = ['busybox', 'sh'];

/** What `shell` (program and leading arguments) expands `pattern` to in a folder holding only `.vtcode/` (the positive control). */
function expands(shell: readonly string[], pattern: string, setup = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'vtplan-bracket-'));
  try {
    mkdirSync(join(dir, '.vtcode'));
    const [program = 'sh', ...args] = shell;
    return execFileSync(program, [...args, '-c', `${setup}echo ${pattern}`], { cwd: dir, encoding: 'utf8' }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `cat PATTERN/sessions/s.jsonl` must be refused by the path rule in every mode, naming the runtime folder. */
function assertReachesRuntimeFolder(pattern: string): void {
  const command = `cat ${pattern}/sessions/s.jsonl`;
  for (const mode of ['build', 'auto'] as const) {
    const v = checkCommandInWorkspace(command, mode, ROOT);
    assert.equal(v.allowed, false, `${mode}: ${command}`);
    assert.equal(v.refusedBy, 'paths', `${mode}: ${command}`);
    assert.ok(v.reason?.includes(FOLDER_REASON), `${mode}: ${command}: ${v.reason}`);
  }
  // Plan mode refuses unquoted brackets earlier (read-only rule); the path rule alone must refuse too.
  const plan = checkCommandPaths(command, ROOT, 'plan');
  assert.equal(plan.allowed, false, `plan: ${command}`);
  assert.ok(plan.reason?.includes(FOLDER_REASON), `plan: ${command}: ${plan.reason}`);
}

test('MODE-1, RO-2: a `]` quoted or escaped inside a bracket is a member, so `.[v\\]]tcode` and `.[v"]"]tcode` reach .vtcode, writes included', () => {
  const patterns = ['.[v\\]]tcode', '.[v"]"]tcode', ".[v']']tcode", '.[[:alpha:]\\]]tcode'];
  for (const pattern of patterns) {
    assert.equal(expands(DASH, pattern), '.vtcode', pattern);
    assertReachesRuntimeFolder(pattern);
  }
  for (const mode of ['build', 'auto'] as const)
    for (const command of ['cp x .[v\\]]tcode/plans/plan.md', 'echo x > .[v"]"]tcode/plans/plan.md']) {
      const v = checkCommandInWorkspace(command, mode, ROOT);
      assert.equal(v.allowed, false, `${mode}: ${command}`);
      assert.ok(v.reason?.includes(FOLDER_REASON), `${mode}: ${command}: ${v.reason}`);
    }
});

test('MODE-1, RO-2: bracket globs that dash expands to `..` through an escaped `]` or a `[.` it does not know are refused as leaving the workspace', () => {
  for (const pattern of ['.[.\\]]', '.[[.[.]']) assert.equal(expands(DASH, pattern), '..', pattern);
  for (const command of ['cat .[.\\]]/x', 'cat .[[.[.]/x', 'cd .[.\\]] && cat x']) {
    const v = checkCommandInWorkspace(command, 'build', ROOT);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', /can match `\.\.` \(the folder above\) under \/bin\/sh/, command);
  }
});

test('MODE-1, RO-2: a `]` right after a negating `!` is a member, so `.[!]]tcode` is one bracket and reaches .vtcode', () => {
  assert.equal(expands(DASH, '.[!]]tcode'), '.vtcode');
  assertReachesRuntimeFolder('.[!]]tcode');
  const v = checkCommandInWorkspace('cat .[!]]/x', 'build', ROOT);
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', /the glob `\.\[!\]\]\/x` can match `\.\.` \(the folder above\)/);
});

test('MODE-1, RO-2: `^` negates like `!` (bash, busybox sh), so `.[^]]tcode` reaches .vtcode', () => {
  for (const shell of [BASH, BUSYBOX]) assert.equal(expands(shell, '.[^]]tcode'), '.vtcode', shell.join(' '));
  assertReachesRuntimeFolder('.[^]]tcode');
});

test('MODE-1, RO-2: a member followed by `.`, `:` or another letter does not open a class: two brackets in one component still reach .vtcode', () => {
  for (const pattern of ['.[ve]tco[de]e', '.[v.]tco[d.]e', '.[v:]tco[d:]e', '.[[v]tco[dv]e']) {
    assert.equal(expands(DASH, pattern), '.vtcode', pattern);
    assertReachesRuntimeFolder(pattern);
  }
});

test('MODE-1, RO-2: `[:]`, `[=]`, `[.]` inside a bracket are no empty class (the closing `:]` overlaps the opening `[:`), so the bracket closes at that `]`', () => {
  for (const pattern of ['.[v[:]tcode', '.[v[=]tcode', '.[v[.]tcode']) {
    assert.equal(expands(DASH, pattern), '.vtcode', pattern);
    assertReachesRuntimeFolder(pattern);
  }
});

test('MODE-1, RO-2: collating elements `[.c.]` and equivalence classes `[=c=]` hold their own `]` (bash, busybox sh)', () => {
  for (const pattern of ['.[[.v.]]tcode', '.[[=v=]]tcode']) {
    for (const shell of [BASH, BUSYBOX])
      assert.equal(expands(shell, pattern), '.vtcode', `${shell.join(' ')}: ${pattern}`);
    assertReachesRuntimeFolder(pattern);
  }
});

test('MODE-1, RO-2: where the line may turn on bash `dotglob` or zsh `GLOB_DOTS`, a leading `*` or `?` may reach .vtcode', () => {
  assert.equal(expands(BASH, '*code', 'shopt -s dotglob; '), '.vtcode');
  assert.equal(expands(BASH, '*code', 'GLOBIGNORE=x; '), '.vtcode');
  assert.equal(expands(BASH, '???????', 'GLOBIGNORE=x; '), '.vtcode');
  assert.equal(expands(['bash', '-O', 'dotglob'], '?vtcode'), '.vtcode');
  assert.equal(expands(['env', 'BASHOPTS=dotglob', 'bash'], '*code'), '.vtcode');
  const commands = [
    'bash -O dotglob -c "cp x *code/plans/plan.md"',
    'bash -O "dot"glob -c "cat ?vtcode/sessions/s.jsonl"',
    "bash -O $'\\x64otglob' -c 'cat *e/sessions/s.jsonl'",
    'shopt -s dotglob; cp x *code/plans/plan.md',
    'shopt -s dotglob; cat */sessions/s.jsonl',
    'GLOBIGNORE=x; cat ???????/sessions/s.jsonl',
    'GLOBIGNORE=x; echo x > *code/plans/plan.md',
    'env BASHOPTS=dotglob bash -c "cp x *code/plans/plan.md"',
    'env BASH"OPTS"=dot"glob" bash -c "cp x *code/plans/plan.md"',
    'Y=dot; bash -O "$Y"glob -c "cp x *code/plans/plan.md"',
    'zsh -o glob_dots -c "cp x *code/plans/plan.md"',
    'zsh -4 -c "cp x *code/plans/plan.md"',
  ];
  for (const mode of ['build', 'auto'] as const)
    for (const command of commands) {
      const v = checkCommandInWorkspace(command, mode, ROOT);
      assert.equal(v.allowed, false, `${mode}: ${command}`);
      assert.ok(v.reason?.includes(FOLDER_REASON), `${mode}: ${command}: ${v.reason}`);
    }
});

test('MODE-1: without such a setting a leading `*` or `?` never matches a leading dot, so `ls *` and `*code/…` stay allowed', () => {
  assert.equal(expands(DASH, '*code'), '*code');
  for (const command of ['cp x *code/plans/plan.md', 'ls *; du -sh *', 'cat ?vtcode/x', 'shopt -s dotglob; ls *.md'])
    assert.equal(checkCommandInWorkspace(command, 'build', ROOT).allowed, true, command);
});
