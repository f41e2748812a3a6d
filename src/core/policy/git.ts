/**
 * Read-only git (RO-2, RO-3): the read subcommands, `-C DIR` [seed wins] but never `-c`, the
 * flag-only list forms of `tag`/`branch`/`remote`/`reflog`, `stash list|show`, `worktree list`,
 * `submodule status`, the listing forms of `git help` (a manual page, from `git help TOPIC` or
 * `git SUB --help`, runs the viewer the repository's configuration names), the read forms of
 * `config` (git-config.ts), and the per-subcommand options that write a file (`--output`) or run
 * a program (`--ext-diff`, `--textconv`, `git grep -O`, `--show-signature`), each refused with
 * its reason.
 *
 * Paths git resolves itself are kept inside the workspace where the command line shows them:
 * `REV:PATH` with a `..` component or a leading `/`, top-of-repository pathspec magic (`:/`,
 * `:(top)`), `:/message` revisions and `--no-index` (any two files) are refused. A workspace that
 * is a subfolder of a larger repository can still see the rest of it through git (`git show
 * HEAD:other/file`, `git log -p`); the OS sandbox, not this policy, hides the parent repository.
 */
import { findDenied, firstDenied, namesLong, operands, readArgs, type Arg, type OptionRule, type Word } from './args';
import { checkGitConfig } from './git-config';
import type { SegmentVerdict } from './verdict';
import { allow, reject } from './verdict';

const READ_SUBCOMMANDS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'ls-files',
  'rev-parse',
  'describe',
  'shortlog',
  'grep',
  'rev-list',
  'ls-tree',
  'cat-file',
  'diff-tree',
  'merge-base',
  'range-diff',
  'whatchanged',
  'count-objects',
  'version',
]);

/** Subcommands that are harmless only as a listing. */
const LIST_FORMS = new Set(['tag', 'branch', 'remote', 'reflog', 'stash', 'worktree']);

/** Subcommands that write; `config` and `submodule`, which have read forms, are checked before it. */
const MUTATING = new Set([
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
]);

/** Global options that only change what is read or how it is shown. */
const SAFE_GLOBAL = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--version',
  '--help',
  '-h',
]);

/**
 * Options of the read subcommands that write a file or run a program. The diff options reach
 * every subcommand that shows diffs (log, show, diff, diff-tree, range-diff, blame, grep,
 * `stash show`, `reflog show`); parse-options subcommands (grep, cat-file) take any unambiguous
 * abbreviation (`git grep --textc`), so every prefix counts, except `--text`, an option of its own.
 */
const READ_DENY: readonly OptionRule[] = [
  { long: ['output'], why: 'writes its output to a file' },
  { long: ['ext-diff'], why: "runs the repository's external diff program (diff.external, a diff driver's command)" },
  {
    long: ['textconv'],
    ownOptions: ['text'],
    why: "runs the repository's text-conversion filters (diff.<driver>.textconv)",
  },
  { long: ['exec'], why: 'names a program for git to run' },
  { long: ['show-signature'], why: 'runs the signature-verification program (gpg.program)' },
];

const DENY_BY_SUBCOMMAND: Record<string, readonly OptionRule[]> = {
  grep: [
    { short: 'O', long: ['open-files-in-pager'], why: 'opens the matching files in a pager program' },
    { long: ['ext-grep'], why: 'runs an external grep program' },
  ],
  'cat-file': [{ long: ['filters'], why: "runs the repository's clean, smudge and process filters" }],
};

/**
 * A manual page is shown by the program the repository's configuration names (`man.viewer` and
 * `man.<tool>.cmd`, `help.format=web` with `web.browser`): `git help TOPIC` and `git SUB --help`
 * (which git turns into `git help SUB`) can run any program. `git SUB -h` prints the options itself.
 */
const MANUAL_VIEWER =
  "a manual page through the viewer the repository's configuration names (man.viewer, help.format), which can run any program";
const HELP_WEB: OptionRule = { short: 'w', long: ['web'], why: 'starts a web browser' };
/** `git help` options that only print lists (commands, guides, configuration names). */
const HELP_LISTING = new Set([
  'a',
  'all',
  'g',
  'guides',
  'c',
  'config',
  'v',
  'verbose',
  'no-verbose',
  'user-interfaces',
  'developer-interfaces',
  'external-commands',
  'no-external-commands',
  'aliases',
  'no-aliases',
]);

