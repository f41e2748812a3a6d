/**
 * Read-only git (RO-2, RO-3): the read subcommands, `-C DIR` [seed wins] but never `-c`, the
 * flag-only list forms of `tag`/`branch`/`remote`/`reflog`, `stash list|show`, `worktree list`,
 * and the per-subcommand options that write a file (`--output`) or run a program
 * (`git grep -O`, `--ext-diff`).
 */
import { findDenied, namesLong, operands, readArgs, type Arg, type Word } from './args';
import type { SegmentVerdict } from './verdict';
import { allow, reject } from './verdict';

const READ_SUBCOMMANDS = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'ls-files', 'rev-parse', 'describe', 'shortlog', 'grep',
  'rev-list', 'ls-tree', 'cat-file', 'diff-tree', 'merge-base', 'range-diff', 'whatchanged',
  'count-objects', 'var', 'version', 'help',
]);

/** Subcommands that are harmless only as a listing. */
const LIST_FORMS = new Set(['tag', 'branch', 'remote', 'reflog', 'stash', 'worktree']);

const MUTATING = new Set([
  'add', 'am', 'apply', 'archive', 'bisect', 'checkout', 'cherry-pick', 'clean', 'clone', 'commit',
  'config', 'fetch', 'filter-branch', 'format-patch', 'gc', 'init', 'merge', 'mv', 'notes', 'prune',
  'pull', 'push', 'rebase', 'replace', 'repack', 'reset', 'restore', 'revert', 'rm', 'submodule',
  'switch', 'update-index', 'update-ref', 'symbolic-ref', 'maintenance', 'sparse-checkout', 'lfs',
  'send-email', 'request-pull', 'fast-import', 'hash-object', 'mktag', 'mktree', 'commit-tree',
  'read-tree', 'write-tree', 'checkout-index', 'ls-remote', 'remote-ext', 'daemon', 'instaweb',
  'credential', 'svn', 'p4', 'cvsimport', 'bundle', 'pack-objects', 'unpack-objects', 'fsck',
]);

/** Global options that only change what is read or how it is shown. */
const SAFE_GLOBAL = new Set([
  '--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs',
  '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects', '--version', '--help', '-h',
]);

/** Diff/log options that write a file or run a configured external program. */
const DIFF_DENY = { long: ['output', 'ext-diff'] } as const;

const DENY_BY_SUBCOMMAND: Record<string, { short?: string; long?: readonly string[] }> = {
  grep: { short: 'O', long: ['open-files-in-pager', 'ext-grep'] },
  'cat-file': { long: ['filters', 'textconv'] },
  help: { short: 'w', long: ['web'] },
};

const BRANCH_FLAGS = new Set([
  'a', 'all', 'r', 'remotes', 'v', 'verbose', 'l', 'list', 'show-current', 'merged', 'no-merged',
  'contains', 'no-contains', 'sort', 'format', 'color', 'no-color', 'column', 'no-column',
  'points-at', 'i', 'ignore-case', 'abbrev', 'no-abbrev', 'omit-empty', 'q', 'quiet',
]);
const TAG_FLAGS = new Set([
  'l', 'list', 'n', 'sort', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'format',
  'column', 'no-column', 'color', 'i', 'ignore-case', 'omit-empty',
]);
const REMOTE_FLAGS = new Set(['v', 'verbose']);
const WORKTREE_LIST_FLAGS = new Set(['porcelain', 'v', 'verbose', 'z', 'expire']);

const SEGMENT_OPTIONS = {
  valueShort: 'n',
  valueLong: ['sort', 'format', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'expire'],
  doubleDash: false,
};

