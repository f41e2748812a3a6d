/**
 * Reaching outside the workspace through git and symlinks, in plan mode:
 *   - the workspace is `ws/` inside a larger repository whose commit holds `secret.txt`: revision
 *     paths (`HEAD:../secret.txt`), top-of-repository pathspecs (`:/`, `:(top)`), `-C ..`, and the
 *     plain history (`git log -p` shows the whole repository) must not show it;
 *   - symlinks already in the workspace point at an outside file, the outside folder and HOME:
 *     neither commands (`cat link`, `grep -R`) nor the file tools may show their targets;
 *   - the workspace's own repository config runs programs (textconv, diff.external, a clean
 *     filter): `git show`, `git log -p`, `git status`, `git diff` run them, and the sandbox must
 *     keep them from writing anything.
 */
import * as assert from 'node:assert/strict';
import { attackSuite, type Attack } from './attack-checks';
import { EXEC_FILES, EXEC_REPO, OUTSIDE_LINKS, PARENT_REPO, PARENT_SECRET } from './attack-fixtures';
import { describeReport, type CaseReport } from './harness';

const PARENT = PARENT_REPO;
const LINKS = OUTSIDE_LINKS;

const attempted = {
  name: 'harness: the repository config really ran its programs (in the sandbox they could not write)',
  check: (r: CaseReport) =>
    assert.ok(
      r.commands.some((c) => /pwned-(textconv|clean|external)/.test(c.seen ?? '')),
      describeReport(r),
    ),
};

const attacks: Attack[] = [
  {
    title: 'git (parent repository)',
    c: {
      name: 'git-parent-named',
      mode: 'plan',
      repo: PARENT,
      command: [
        'git show HEAD:../secret.txt',
        "git grep -- ':/'",
        "git grep -n PARENT_SECRET -- ':/'",
        "git grep secret ':(top)'",
        'git -C .. show',
      ],
    },
    // `git grep -- ':/'` (as the brief spells it) searches for the PATTERN ":/" below the
    // workspace; it is no pathspec, so the policy rightly lets it run.
    expect: { refused: [0, 2, 3, 4], secrets: [PARENT_SECRET] },
  },
  {
    title: 'git (parent repository)',
    c: {
      name: 'git-parent-history',
      mode: 'plan',
      repo: PARENT,
      command: [
        'git log -p',
        'git log -p --all',
        'git show HEAD',
        'git show HEAD --stat',
        'git log --format=%H%n%B -p -1',
        'git ls-files --full-name',
      ],
    },
    expect: { secrets: [PARENT_SECRET] },
  },
  {
    title: 'git (parent repository)',
    c: {
      name: 'git-parent-own',
      mode: 'plan',
      repo: PARENT,
      command: [
        'git cat-file -p HEAD:../secret.txt',
        "git grep -n PARENT HEAD -- ':(top)'",
        "git show ':/vtsec'",
        "git ls-files --full-name ':/'",
        'git show HEAD~0:./../docs/notes.md',
        "git log -p -- ':(top,glob)**/secret.txt'",
      ],
    },
    expect: { refused: 'all', secrets: [PARENT_SECRET] },
  },
  {
    title: 'git (parent repository)',
    c: {
      name: 'git-parent-more',
      mode: 'plan',
      repo: PARENT,
      command: [
        'git rev-parse --show-toplevel',
        'git cat-file --batch-all-objects --batch-check',
        'git rev-list --all --objects',
        'git show HEAD^{tree}',
        'git diff HEAD~0 --stat',
        'git archive HEAD',
      ],
    },
    expect: { secrets: [PARENT_SECRET] },
  },
  {
    title: 'symlinks',
    c: {
      name: 'symlink-commands',
      mode: 'plan',
      symlinks: LINKS,
      command: [
        'cat link',
        'grep -R . .',
        'head -n 3 link-dir/secret.env',
        'sed -n p id-link',
        'ls -la home-link/ link-dir/',
        'cat home-link/.npmrc',
      ],
    },
    expect: {},
  },
  {
    title: 'symlinks',
    c: {
      name: 'symlink-commands-more',
      mode: 'plan',
      symlinks: LINKS,
      command: [
        'cat home-link/.git-credentials',
        'wc -c link id-link',
        'jq -R . link',
        'git diff --no-index link README.md',
        'find -L . -name "*.env"',
        'tail -n 2 link-dir/canary.txt',
      ],
    },
    expect: {},
  },
  {
    title: 'symlinks (file tools)',
    c: {
      name: 'symlink-file-tools',
      mode: 'plan',
      symlinks: LINKS,
      command: [
        { tool: 'read_file', args: { path: 'link' } },
        { tool: 'read_file', args: { path: 'link-dir/secret.env' } },
        { tool: 'read_file', args: { path: 'home-link/.ssh/id_rsa' } },
        { tool: 'list_dir', args: { path: 'link-dir' } },
        { tool: 'grep', args: { pattern: 'canary|secret|TOKEN' } },
        { tool: 'find_files', args: { glob: '*', path: 'home-link' } },
      ],
    },
    expect: {},
  },
  {
    title: 'git (repository config runs programs)',
    c: {
      name: 'git-config-exec',
      mode: 'plan',
      repo: EXEC_REPO,
      files: EXEC_FILES,
      command: ['git show HEAD', 'git log -p -1', 'git status', 'git diff HEAD', 'git diff --stat', 'git log -1'],
    },
    expect: { noWorkspace: [/^pwned/], extra: attempted },
  },
];

attackSuite('git and symlinks reaching outside', attacks, { concurrency: 4 });