/** `%G…` in a log format asks for the signature check, which runs gpg.program (`%%G` is a literal). */
const SIGNATURE_PLACEHOLDER = /(^|[^%])(%%)*%G/;
const FORMAT_OPTIONS = ['format', 'pretty'];

/**
 * Global options refused with a reason of their own (git reads them only in full); any other
 * option outside SAFE_GLOBAL is refused too. `mutation`: they run a program.
 */
const GLOBAL_REFUSALS: Record<string, ['mutation' | 'unknown', string]> = {
  '-p': ['mutation', 'runs the pager program'],
  '--paginate': ['mutation', 'runs the pager program'],
  '--exec-path': ['mutation', 'picks the folder git runs its helper programs from'],
  '--git-dir': ['unknown', 'points git at another repository, past the workspace path rule'],
  '--work-tree': ['unknown', 'points git at another working tree, past the workspace path rule'],
  '--bare': ['unknown', "treats the folder as a bare repository, with that repository's own config and hooks"],
  '--namespace': ['unknown', 'reads refs through a namespace the policy does not follow'],
  '--super-prefix': ['unknown', 'is internal to git'],
};

const BRANCH_FLAGS = new Set([
  'a',
  'all',
  'r',
  'remotes',
  'v',
  'verbose',
  'l',
  'list',
  'show-current',
  'merged',
  'no-merged',
  'contains',
  'no-contains',
  'sort',
  'format',
  'color',
  'no-color',
  'column',
  'no-column',
  'points-at',
  'i',
  'ignore-case',
  'abbrev',
  'no-abbrev',
  'omit-empty',
  'q',
  'quiet',
]);
const TAG_FLAGS = new Set([
  'l',
  'list',
  'n',
  'sort',
  'contains',
  'no-contains',
  'merged',
  'no-merged',
  'points-at',
  'format',
  'column',
  'no-column',
  'color',
  'i',
  'ignore-case',
  'omit-empty',
]);
const REMOTE_FLAGS = new Set(['v', 'verbose']);
const WORKTREE_LIST_FLAGS = new Set(['porcelain', 'v', 'verbose', 'z', 'expire']);

const SEGMENT_OPTIONS = {
  valueShort: 'n',
  valueLong: ['sort', 'format', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'expire'],
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
    if (t.startsWith('-c') || (t.startsWith('--') && namesLong(t.slice(2).split('=')[0] ?? '', 'config-env'))) {
      return reject(
        'mutation',
        '`git -c` / `--config-env` injects configuration (aliases, hooks, pagers can run programs)',
      );
    }
    const refusal = GLOBAL_REFUSALS[t.split('=')[0] ?? t];
    if (refusal !== undefined) return reject(refusal[0], `\`git ${t}\` ${refusal[1]}`);
    if (!SAFE_GLOBAL.has(t)) {
      return reject(
        'unknown',
        `git option \`${t}\` is not allowed in plan mode (allowed before the subcommand: -C DIR, --no-pager)`,
      );
    }
    if (t === '--version' || t === '--help' || t === '-h')
      return i === words.length - 1 ? allow('inspection') : reject('unknown', `\`git ${t}\` takes nothing after it`);
  }
  const sub = words[i]?.text;
  if (sub === undefined) return reject('unknown', 'bare `git` prints usage; name a read-only subcommand');
  const rest = words.slice(i + 1);
  if (rest.some((w) => w.text === '--help'))
    return reject('mutation', `\`git ${sub} --help\` opens ${MANUAL_VIEWER}; \`git ${sub} -h\` prints its options`);
  if (sub === 'help') return checkHelp(rest);
  if (READ_SUBCOMMANDS.has(sub)) return checkReadSubcommand(sub, rest);
  if (LIST_FORMS.has(sub)) return checkListForm(sub, rest);
  if (sub === 'config') return checkGitConfig(rest);
  if (sub === 'submodule') return checkSubmodule(rest);
  if (sub === 'var') return checkVar(rest);
  if (MUTATING.has(sub))
    return reject('mutation', `\`git ${sub}\` changes the repository, the working tree or the network`);
  return reject('unknown', `\`git ${sub}\` is not a read-only git subcommand (aliases are not followed)`);
}

