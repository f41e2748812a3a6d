/**
 * Full rejection reasons and the remaining branch rows of verify.ts (issue 19, mutation
 * survivors): the example each English-word head suggests, the two generic reasons, how
 * `splitVerifyItems` trims and unwraps the list, and segment rules the table files do not reach
 * (PLAN-4, PLAN-8: reasons are specific and actionable).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { judgeVerifyItem, splitVerifyItems } from '../../../src/core/plan';

const code = { markdownOnly: false };

function reasonOf(item: string): string {
  const v = judgeVerifyItem(item, code);
  assert.equal(v.ok, false, `${item} should be rejected`);
  return v.ok ? '' : v.reason;
}

function verdictOf(item: string): string {
  const v = judgeVerifyItem(item, code);
  return v.ok ? `ok:${v.kind}${v.chained ? ' chained' : ''}` : `rejected:${v.reason}`;
}

test('PLAN-4: the list is trimmed, unwrapped from one pair of brackets, and empty items (also empty code spans) are dropped', () => {
  for (const [value, items] of [
    [' [npm test, cargo test] ', ['npm test', 'cargo test']],
    ['[npm test', ['[npm test']],
    ['npm test]', ['npm test]']],
    ['npm test,, cargo test', ['npm test', 'cargo test']],
    ['[ npm test ,  , cargo test ]', ['npm test', 'cargo test']],
    ['npm test, ``, ` `', ['npm test']],
  ] as const) {
    assert.deepEqual(splitVerifyItems(value), items, value);
  }
});

test('PLAN-4, PLAN-8: each English-word head suggests its own example; other heads get `<head> src/main.rs`', () => {
  for (const [head, example] of [
    ['file', 'file src/main.rs'],
    ['sort', 'sort -c data/names.txt'],
    ['find', "find src -name '*.ts'"],
    ['ls', 'ls -l src/'],
    ['wc', 'wc -l README.md'],
    ['make', 'make -C . test'],
    ['head', 'head -n 20 README.md'],
    ['tail', 'tail -n 20 CHANGELOG.md'],
    ['cat', 'cat package.json'],
    ['test', 'test -f dist/cli.js'],
    ['diff', 'diff -u a.txt b.txt'],
    ['tree', 'tree src/main.rs'],
    ['uniq', 'uniq src/main.rs'],
  ]) {
    assert.equal(
      reasonOf(`${head} alpha`),
      `\`${head}\` is also an English word: as a command it needs a flag or a path-like argument (e.g. \`${example}\`), otherwise it reads as prose`,
      head,
    );
  }
});

test('PLAN-4, PLAN-8: the "names no check" and "neither" reasons name the item and an example', () => {
  assert.equal(
    reasonOf('run the tests'),
    '`run the tests` names no check: give the exact command (e.g. `npm test`, `cargo test -p crate`) or an observable result',
  );
  assert.equal(
    reasonOf('frobnicate things'),
    "`frobnicate things` is neither a command nor an observable check: name the command (e.g. `rg -n 'symbol' src`) or what is observed on which target (e.g. `parse_case` passes)",
  );
  assert.equal(reasonOf('npm test | frob a'), '`frob a` in `npm test | frob a` is not a recognised command');
  assert.equal(
    reasonOf('git log -1x'),
    '`git log -1x` selects no revision, path or filter, so it proves nothing about this step: e.g. `git log -5 --oneline`, `git diff HEAD~1 -- <path>`, `git blame <path>`',
  );
});

test('PLAN-4: only the words after the program (not an assignment in front, not the last word alone) make it a command', () => {
  for (const [item, verdict] of [
    [
      'FOO=src/x cat alpha',
      'rejected:`cat` is also an English word: as a command it needs a flag or a path-like argument (e.g. `cat package.json`), otherwise it reads as prose',
    ],
    ['cat src/ alpha', 'ok:command'],
    [
      'FOO=src/x frob alpha',
      'rejected:`FOO=src/x frob alpha` sets environment variables, but `frob` is not a command: put the command after the assignments (e.g. `FORCE_COLOR=0 npm test`)',
    ],
    ['frob src/ alpha', 'ok:command'],
    [
      'tree test',
      'rejected:`tree` is also an English word: as a command it needs a flag or a path-like argument (e.g. `tree src/main.rs`), otherwise it reads as prose',
    ],
    ['git grep -i parse', 'ok:command'],
  ]) {
    assert.equal(verdictOf(item as string), verdict, item);
  }
});

test('PLAN-4: segment rules — a later assignment, a later bare runner, a leading separator, doubled separators', () => {
  for (const [item, verdict] of [
    ['npm test && FOO=1 build', 'rejected:`FOO=1 build` in `npm test && FOO=1 build` is not a recognised command'],
    ['npm test | npm', 'rejected:bare `npm` does not run a check: add the subcommand or target (e.g. `npm test`)'],
    ['; npm test', 'ok:command chained'],
    ['| npm test', 'ok:command'],
    ['npm test;>out.log', 'rejected:`out.log` in `npm test;>out.log` is not a recognised command'],
    ['npm test ||frob', 'rejected:`frob` in `npm test ||frob` is not a recognised command'],
    ['npm test &|frob', 'rejected:`frob` in `npm test &|frob` is not a recognised command'],
    ['npm test|frob', 'rejected:`frob` in `npm test|frob` is not a recognised command'],
  ]) {
    assert.equal(verdictOf(item as string), verdict, item);
  }
});

test('PLAN-4: observable checks — a quote at the start, a bracket only at a word start, a soft head before an anchor', () => {
  for (const [item, verdict] of [
    ['"abc" shows', 'ok:observable'],
    ['diff of `parse_case` shows no change', 'ok:observable'],
    ['run b  c npm test', 'ok:command'],
  ]) {
    assert.equal(verdictOf(item as string), verdict, item);
  }
  assert.match(
    verdictOf('output shows a(x.ts'),
    /^rejected:`output shows a\(x\.ts` is neither a command nor an observable check/,
  );
});
