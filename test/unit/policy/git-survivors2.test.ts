import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand, checkCommandInWorkspace } from '../../../src/core/policy';

// Issue 19: git commands whose verdict (allowed, class, reason) a surviving mutant of
// src/core/policy/git.ts changed. Each test names the part of the git policy it pins.

const plan = (c: string) => checkCommand(c, 'plan');

function assertAllowed(commands: readonly string[]): void {
  for (const c of commands)
    assert.deepEqual([plan(c).allowed, plan(c).class], [true, 'inspection'], `${c}: ${plan(c).reason}`);
}

function assertRefused(commands: readonly string[], cls: 'mutation' | 'unknown', reason: RegExp): void {
  for (const c of commands) {
    const verdict = plan(c);
    assert.deepEqual([verdict.allowed, verdict.class], [false, cls], `${c}: ${verdict.reason}`);
    assert.match(verdict.reason ?? '', reason, c);
  }
}

test('RO-2, RO-3: a manual page runs the viewer the repository config names, so `git help TOPIC` and `git SUB --help` are refused', () => {
  // `man.viewer=x` + `man.x.cmd=PROGRAM` in .git/config: `git help log` and `git log --help` run PROGRAM.
  assertRefused(
    [
      'git help log',
      'git help -- log',
      'git help -- -a',
      'git help -a log',
      'git --no-pager help gitignore',
      'git -C sub help log',
    ],
    'mutation',
    /^`git help (log|gitignore|-a)` opens a manual page through the viewer the repository's configuration names \(man\.viewer, help\.format\)/,
  );
  assert.match(plan('git help status').reason ?? '', /`git status -h` prints its options$/);
  assertRefused(
    ['git log --help', 'git log -1 --help', 'git reflog --help', 'git version --help', 'git -C sub status --help'],
    'mutation',
    /^`git (log|reflog|version|status) --help` opens a manual page through the viewer/,
  );
  assert.match(plan('git diff --help').reason ?? '', /`git diff -h` prints its options$/);
  assertRefused(
    ['git help -m', 'git help -i', 'git help --man log', 'git help --info', 'git help -am'],
    'mutation',
    /^`git help (-m|-i|--man|--info|-am)` is not a listing option \(-a, -g, -c, --verbose\); the others open a manual page/,
  );
  assertRefused(['git help -w log', 'git help --we', 'git help -aw'], 'mutation', /starts a web browser/);
  assertAllowed([
    'git help',
    'git help -a',
    'git help --all --verbose',
    'git help -av',
    'git help -g',
    'git help --guides',
    'git help -c',
    'git help --config',
    'git help --user-interfaces',
    'git help --developer-interfaces',
    'git help -a --no-external-commands --no-aliases',
    'git help -a --external-commands --aliases --no-verbose',
    'git log -h',
    'git --help',
  ]);
});

test('RO-2: the read subcommands are allowed as they are', () => {
  assertAllowed([
    'git ls-files',
    'git rev-parse HEAD',
    'git describe --tags',
    'git shortlog -sn HEAD',
    'git rev-list HEAD',
    'git diff-tree HEAD',
    'git merge-base main HEAD',
    'git whatchanged -1',
    'git count-objects -v',
    'git version',
  ]);
});

test('RO-2: the mutating git subcommands are refused as mutations, by name', () => {
  const mutating = [
    'add',
    'am',
    'apply',
    'archive',
    'bisect',
    'checkout',
    'cherry-pick',
    'clean',
    'clone',
    'commit',
    'fetch',
    'filter-branch',
    'format-patch',
    'gc',
    'init',
    'merge',
    'mv',
    'notes',
    'prune',
    'pull',
    'push',
    'rebase',
    'replace',
    'repack',
    'reset',
    'restore',
    'revert',
    'rm',
    'switch',
    'update-index',
    'update-ref',
    'symbolic-ref',
    'maintenance',
    'sparse-checkout',
    'lfs',
    'send-email',
    'request-pull',
    'fast-import',
    'hash-object',
    'mktag',
    'mktree',
    'commit-tree',
    'read-tree',
    'write-tree',
    'checkout-index',
    'ls-remote',
    'remote-ext',
    'daemon',
    'instaweb',
    'credential',
    'svn',
    'p4',
    'cvsimport',
    'bundle',
    'pack-objects',
    'unpack-objects',
    'fsck',
  ];
  for (const sub of mutating) {
    assertRefused(
      [`git ${sub}`],
      'mutation',
      new RegExp(`^\`git ${sub}\` changes the repository, the working tree or the network$`),
    );
  }
  assertRefused(['git frobnicate'], 'unknown', /^`git frobnicate` is not a read-only git subcommand/);
});