function checkReadSubcommand(sub: string, rest: readonly Word[]): SegmentVerdict {
  const denied = firstDenied(rest, [...READ_DENY, ...(DENY_BY_SUBCOMMAND[sub] ?? [])]);
  if (denied !== null) return reject('mutation', `\`git ${sub} ${denied.shown}\` ${denied.why}`);
  const signature = signatureFormat(rest);
  if (signature !== null)
    return reject(
      'mutation',
      `\`git ${sub} ${signature}\`: the \`%G\` placeholders run the signature-verification program (gpg.program)`,
    );
  const noIndex = findDenied(rest, { long: ['no-index'] });
  if (noIndex !== null)
    return reject(
      'unknown',
      `\`git ${sub} ${noIndex}\` reads any files, not the repository; use \`diff\` or \`rg\` on workspace paths`,
    );
  for (const w of sub === 'grep' ? afterGrepPattern(rest) : rest) {
    const why = w.text.startsWith('-') ? null : outsidePath(w.text);
    if (why !== null) return reject('unknown', `\`git ${sub} ${w.text}\`: ${why}`);
  }
  return allow('inspection');
}

/** The `--format`/`--pretty` word (or the pair, for a detached value) whose format asks for signature data, or null. */
function signatureFormat(rest: readonly Word[]): string | null {
  for (let i = 0; i < rest.length; i += 1) {
    const t = (rest[i] as Word).text;
    if (!t.startsWith('--')) continue;
    const eq = t.indexOf('=');
    const name = t.slice(2, eq < 0 ? undefined : eq);
    if (!FORMAT_OPTIONS.some((o) => namesLong(name, o))) continue;
    const value = eq < 0 ? rest[i + 1]?.text : t.slice(eq + 1);
    if (value !== undefined && SIGNATURE_PLACEHOLDER.test(value)) return eq < 0 ? `${t} ${value}` : t;
  }
  return null;
}

const TOP_MAGIC =
  'top-of-repository pathspec magic (`:/`, `:(top)`) and `:/message` revisions reach outside the workspace when the repository root is above it';
const REV_PATH =
  'the path after `:` leaves the workspace (a leading `/` or a `..` component); name a path below the workspace';

/**
 * Why a revision or pathspec word may name a path outside the workspace, or null. The path of
 * `REV:PATH` and `:PATH` (the index) is relative to the repository root, or with `./`, `../` to
 * the current folder; magic pathspecs (`:(icase)../x`) hide a path from the workspace path rule.
 */
function outsidePath(text: string): string | null {
  let path: string;
  if (text.startsWith(':(')) {
    const end = text.indexOf(')');
    if (end < 0 || /(^|,)\s*top\s*(,|$)/i.test(text.slice(2, end))) return TOP_MAGIC;
    path = text.slice(end + 1);
  } else if (text.startsWith(':')) {
    const magic = /^:([!^/]*):?/.exec(text) as RegExpExecArray;
    if (magic[1]?.includes('/')) return TOP_MAGIC;
    path = text.slice(magic[0].length);
  } else {
    const colon = text.search(/:(?![^{]*\})/);
    if (colon < 0) return null;
    path = text.slice(colon + 1);
  }
  // `:0:PATH` names a stage of the index: every piece after a colon may be a path.
  const pieces = [path, ...path.split(/:(?![^{]*\})/).slice(1)];
  return pieces.some((p) => p.startsWith('/') || p.split('/').includes('..')) ? REV_PATH : null;
}

/** The words of `git grep` after its pattern (the pattern may hold `:` and `..` of its own). */
function afterGrepPattern(rest: readonly Word[]): readonly Word[] {
  const given = rest.some((w) => /^-[a-zA-Z]*[ef]/.test(w.text) || /^--(regexp|file)/.test(w.text));
  const words: Word[] = [];
  let skippedPattern = given;
  for (let i = 0; i < rest.length; i += 1) {
    const w = rest[i] as Word;
    if (w.text === '-e' || w.text === '--regexp') {
      i += 1;
      continue;
    }
    if (!skippedPattern && !w.text.startsWith('-')) {
      skippedPattern = true;
      continue;
    }
    words.push(w);
  }
  return words;
}

