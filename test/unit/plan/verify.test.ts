import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { judgeVerifyItem, splitVerifyItems } from '../../../src/core/plan';

const code = { markdownOnly: false };
const docs = { markdownOnly: true };
const ok = (item: string, ctx = code) => judgeVerifyItem(item, ctx).ok;
function reason(item: string, ctx = code): string {
  const v = judgeVerifyItem(item, ctx);
  assert.equal(v.ok, false, `${item} should be rejected`);
  return v.ok ? '' : v.reason;
}

test('PLAN-4: commas inside single or double quotes stay in one verify item', () => {
  assert.deepEqual(splitVerifyItems('[npm test, rg -n \'a,b\' README.md, grep -n "x, y" src/a.ts]'), [
    'npm test',
    "rg -n 'a,b' README.md",
    'grep -n "x, y" src/a.ts',
  ]);
});

test('PLAN-4: commas inside backticks stay in one item and the backticks are unwrapped', () => {
  assert.deepEqual(splitVerifyItems('`npm test`, `rg -n "a, b" src`'), ['npm test', 'rg -n "a, b" src']);
});

test('PLAN-4: an apostrophe in prose does not open a quote', () => {
  assert.deepEqual(splitVerifyItems("the parser's output matches `golden.txt`, cargo test"), [
    "the parser's output matches `golden.txt`",
    'cargo test',
  ]);
});

test('PLAN-4: build/test commands and inspection commands are concrete command heads', () => {
  for (const item of [
    'cargo nextest run -p vtcode',
    'cargo check --locked',
    'npm test',
    'pytest',
    'go test ./...',
    "rg -n 'symbol' src",
    "sed -n '1,40p' docs/guide.md",
    'grep -n TODO src/a.ts',
    'head -n 20 README.md',
    'wc -l README.md',
    './scripts/check.sh',
    'cd web && npm test',
    'FORCE_COLOR=0 npm run lint',
  ]) {
    assert.equal(ok(item), true, item);
  }
});

test('PLAN-4 [seed wins]: English-word heads need a flag or a path-like argument', () => {
  assert.match(reason('file changes'), /`file` is also an English word/);
  assert.match(reason('sort'), /`sort` is also an English word/);
  assert.match(reason('find things'), /`find`/);
  assert.match(reason('ls'), /`ls`/);
  assert.match(reason('make'), /`make`/);
  for (const item of [
    'file src/main.rs',
    'sort -c data/names.txt',
    "find src -name '*.ts'",
    'ls -la',
    'ls src/',
    'wc -l README.md',
    'make -C . test',
  ]) {
    assert.equal(ok(item), true, item);
  }
});

test('PLAN-4: `make` with one conventional target is a command (documented interpretation)', () => {
  assert.equal(ok('make test'), true);
  assert.equal(ok('make check'), true);
  assert.equal(ok('make things happen'), false);
});

test('PLAN-4: `run checks` and `git diff --check` are rejected with specific reasons', () => {
  assert.match(reason('run checks'), /names no check/);
  assert.match(reason('Run the tests'), /names no check/);
  assert.match(reason('git diff --check'), /whitespace/);
});

test('PLAN-4: bare and mutating git are rejected', () => {
  assert.match(reason('git'), /bare `git`/);
  assert.match(reason('git commit -m x'), /changes the repository/);
  assert.match(reason('git stash pop'), /changes the repository/);
  assert.match(reason('git -c core.pager=cat log -5'), /-c/);
});

test('PLAN-4 [seed wins]: git history checks pass only when they select a revision, path or filter', () => {
  for (const item of [
    'git log -5 --oneline',
    'git show --stat HEAD',
    'git diff HEAD~1 -- src/main.rs',
    'git blame src/main.rs',
    'git log --author=ana --oneline',
    'git diff main..feature',
    'git -C sub log -3',
    'git grep -n parse_case',
  ]) {
    assert.equal(ok(item), true, item);
  }
  for (const item of ['git log', 'git log --oneline', 'git diff', 'git show', 'git status']) {
    assert.match(reason(item), /selects no revision, path or filter/, item);
  }
});

test('PLAN-4: documentation checks such as `npx markdownlint-cli2 README.md` are valid', () => {
  assert.equal(ok('npx markdownlint-cli2 README.md'), true);
});