test('RO-2: the global options that only change what is read or shown are allowed before the subcommand', () => {
  assertAllowed([
    'git --no-pager log -1',
    'git -P log -1',
    'git --no-optional-locks status',
    'git --literal-pathspecs log -1',
    'git --glob-pathspecs log -1',
    'git --noglob-pathspecs log -1',
    'git --icase-pathspecs log -1',
    'git --no-replace-objects log -1',
    'git --version',
    'git --help',
    'git -h',
  ]);
  // A probe fed input is judged by the git policy itself, not as a version/help probe.
  assertAllowed(['echo x | git -h']);
  assertRefused(
    ['git --version log', 'git --help log', 'git -h log'],
    'unknown',
    /^`git (--version|--help|-h)` takes nothing after it$/,
  );
});

test('RO-2: any other global option is refused, each kind with its own class and reason', () => {
  assertRefused(['git --foo log', 'git --cat log'], 'unknown', /^git option `--(foo|cat)` is not allowed in plan mode/);
  // Only `-c…` and `--config-env` (or its abbreviations) inject configuration.
  assertRefused(['git -Pc log'], 'unknown', /^git option `-Pc` is not allowed in plan mode/);
  assertRefused(
    ['git -c a.b=c log', '--config-env=core.pager=HOME log'].map((c) => (c.startsWith('git') ? c : `git ${c}`)),
    'mutation',
    /injects configuration/,
  );
  assertRefused(['git --paginate log'], 'mutation', /^`git --paginate` runs the pager program$/);
  assertRefused(['git --exec-path=/tmp log'], 'mutation', /picks the folder git runs its helper programs from/);
  assertRefused(['git --git-dir=/x log'], 'unknown', /points git at another repository/);
  assertRefused(['git --work-tree=/x status'], 'unknown', /points git at another working tree/);
  assertRefused(['git --bare log'], 'unknown', /bare repository/);
  assertRefused(['git --namespace=x log'], 'unknown', /namespace the policy does not follow/);
  assertRefused(['git --super-prefix=x/ status'], 'unknown', /internal to git/);
});

test('RO-2: git without a subcommand, or `-C` without its directory, is refused with the reason', () => {
  assertRefused(
    ['git', 'git --no-pager', 'git -C sub'],
    'unknown',
    /^bare `git` prints usage; name a read-only subcommand$/,
  );
  assertRefused(['git -C'], 'unknown', /^`git -C` needs a directory$/);
});

test('RO-3: `git grep --ext-grep` is refused: it runs an external grep program', () => {
  assertRefused(['git grep --ext-grep foo'], 'mutation', /^`git grep --ext-grep` runs an external grep program$/);
});

test('RO-3: a `%G` log format is refused in its detached form too, and the reason shows the value', () => {
  assertRefused(
    ['git log --format %G? -1', 'git log -1 --format %G?'],
    'mutation',
    /^`git log --format %G\?`: the `%G` placeholders/,
  );
  assertRefused(['git log --p %GS'], 'mutation', /^`git log --p %GS`: the `%G` placeholders/);
  assertRefused(['git log --format=%G? -1'], 'mutation', /^`git log --format=%G\?`: the `%G` placeholders/);
  // Only --format/--pretty values are formats; `%G` elsewhere (a grep pattern, a path) is not.
  assertAllowed([
    'git log --grep=%GK -1',
    'git log --author %GK -1',
    'git log -1 -- zzf=%Gx',
    'git log --pretty',
    'git log --format=%h -1',
  ]);
});