/** `-q`/`--quiet` are dropped before the subcommand is read, wherever they stand. */
const SUBMODULE_STATUS_FLAGS = new Set(['--cached', '--recursive', '--']);

/** `git submodule [status]` lists submodules; every other submodule command changes them. */
function checkSubmodule(rest: readonly Word[]): SegmentVerdict {
  const words = rest.filter((w) => w.text !== '-q' && w.text !== '--quiet');
  const [first, ...more] = words;
  if (first !== undefined && first.text !== 'status')
    return reject(
      'mutation',
      `\`git submodule ${first.text}\` changes submodules or runs commands in them; only \`git submodule status\` is allowed`,
    );
  const odd = more.find((w) => w.text.startsWith('-') && !SUBMODULE_STATUS_FLAGS.has(w.text));
  return odd === undefined
    ? allow('inspection')
    : reject('unknown', `\`git submodule status ${odd.text}\` is not a listing option`);
}

/** `git help` with listing options only: a topic (or `-m`, `-i`) opens a manual page (MANUAL_VIEWER). */
function checkHelp(rest: readonly Word[]): SegmentVerdict {
  const web = findDenied(rest, HELP_WEB);
  if (web !== null) return reject('mutation', `\`git help ${web}\` ${HELP_WEB.why}`);
  for (const a of readArgs(rest)) {
    if (a.kind === 'operand')
      return reject(
        'mutation',
        `\`git help ${a.text}\` opens ${MANUAL_VIEWER}; \`git ${a.text} -h\` prints its options`,
      );
    const name = a.kind === 'short' ? a.flag : a.name;
    if (!HELP_LISTING.has(name))
      return reject(
        'mutation',
        `\`git help ${a.word}\` is not a listing option (-a, -g, -c, --verbose); the others open ${MANUAL_VIEWER}`,
      );
  }
  return allow('inspection');
}

/** `git var NAME` prints one of git's logical variables; `git var -l` lists the configuration too, credentials included. */
function checkVar(rest: readonly Word[]): SegmentVerdict {
  if (rest.length === 1 && !(rest[0] as Word).text.startsWith('-')) return allow('inspection');
  const shown = rest.map((w) => w.text).join(' ');
  return reject(
    'unknown',
    `\`git var${shown === '' ? '' : ` ${shown}`}\`: name exactly one variable (\`git var GIT_EDITOR\`); \`git var -l\` prints all configuration, which can hold credentials (tokens in remote URLs, http.extraHeader)`,
  );
}

function flagsOnly(
  sub: string,
  args: readonly Arg[],
  allowed: ReadonlySet<string>,
  allowPatterns: boolean,
): SegmentVerdict {
  const listing = args.some(
    (a) =>
      (a.kind === 'short' && a.flag === 'l') || (a.kind === 'long' && namesLong(a.name, 'list') && a.name.length >= 2),
  );
  for (const a of args) {
    if (a.kind === 'operand') {
      if (allowPatterns && listing) continue;
      return reject(
        'mutation',
        `\`git ${sub} ${a.text}\`: operand forms of \`git ${sub}\` create, delete or change refs; only listing is allowed`,
      );
    }
    const name = a.kind === 'short' ? a.flag : a.name;
    if (!allowed.has(name)) {
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
      if (firstWord === 'show') return checkReadSubcommand('reflog show', rest.slice(1));
      if (operands(args).length > 0)
        return reject('mutation', '`git reflog` with an operand other than `show` can expire or delete entries');
      return checkReadSubcommand('reflog', rest);
    case 'stash':
      if (firstWord === 'list' || firstWord === 'show') return checkReadSubcommand(`stash ${firstWord}`, rest.slice(1));
      return reject('mutation', '`git stash` other than `list`/`show` changes the working tree or the stash');
    default:
      if (firstWord === 'list')
        return flagsOnly('worktree list', readArgs(rest.slice(1), SEGMENT_OPTIONS), WORKTREE_LIST_FLAGS, false);
      return reject('mutation', '`git worktree` other than `list` adds, moves or removes worktrees');
  }
}
