/**
 * Table rows for the parts of verify.ts that read an item as shell words (issue 19, mutation
 * survivors): the tokenizer, git options, wrappers, commands asked for inside prose, observable
 * anchors and the independent re-derivation check (PLAN-4). Each row is an input whose verdict one
 * branch or literal decides.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { judgeVerifyItem } from '../../../src/core/plan';

const code = { markdownOnly: false };

/** `ok:<kind>` (plus ` chained`), or `rejected:` and the reason up to its first `: `. */
function verdictOf(item: string, ctx = code): string {
  const v = judgeVerifyItem(item, ctx);
  if (v.ok) return `ok:${v.kind}${v.chained ? ' chained' : ''}`;
  const cut = v.reason.indexOf(': ');
  return `rejected:${cut === -1 ? v.reason : v.reason.slice(0, cut)}`;
}

function assertVerdicts(rows: readonly (readonly [string, string])[], ctx = code): void {
  for (const [item, expected] of rows) assert.equal(verdictOf(item, ctx), expected, item);
}

test('PLAN-4: tokenizer: quotes keep separators inside one word (PLAN-4 [seed wins])', () => {
  assertVerdicts([
    ["rg -n 'a|frob' src", 'ok:command'],
    ['rg -n "a|frob" src', 'ok:command'],
    ["rg -n 'a;b' src", 'ok:command'],
    [
      'git log "a\\$b"',
      'rejected:`git log a$b` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      "git log 'a\\$b'",
      'rejected:`git log a\\$b` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log "a\\\\b"',
      'rejected:`git log a\\b` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['git log "x', 'rejected:`git log x` selects no revision, path or filter, so it proves nothing about this step'],
    [
      'git log "x y"',
      'rejected:`git log x y` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ["git log ''", 'rejected:`git log ` selects no revision, path or filter, so it proves nothing about this step'],
    [
      'git log a"b c"d',
      'rejected:`git log ab cd` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log "a b"c',
      'rejected:`git log a bc` selects no revision, path or filter, so it proves nothing about this step',
    ],
  ]);
});

test('PLAN-4: tokenizer: a backslash escapes the next character', () => {
  assertVerdicts([
    ['rg -n a\\|frob src', 'ok:command'],
    [
      'git log a\\|b',
      'rejected:`git log a|b` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['git log \\|', 'rejected:`git log |` selects no revision, path or filter, so it proves nothing about this step'],
    ['git log a\\', 'rejected:`git log a` selects no revision, path or filter, so it proves nothing about this step'],
    ['git log \\ x', 'rejected:`git log  x` selects no revision, path or filter, so it proves nothing about this step'],
  ]);
});

test('PLAN-4: tokenizer: a new line (\\n or \\r) or a tab separates', () => {
  assertVerdicts([
    ['npm test\rgit stash', 'rejected:`git stash` changes the repository or its refs and does not verify a step'],
    ['npm test\ngit stash', 'rejected:`git stash` changes the repository or its refs and does not verify a step'],
    ['git\tstash', 'rejected:`git stash` changes the repository or its refs and does not verify a step'],
    ['npm\ttest', 'ok:command'],
  ]);
});

test('PLAN-4: tokenizer: # starts a comment only at the start of a word', () => {
  assertVerdicts([
    ['npm test # | frob', 'ok:command'],
    ['git log a#b', 'rejected:`git log a#b` selects no revision, path or filter, so it proves nothing about this step'],
    ['git log #x', 'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step'],
  ]);
});

test('PLAN-4: tokenizer: ; | & && || separate segments; only ; marks a chain', () => {
  assertVerdicts([
    ['npm test & frob', 'rejected:`frob` in `npm test & frob` is not a recognised command'],
    ['npm test && frob', 'rejected:`frob` in `npm test && frob` is not a recognised command'],
    ['npm test || frob', 'rejected:`frob` in `npm test || frob` is not a recognised command'],
    ['npm test | frob', 'rejected:`frob` in `npm test | frob` is not a recognised command'],
    ['npm test |& frob', 'rejected:`frob` in `npm test |& frob` is not a recognised command'],
    ['npm test ; frob', 'rejected:`frob` in `npm test ; frob` is not a recognised command'],
    ['npm test; npm run lint', 'ok:command chained'],
    ['npm test && npm run lint', 'ok:command'],
    ['npm test | sort', 'ok:command'],
    ['npm test &&& frob', 'rejected:`frob` in `npm test &&& frob` is not a recognised command'],
    ['npm test &| frob', 'rejected:`frob` in `npm test &| frob` is not a recognised command'],
    ['npm test ||| frob', 'rejected:`frob` in `npm test ||| frob` is not a recognised command'],
  ]);
});

test('PLAN-4: tokenizer: redirections end a word and drop a single-digit descriptor', () => {
  assertVerdicts([
    ['npm test 2>&1 | sort', 'ok:command'],
    ['npm test &> out.log', 'ok:command'],
    ['npm test >& out.log', 'ok:command'],
    ['git log>out', 'rejected:`git log out` selects no revision, path or filter, so it proves nothing about this step'],
    ['git log<in', 'rejected:`git log in` selects no revision, path or filter, so it proves nothing about this step'],
    [
      'git log 2>err',
      'rejected:`git log err` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log a>err',
      'rejected:`git log a err` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log a2>err',
      'rejected:`git log a2 err` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log 2a>err',
      'rejected:`git log 2a err` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log 22>err',
      'rejected:`git log 22 err` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git log >err',
      'rejected:`git log err` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['cat<README', 'ok:command'],
    ['git log 2>&1', 'rejected:`git log 1` selects no revision, path or filter, so it proves nothing about this step'],
    ['git log >&2', 'rejected:`git log 2` selects no revision, path or filter, so it proves nothing about this step'],
  ]);
});

test('PLAN-4: git: global options before the subcommand are skipped', () => {
  assertVerdicts([
    ['git -C src log', 'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step'],
    ['git -C src reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    [
      'git --no-pager log',
      'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['git -P log', 'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step'],
    [
      'git --git-dir=.git log',
      'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git --work-tree=x log',
      'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['git --no-pager reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['git -P reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    [
      'git --git-dir=.git reset x',
      'rejected:`git reset` changes the repository or its refs and does not verify a step',
    ],
    ['git --work-tree=w reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    [
      'git x--git-dir= log',
      'rejected:`git x--git-dir= log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git x--work-tree= log',
      'rejected:`git x--work-tree= log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['git -c', 'rejected:`git -c` injects configuration and does not verify anything'],
    ['git -cx log -3', 'rejected:`git -c` injects configuration and does not verify anything'],
    ['git -C', 'rejected:bare `git` is not a check'],
    ['git -P', 'rejected:bare `git` is not a check'],
  ]);
});

test('PLAN-4: git: grep selects by its pattern, diff --check is rejected only for diff', () => {
  assertVerdicts([
    ['git grep parse', 'ok:command'],
    ['git grep -n parse', 'ok:command'],
    ['git grep -n', 'ok:command'],
    [
      'git log --check',
      'rejected:`git log --check` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git show --check',
      'rejected:`git show --check` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'git diff --check HEAD',
      'rejected:`git diff --check` only reports whitespace errors and does not verify the step',
    ],
    [
      'git log parse',
      'rejected:`git log parse` selects no revision, path or filter, so it proves nothing about this step',
    ],
  ]);
});

test('PLAN-4: commands: wrappers and assignments in front of the program', () => {
  assertVerdicts([
    [
      'timeout 60 git reset --hard',
      'rejected:`git reset` changes the repository or its refs and does not verify a step',
    ],
    ['nice git reset --hard', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['command git reset --hard', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['exec git reset --hard', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['xvfb-run git reset --hard', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['FOO=1 npm', 'rejected:bare `npm` does not run a check'],
    ['FOO=1 BAR=2 npm test', 'ok:command'],
    ['FOO=1', 'rejected:`FOO=1` sets environment variables, but no command follows them'],
    ['timeout 5', 'rejected:`timeout 5` is neither a command nor an observable check'],
    ['a=1 git log', 'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step'],
    ['x FOO=1 npm test', 'rejected:`x FOO=1 npm test` is neither a command nor an observable check'],
  ]);
});

test('PLAN-4: commands: git reached through a path is still git', () => {
  assertVerdicts([
    ['/usr/bin/git reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['/usr/bin/git.exe reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['/usr/bin/gitk --all', 'ok:command'],
    ['./git-helper.sh', 'ok:command'],
    ['/usr/bin/git.exe2 x', 'ok:command'],
    ['bin/mygit reset x', 'ok:command'],
  ]);
});

test('PLAN-4: commands: English-word heads, make targets and the example in the reason', () => {
  assertVerdicts([
    ['tree alpha', 'rejected:`tree` is also an English word'],
    ['make test check', 'rejected:`make` is also an English word'],
    ['make -n', 'ok:command'],
    ['cat README', 'ok:command'],
    ['ls .', 'ok:command'],
    ['ls ..', 'ok:command'],
    ['ls --', 'rejected:`ls` is also an English word'],
    ['ls -', 'rejected:`ls` is also an English word'],
    ['sort -', 'rejected:`sort` is also an English word'],
    ['cat a.ts,', 'rejected:`cat` is also an English word'],
    ['file x.md', 'ok:command'],
    ['make alpha', 'rejected:`make` is also an English word'],
    ['frob --', 'rejected:`frob --` is neither a command nor an observable check'],
    ['frob -', 'rejected:`frob -` is neither a command nor an observable check'],
    ['frob -x', 'ok:command'],
    ['frob a.ts', 'ok:command'],
    ['frob *', 'ok:command'],
    ['frob "*"', 'ok:command'],
    ['Frob -x', 'rejected:`Frob -x` is neither a command nor an observable check'],
    ['frob_x -x', 'ok:command'],
    ['9frob -x', 'rejected:`9frob -x` is neither a command nor an observable check'],
    ['frob.sh -x', 'ok:command'],
    ['frob+ -x', 'ok:command'],
    ['f -x', 'ok:command'],
    ['frob$ -x', 'rejected:`frob$ -x` is neither a command nor an observable check'],
    ['frob -x run npm', 'rejected:bare `npm` does not run a check'],
    ['frob -x run sort', 'rejected:`frob -x run sort` is neither a command nor an observable check'],
    ['frob -x run', 'ok:command'],
    ['frob --x with git', 'rejected:bare `git` is not a check'],
    ['frob run npm', 'rejected:bare `npm` does not run a check'],
    ['the -x', 'rejected:`the -x` is neither a command nor an observable check'],
    ['frob src/a.ts', 'ok:command'],
  ]);
});

test('PLAN-4: embedded commands: the program word and its surroundings', () => {
  assertVerdicts([
    ['please run (npm test)', 'ok:command'],
    ['please run "npm test"', 'ok:command'],
    ['please run ((npm test', 'ok:command'],
    ['please run npm), test', 'ok:command'],
    ['please run n(px test', 'rejected:`please run n(px test` is neither a command nor an observable check'],
    ['please run np,m test', 'rejected:`please run np,m test` is neither a command nor an observable check'],
    ['please, Run: npm test', 'ok:command'],
    ['please RUN npm test', 'ok:command'],
    [
      'please run git log.',
      'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'please run git log..',
      'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    [
      'please run git log;',
      'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step',
    ],
    ['please run git blame a.ts', 'ok:command'],
    ['please run git show v1.2', 'ok:command'],
    ['a b c run x y npm test', 'ok:command'],
    ['a run b c npm test', 'ok:command'],
    ['run b c d npm test', 'rejected:`run b c d npm test` is neither a command nor an observable check'],
    ['please run sort', 'rejected:`please run sort` is neither a command nor an observable check'],
    ['please run cat now', 'rejected:`please run cat now` is neither a command nor an observable check'],
    ['please run npm', 'rejected:bare `npm` does not run a check'],
    ['please run pytest', 'ok:command'],
    ['npm', 'rejected:bare `npm` does not run a check'],
    ['use npm', 'rejected:bare `npm` does not run a check'],
    ['x use git reset x', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
  ]);
});

test('PLAN-4: observable checks: anchors and inner commands', () => {
  assertVerdicts([
    ['`npm test` output clean', 'ok:observable'],
    ['`parse_case passes` later', 'rejected:``parse_case passes` later` is neither a command nor an observable check'],
    ['`frob` passes', 'ok:observable'],
    ['`` passes', 'rejected:``` passes` is neither a command nor an observable check'],
    ['`a`b` passes', 'ok:observable'],
    ['output shows x.ts,', 'ok:observable'],
    ['output shows (x.ts', 'ok:observable'],
    ['output shows (x.ts)', 'ok:observable'],
    ['output shows x.ts;:', 'ok:observable'],
    ['output shows "abc"', 'ok:observable'],
    ["output shows 'abc'", 'ok:observable'],
    ['output shows x"abc"', 'rejected:`output shows x"abc"` is neither a command nor an observable check'],
    ['output shows "a\'b"', 'rejected:`output shows "a\'b"` is neither a command nor an observable check'],
    ['output shows ""', 'rejected:`output shows ""` is neither a command nor an observable check'],
    ['output shows "a', 'rejected:`output shows "a` is neither a command nor an observable check'],
    ['output shows the Tasks view', 'ok:observable'],
    ['output shows theTasks', 'ok:observable'],
    ['output shows T', 'rejected:`output shows T` is neither a command nor an observable check'],
    ['output shows TA', 'rejected:`output shows TA` is neither a command nor an observable check'],
    ['Tasks shows', 'rejected:`Tasks shows` is neither a command nor an observable check'],
    ['output shows  x.ts', 'ok:observable'],
    ['output\tshows x.ts', 'ok:observable'],
    ['output shows', 'rejected:`output shows` is neither a command nor an observable check'],
    ['output (x.ts) shows', 'ok:observable'],
  ]);
});

test('PLAN-4: independent re-derivation', () => {
  assertVerdicts([
    ['independent-rederive the table (fresh context, no helper reuse)', 'ok:observable'],
    ['independent re-derive the table without reusing helpers', 'ok:observable'],
    ['fresh re derive of x, no reuse', 'ok:observable'],
    ['independent rederive x no reuse', 'ok:observable'],
    ['rederive x y z no reuse', 'rejected:`rederive x y z no reuse` is neither a command nor an observable check'],
    [
      'independent x y z no reuse',
      'rejected:`independent x y z no reuse` is neither a command nor an observable check',
    ],
    [
      'independent rederive x y z',
      'rejected:`independent rederive x y z` is neither a command nor an observable check',
    ],
    [
      'independent  re-derive,no reuse',
      'rejected:`independent  re-derive,no reuse` is neither a command nor an observable check',
    ],
    ['independent re-derive x y', 'rejected:`independent re-derive x y` is neither a command nor an observable check'],
    ['independent re-derive no reuse', 'ok:observable'],
    ['independent re-derive\tx no reuse', 'ok:observable'],
    ['fresh re-derive x, no helper reuse', 'ok:observable'],
    ['fresh re derive x, no reuse', 'ok:observable'],
  ]);
});

test('PLAN-4: verdict shape', () => {
  assertVerdicts([
    [
      'skip Markdown lint if unavailable',
      'rejected:`skip Markdown lint if unavailable` is allowed only for steps whose targets are all Markdown files; this step needs an ordinary command or observable check',
    ],
    ['run the tests', 'rejected:`run the tests` names no check'],
    ['frobnicate things', 'rejected:`frobnicate things` is neither a command nor an observable check'],
    ['`npm test` passes', 'ok:observable'],
    ['npm test', 'ok:command'],
    ['cargo test; cargo clippy', 'ok:command chained'],
  ]);
});
