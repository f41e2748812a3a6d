/**
 * Issue 14 item 5 (RO-3): the per-program options that make a reading program write a file, run
 * another program or decompress through one, at parity with VT Code's deny-lists and beyond.
 * Each case runs a real `vtplan run --mode plan --jsonl`: every named form must be refused before
 * it runs, and the workspace, everything outside it and `.vtcode/` must stay untouched. The git
 * cases run in a repository whose config names programs (a textconv filter, an external diff, a
 * clean filter, a pager), so a form that slipped through would leave a `pwned-*` file behind. The
 * last case runs without the OS sandbox, where the policy alone stands.
 */
import { attackSuite, type Attack } from './attack-checks';
import { EXEC_FILES, EXEC_REPO } from './attack-fixtures';

/** A program an attack hands to an option; it leaves a mark in and next to the workspace. */
const MARKER = '#!/bin/sh\ntouch {root}/pwned-prog {outside}/pwned-prog 2>/dev/null\ncat "$@"\n';
const FILES = {
  'a.txt': 'b\na\n',
  'b.txt': 'a\nc\n',
  'prog.sh': MARKER,
  magic: '0 string vtsec vtsec-file\n',
  ...EXEC_FILES,
};
const EXECUTABLES = ['prog.sh'];
/** Anything one of these attacks could leave in the workspace. */
const LEFT_BEHIND = [/^pwned/, /^out/, /\.mgc$/, /00Tree\.html$/];

const plan = (name: string, command: readonly string[], extra: Partial<Attack['c']> = {}): Attack['c'] => ({
  name,
  mode: 'plan',
  command,
  files: FILES,
  executables: EXECUTABLES,
  repo: EXEC_REPO,
  ...extra,
});

const refusedAll = { refused: 'all', noWorkspace: LEFT_BEHIND } as const;

const attacks: Attack[] = [
  {
    title: 'git output files',
    c: plan('git-output', [
      'git diff --output=out-diff.txt HEAD',
      'git log -p --output out-log.txt -1',
      'git show --output=out-show.txt HEAD',
      'git range-diff --output=out-rd.txt HEAD HEAD HEAD',
      'git diff-tree -p --output=out-tree.txt HEAD',
      'git stash show --output=out-stash.txt',
    ]),
    expect: refusedAll,
  },
  {
    title: 'git filters and external diff',
    c: plan('git-filters', [
      'git diff --ext-diff HEAD',
      'git log -p --ext-diff -1',
      'git show --textconv HEAD',
      'git grep --textc greet',
      'git cat-file --textconv HEAD:README.md',
      'git cat-file --filt HEAD:README.md',
    ]),
    expect: refusedAll,
  },
  {
    title: 'git programs',
    c: plan('git-programs', [
      "git grep --open-files-in-pager='./prog.sh' greet",
      'git grep -O./prog.sh greet',
      'git -p log -1',
      'git --paginate log -1',
      'git log --show-signature -1',
      'git log --format=%G? -1',
    ]),
    expect: refusedAll,
  },
  {
    title: 'git configuration and helpers',
    c: plan('git-config-injection', [
      'git -c core.pager=./prog.sh log -1',
      'git -ccore.pager=./prog.sh log -1',
      'git --config-env=core.pager=HOME log -1',
      'git --exec-path={root} log -1',
      'git -c diff.external=./prog.sh diff HEAD',
      'git blame --textconv README.md',
    ]),
    expect: refusedAll,
  },
  {
    title: 'ripgrep preprocessors and decompression',
    c: plan('rg-programs', [
      'rg --pre ./prog.sh greet',
      'rg --pre=./prog.sh greet',
      "rg --pre-glob '*.md' greet",
      'rg -z greet',
      'rg --search-zip greet',
      'rg --hostname-bin=./prog.sh --hyperlink-format=default greet',
    ]),
    expect: refusedAll,
  },
  {
    title: 'coreutils and diffutils',
    c: plan('sort-diff-base64', [
      'sort --compress-program=./prog.sh a.txt',
      'sort -T . a.txt',
      'diff -l a.txt b.txt',
      'diff --paginate a.txt b.txt',
      'base64 -o out.b64 a.txt',
      'base64 --output=out.b64 a.txt',
    ]),
    expect: refusedAll,
  },
  {
    title: 'file, tree, fd',
    c: plan('file-tree-fd', [
      'file -C -m magic',
      'file --comp -m magic',
      'file -z a.txt',
      'file -p a.txt',
      'tree -R',
      'fd -l greet',
    ]),
    expect: refusedAll,
  },
  {
    title: 'pagers and the rest',
    c: plan('man-date-find-tree', [
      "man -P './prog.sh' ls",
      'man -H ls',
      'date -s 2020-01-01',
      'find . -fprint out-find.txt',
      'tree -o out-tree.txt',
      'fd --exec-batch ./prog.sh',
    ]),
    expect: refusedAll,
  },
  {
    title: 'no sandbox: write and run options',
    c: plan(
      'nosbx-write-options',
      [
        'git diff --output=out-diff.txt HEAD',
        'git show --textconv HEAD',
        'rg --pre ./prog.sh greet',
        'sort --compress-program=./prog.sh a.txt',
        'diff -l a.txt b.txt',
        'file -C -m magic',
      ],
      { sandbox: 'none', repo: { at: 'workspace' } },
    ),
    expect: refusedAll,
  },
];

attackSuite('plan-mode attacks: write, run and decompress options', attacks, { concurrency: 4 });