test('PLAN-4 [seed wins]: `skip Markdown lint if unavailable` only for Markdown-only steps', () => {
  assert.equal(ok('skip Markdown lint if unavailable', docs), true);
  assert.match(reason('skip Markdown lint if unavailable', code), /only for steps whose targets are all Markdown/);
});

test('PLAN-4: observable checks need a concrete anchor and an observed result', () => {
  for (const item of [
    '`parse_case` passes',
    'GET /health returns 200',
    'the previously failing parse_case passes',
    '`vtplan --help` lists the validate command',
  ]) {
    assert.equal(ok(item), true, item);
  }
  for (const item of ['tests pass', 'all tests pass', 'manual testing', 'it works', 'looks good', 'N/A', 'check']) {
    assert.equal(ok(item), false, item);
  }
});

test('PLAN-4: a pipeline must be read-only/known in every segment; `;` chains are flagged', () => {
  assert.equal(ok('rg -n parse src | head -5'), true);
  assert.equal(ok('rg -n parse src | sort | uniq'), true);
  assert.match(reason('sort | rg -n x'), /`sort` is also an English word/);
  assert.match(reason('rg -n parse src | frobnicate'), /not a recognised command/);
  const chained = judgeVerifyItem('cargo test; cargo clippy', code);
  assert.equal(chained.ok && chained.chained, true);
});

test('PLAN-4: bare runners that need a subcommand are rejected', () => {
  assert.match(reason('npm'), /bare `npm`/);
  assert.match(reason('cargo'), /bare `cargo`/);
});

test('PLAN-4: tools outside the known list count as commands with a flag or a path-like argument', () => {
  for (const item of [
    'turbo run test',
    'nx test web',
    'gotestsum --format short',
    'mytool --check src/',
    'dbt test --select orders',
  ]) {
    assert.equal(ok(item), true, item);
  }
  assert.equal(ok('frobnicate things'), false);
  assert.equal(ok('the output looks right'), false);
  const prose = judgeVerifyItem('verify src/a.ts compiles', code);
  assert.equal(prose.ok && prose.kind, 'observable');
});

test('PLAN-4 (issue 14): a real command inside descriptive text verifies, after an invocation word', () => {
  for (const item of [
    'Run cargo test -p store and confirm the cold case passes',
    'confirm it by running pytest tests/test_a.py -k cold',
    'then rg -n parse_case src/lib.rs shows one hit',
    'run git show --stat HEAD',
  ]) {
    assert.equal(ok(item), true, item);
  }
  // A program merely mentioned, or an English-word head without arguments, is not a command.
  for (const item of ['the output of cargo is clean', 'then sort the output', 'Run make sense of it'])
    assert.equal(ok(item), false, item);
  // A rejected command asked for in prose rejects the item, with the command's own reason.
  assert.match(reason('please run git reset --hard HEAD afterwards'), /`git reset` changes the repository/);
});

test('PLAN-4 (issue 14): environment-prefixed prose only looks like a command and is rejected', () => {
  assert.match(reason('FOO=1 build output'), /sets environment variables, but `build` is not a command/);
  assert.match(reason('NODE_ENV=production build output'), /`build` is not a command/);
  assert.match(reason('CI=1'), /no command follows them/);
  assert.equal(ok('FOO=1 npm test'), true);
  assert.equal(ok('RUST_LOG=debug cargo test -p api'), true);
});

test('PLAN-4 (issue 14, VT Code parity): git through a path or a wrapper, an empty filter and a second line are judged like git', () => {
  assert.match(reason('/usr/local/bin/git checkout -- src/a.ts'), /`git checkout` changes the repository/);
  assert.match(reason('command /usr/local/bin/git clean -fd'), /`git clean` changes the repository/);
  assert.equal(ok('/usr/local/bin/git log -3 --oneline'), true);
  assert.match(reason('git log --author='), /selects no revision, path or filter/);
  assert.match(reason('npm test\ngit stash'), /`git stash` changes the repository/);
  assert.equal(ok('npm test\nnpm run lint'), true);
});

test('PLAN-4 (issue 14, VT Code parity): an independent re-derivation in a fresh context is an observable check', () => {
  assert.equal(ok('independent-rederive the checksum table (fresh context, no helper reuse)'), true);
  assert.equal(ok('re-derive the totals'), false);
});