export function checkGit(words: readonly Word[]): SegmentVerdict {
  let i = 1;
  for (; i < words.length; i += 1) {
    const t = (words[i] as Word).text;
    if (t === '-C') {
      i += 1;
      if (i >= words.length) return reject('unknown', '`git -C` needs a directory');
      continue;
    }
    if (!t.startsWith('-')) break;
    if (t === '-c' || t.startsWith('-c') || namesLong(t.slice(2), 'config-env')) {
      return reject('mutation', '`git -c` / `--config-env` injects configuration (aliases, hooks, pagers can run programs)');
    }
    if (!SAFE_GLOBAL.has(t)) {
      return reject('unknown', `git option \`${t}\` is not allowed in plan mode (allowed before the subcommand: -C DIR, --no-pager)`);
    }
    if (t === '--version' || t === '--help' || t === '-h') return i === words.length - 1 ? allow('inspection') : reject('unknown', `\`git ${t}\` takes nothing after it`);
  }
  const sub = words[i]?.text;
  if (sub === undefined) return reject('unknown', 'bare `git` prints usage; name a read-only subcommand');
  const rest = words.slice(i + 1);
  if (READ_SUBCOMMANDS.has(sub)) return checkReadSubcommand(sub, rest);
  if (LIST_FORMS.has(sub)) return checkListForm(sub, rest);
  if (MUTATING.has(sub)) return reject('mutation', `\`git ${sub}\` changes the repository, the working tree or the network`);
  return reject('unknown', `\`git ${sub}\` is not a read-only git subcommand (aliases are not followed)`);
}

function checkReadSubcommand(sub: string, rest: readonly Word[]): SegmentVerdict {
  const denied = findDenied(rest, DIFF_DENY) ?? findDenied(rest, DENY_BY_SUBCOMMAND[sub] ?? {});
  if (denied !== null) return reject('mutation', `\`git ${sub} ${denied}\` writes a file or runs another program`);
  return allow('inspection');
}

function flagsOnly(sub: string, args: readonly Arg[], allowed: ReadonlySet<string>, allowPatterns: boolean): SegmentVerdict {
  const listing = args.some((a) => (a.kind === 'short' && a.flag === 'l') || (a.kind === 'long' && namesLong(a.name, 'list') && a.name.length >= 2));
  for (const a of args) {
    if (a.kind === 'operand') {
      if (allowPatterns && listing) continue;
      return reject('mutation', `\`git ${sub} ${a.text}\`: operand forms of \`git ${sub}\` create, delete or change refs; only listing is allowed`);
    }
    const name = a.kind === 'short' ? a.flag : a.name;
    if (!allowed.has(name) && !(a.kind === 'short' && sub === 'tag' && /^[0-9]$/.test(name))) {
      return reject('mutation', `\`git ${sub} ${a.word}\` is not a listing option`);
    }
  }
  return allow('inspection');
}

function checkListForm(sub: string, rest: readonly Word[]): SegmentVerdict {
  const args = readArgs(rest, SEGMENT_OPTIONS);
  const firstWord = rest[0]?.text;
  switch (sub) {
    case 'branch':
      return flagsOnly(sub, args, BRANCH_FLAGS, true);
    case 'tag':
      return flagsOnly(sub, args, TAG_FLAGS, true);
    case 'remote':
      return flagsOnly(sub, args, REMOTE_FLAGS, false);
    case 'reflog':
      if (firstWord === 'show') return checkReadSubcommand('reflog', rest.slice(1));
      if (operands(args).length > 0) return reject('mutation', '`git reflog` with an operand other than `show` can expire or delete entries');
      return checkReadSubcommand('reflog', rest);
    case 'stash':
      if (firstWord === 'list' || firstWord === 'show') return checkReadSubcommand('stash', rest.slice(1));
      return reject('mutation', '`git stash` other than `list`/`show` changes the working tree or the stash');
    default:
      if (firstWord === 'list') return flagsOnly('worktree list', readArgs(rest.slice(1), SEGMENT_OPTIONS), WORKTREE_LIST_FLAGS, false);
      return reject('mutation', '`git worktree` other than `list` adds, moves or removes worktrees');
  }
}