test('RO-2, RO-3: refusals of the read subcommands carry their class', () => {
  assertRefused(['git diff --no-index a b'], 'unknown', /reads any files/);
  assertRefused(['git show HEAD:../x'], 'unknown', /the path after `:` leaves the workspace/);
});

test('RO-2: a REV:PATH path is checked even when the word ends in `-`, and an option word is not a REV:PATH', () => {
  assertRefused(
    ['git show HEAD:../notes-'],
    'unknown',
    /^`git show HEAD:\.\.\/notes-`: the path after `:` leaves the workspace/,
  );
  assertAllowed(['git log --format=%h:../%s -1']);
});

test('RO-2: exclude magic (`:!`, `:^`) does not hide a path that leaves the workspace', () => {
  assertRefused(["git log -- ':!../x'", "git log -- ':^../x'"], 'unknown', /the path after `:` leaves the workspace/);
});

test('RO-2: a colon inside `@{…}` belongs to the revision; only the colon after it starts the path', () => {
  assertAllowed([
    'git show "HEAD@{1:/x}:a"',
    'git show "HEAD@{1:../x}:a"',
    'git show "HEAD:a{1:/b}"',
    'git show "HEAD:a/..:x"',
  ]);
  assertRefused(['git show "HEAD@{1:/x}:../a"'], 'unknown', /the path after `:` leaves the workspace/);
});

test('RO-2: a plain path without REV: is left to the workspace path rule, which refuses one outside the workspace', () => {
  for (const c of ['git log -- ../other', 'git log -- ../notes:old']) {
    assert.equal(plan(c).allowed, true, `${c}: ${plan(c).reason}`);
    const verdict = checkCommandInWorkspace(c, 'plan', '/work/ws');
    assert.equal(verdict.refusedBy, 'paths', c);
    assert.match(verdict.reason ?? '', /outside the workspace/, c);
  }
});

test('RO-2: `git grep` checks every word after its pattern, and only the pattern is exempt', () => {
  // With -e/-f/--regexp/--file the pattern is given, so the first plain word is a revision or path.
  assertRefused(
    [
      'git grep -e foo HEAD:../x',
      'git grep --regexp=foo HEAD:../x',
      'git grep --file=pats HEAD:../x',
      'git grep -en HEAD:../x',
      'git grep -iefoo HEAD:../x',
      'git grep -ebar HEAD:../x',
    ],
    'unknown',
    /^`git grep HEAD:\.\.\/x`: the path after `:` leaves the workspace/,
  );
  // A pattern that merely holds `-e`, `--file` or `:../` text, or follows an option, is still the pattern.
  assertAllowed([
    'git grep "see-f:../docs" -- src',
    'git grep "a--file:../b" -- src',
    'git grep --regexp "a:../b" -- src',
    'git grep -n "TODO:../" -- src',
  ]);
});

test('RO-2: git submodule status takes -q/--quiet and --cached; other commands and options are refused with their class', () => {
  assertAllowed(['git submodule -q status', 'git submodule status -q', 'git submodule status --cached']);
  assertRefused(
    ['git submodule update'],
    'mutation',
    /^`git submodule update` changes submodules or runs commands in them; only `git submodule status` is allowed$/,
  );
  assertRefused(['git submodule status --init'], 'unknown', /^`git submodule status --init` is not a listing option$/);
});

test('RO-2: git var names exactly one variable; the reason shows what was given', () => {
  assertAllowed(['git var GIT_EDITOR']);
  assertRefused(['git var -l'], 'unknown', /^`git var -l`: name exactly one variable/);
  assertRefused(['git var A B'], 'unknown', /^`git var A B`: name exactly one variable/);
  assertRefused(['git var'], 'unknown', /^`git var`: name exactly one variable/);
});

test('RO-2: git branch and git tag list with their listing flags and detached values', () => {
  const branchFlags = [
    '--all',
    '-r',
    '--remotes',
    '-v',
    '--verbose',
    '-l',
    '--list',
    '--show-current',
    '--merged',
    '--no-merged',
    '--contains',
    '--no-contains',
    '--sort=-committerdate',
    "--format='%(refname)'",
    '--color',
    '--no-color',
    '--column',
    '--no-column',
    '--points-at=HEAD',
    '-i',
    '--ignore-case',
    '--abbrev=7',
    '--no-abbrev',
    '--omit-empty',
    '-q',
    '--quiet',
  ];
  assertAllowed(branchFlags.map((f) => `git branch ${f}`));
  const tagFlags = [
    '--list',
    '-n',
    '-n3',
    '--sort=version:refname',
    '--contains',
    '--no-contains',
    '--merged',
    '--no-merged',
    '--points-at=HEAD',
    "--format='%(refname)'",
    '--column',
    '--no-column',
    '--color',
    '-i',
    '--ignore-case',
    '--omit-empty',
  ];
  assertAllowed(tagFlags.map((f) => `git tag ${f}`));
  // A detached value is the option's, not a ref to create.
  assertAllowed([
    'git branch --sort committerdate',
    "git branch --format '%(refname)'",
    'git branch --contains HEAD',
    'git branch --no-contains HEAD',
    'git branch --merged main',
    'git branch --no-merged main',
    'git branch --points-at HEAD',
    'git tag -n 3',
  ]);
  assertAllowed([
    'git remote --verbose',
    'git worktree list -v',
    'git worktree list --verbose',
    'git worktree list -z',
  ]);
  assertAllowed(['git worktree list --expire 2.weeks.ago', 'git worktree list --porcelain --expire now']);
});

test('RO-2: git branch/tag take patterns only when listing (-l, --list or an abbreviation of two letters or more)', () => {
  assertAllowed(['git branch --list "feat*"', 'git branch -l "feat*"', 'git tag -l "v1*"', 'git tag --list "v1*"']);
  // After `--` git reads patterns, so a pattern may start with `-`.
  assertAllowed(['git branch --list -- -x', 'git tag -l -- -d']);
  assertRefused(
    ['git branch feature', 'git branch -q feature', 'git branch --l feature', 'git branch -- -d', 'git tag -i v9'],
    'mutation',
    /^`git (branch|tag) (feature|-d|v9)`: operand forms of `git (branch|tag)` create, delete or change refs; only listing is allowed$/,
  );
  assertRefused(['git branch -d x', 'git tag -5'], 'mutation', /^`git (branch -d|tag -5)` is not a listing option$/);
  // `--li` makes a listing, but is itself refused as not a listing option (only `-l` and `--list` are).
  assertRefused(['git branch "feat*" --li'], 'mutation', /^`git branch --li` is not a listing option$/);
  // remote and worktree list take no operand, even beside a (refused) listing flag.
  assertRefused(['git remote add origin -l'], 'mutation', /^`git remote add`: operand forms of `git remote`/);
  assertRefused(
    ['git worktree list extra -l'],
    'mutation',
    /^`git worktree list extra`: operand forms of `git worktree list`/,
  );
  assertRefused(['git worktree list -x'], 'mutation', /^`git worktree list -x` is not a listing option$/);
});

test('RO-2: git reflog, stash and worktree outside their read forms are refused as mutations with the reason', () => {
  assertRefused(
    ['git reflog expire --all'],
    'mutation',
    /^`git reflog` with an operand other than `show` can expire or delete entries$/,
  );
  assertRefused(['git reflog --output=x'], 'mutation', /^`git reflog --output=x` writes its output to a file$/);
  assertRefused(
    ['git stash pop'],
    'mutation',
    /^`git stash` other than `list`\/`show` changes the working tree or the stash$/,
  );
  assertRefused(
    ['git worktree add ../x'],
    'mutation',
    /^`git worktree` other than `list` adds, moves or removes worktrees$/,
  );
  assertAllowed(['git reflog', 'git reflog show -5', 'git stash list', 'git stash show -p']);
});
