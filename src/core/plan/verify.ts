/**
 * Judges `verify:` items (PLAN-4). An item is accepted when it is a concrete command or an
 * observable check; every rejection carries a reason the model (or the user) can act on.
 *
 * Interpretations of the seed, kept in one place:
 * - Programs whose names are also English words (`file`, `sort`, `find`, `ls`, `wc`, `make`,
 *   `head`, `cat`, …) count as commands only with a flag or a path-like argument, so prose such as
 *   `file changes` is rejected. `make` additionally accepts one conventional target name
 *   (`make test`, `make check`, …): a Makefile target is a repository target, not prose.
 * - Git verifies only as a read-only history check that selects a revision, a path or a filter;
 *   bare git, mutating git and `git diff --check` are rejected.
 * - Anything else that is not a command must be an observable check: it names something concrete
 *   (inline code, a quoted string, a path or an identifier) and says what is observed about it.
 */
import { blankCodeSpans, splitTopLevel, unwrapCode } from './scan';

export interface VerifyContext {
  /** Every target of the step is a Markdown file. */
  markdownOnly: boolean;
}

export type VerifyVerdict =
  { ok: true; kind: 'command' | 'observable' | 'skip_markdown_lint'; chained: boolean } | { ok: false; reason: string };

/** Comma-separated items; commas inside quotes, backticks or brackets stay in their item. */
export function splitVerifyItems(value: string): string[] {
  const v = value.trim();
  const inner = v.startsWith('[') && v.endsWith(']') ? v.slice(1, -1) : v;
  return splitTopLevel(inner, ',')
    .map(unwrapCode)
    .filter((s) => s.length > 0);
}

const ENGLISH_WORD_PROGRAMS = new Set([
  'file',
  'sort',
  'find',
  'ls',
  'wc',
  'make',
  'head',
  'tail',
  'cat',
  'test',
  'diff',
  'tree',
  'stat',
  'time',
  'which',
  'echo',
  'more',
  'less',
  'open',
  'watch',
  'type',
  'touch',
  'du',
  'df',
  'env',
  'paste',
  'join',
  'split',
  'cut',
  'expand',
  'fold',
  'look',
  'locate',
  'uniq',
  'column',
]);

const ENGLISH_HEAD_EXAMPLES: Readonly<Record<string, string>> = {
  file: 'file src/main.rs',
  sort: 'sort -c data/names.txt',
  find: "find src -name '*.ts'",
  ls: 'ls -l src/',
  wc: 'wc -l README.md',
  make: 'make -C . test',
  head: 'head -n 20 README.md',
  tail: 'tail -n 20 CHANGELOG.md',
  cat: 'cat package.json',
  test: 'test -f dist/cli.js',
  diff: 'diff -u a.txt b.txt',
};

/** Programs that verify something without arguments. */
const BARE_COMMANDS = new Set([
  'pytest',
  'tox',
  'nox',
  'vitest',
  'jest',
  'mocha',
  'tsc',
  'rspec',
  'phpunit',
  'ctest',
  'ninja',
  'just',
  'rake',
  'cargo-nextest',
]);

/** Programs that need at least one argument to verify anything. */
const COMMANDS_WITH_ARGS = new Set([
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'bun',
  'bunx',
  'deno',
  'node',
  'tsx',
  'ts-node',
  'eslint',
  'prettier',
  'biome',
  'stylelint',
  'cargo',
  'rustc',
  'rustfmt',
  'go',
  'gofmt',
  'golangci-lint',
  'staticcheck',
  'python',
  'python3',
  'py',
  'uv',
  'uvx',
  'poetry',
  'pdm',
  'hatch',
  'pip',
  'pip3',
  'pipx',
  'ruff',
  'mypy',
  'pyright',
  'black',
  'isort',
  'flake8',
  'pylint',
  'coverage',
  'rg',
  'grep',
  'egrep',
  'fgrep',
  'sed',
  'awk',
  'jq',
  'yq',
  'fd',
  'curl',
  'wget',
  'http',
  'bash',
  'sh',
  'zsh',
  'pwsh',
  'gcc',
  'clang',
  'javac',
  'java',
  'kotlinc',
  'gradle',
  'gradlew',
  'mvn',
  'sbt',
  'dotnet',
  'swift',
  'xcodebuild',
  'ruby',
  'bundle',
  'perl',
  'php',
  'composer',
  'mix',
  'elixir',
  'erl',
  'ghc',
  'stack',
  'cabal',
  'dune',
  'opam',
  'zig',
  'bazel',
  'bazelisk',
  'buck2',
  'cmake',
  'meson',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'terraform',
  'tflint',
  'nix',
  'shellcheck',
  'shfmt',
  'hadolint',
  'actionlint',
  'yamllint',
  'markdownlint',
  'markdownlint-cli2',
  'vale',
  'lychee',
  'cspell',
  'codespell',
  'cmp',
  'xxd',
  'od',
  'hexdump',
  'readelf',
  'objdump',
  'nm',
  'ldd',
  'sha256sum',
  'shasum',
  'md5sum',
  'openssl',
  'sqlite3',
  'psql',
  'mysql',
  'redis-cli',
  'hyperfine',
  'valgrind',
  'ack',
  'ag',
  'nl',
  'tr',
  'comm',
  'diffstat',
  'vsce',
  'code',
  'lua',
  'luarocks',
  'R',
  'Rscript',
  'julia',
  'scala',
  'clojure',
  'lein',
  'flutter',
  'dart',
  'pod',
  'carthage',
  'ansible',
  'ansible-lint',
  'packer',
  'pre-commit',
  'nextest',
  'turbo',
  'nx',
  'lerna',
  'rebar3',
  'gotestsum',
  'playwright',
  'cypress',
  'ava',
  'karma',
  'nyc',
  'c8',
  'wasm-pack',
  'maturin',
  'tarpaulin',
  'gleam',
  'crystal',
  'nim',
  'kotlin',
  'ktlint',
  'detekt',
  'swiftlint',
  'rubocop',
  'standardrb',
  'phpstan',
  'psalm',
  'credo',
  'clang-tidy',
  'clang-format',
  'cppcheck',
  'buf',
  'protoc',
  'sqlfluff',
  'dbt',
  'golines',
  'revive',
]);

/**
 * Words that start prose, never a program: an unknown head that is one of these is not a command
 * even with a path after it (`verify src/a.ts compiles` is judged as an observable check).
 */
const PROSE_HEADS = new Set([
  'the',
  'a',
  'an',
  'all',
  'any',
  'each',
  'every',
  'no',
  'it',
  'this',
  'that',
  'these',
  'those',
  'new',
  'run',
  'verify',
  'check',
  'ensure',
  'confirm',
  'inspect',
  'review',
  'observe',
  'see',
  'manually',
  'tests',
  'unit',
  'integration',
  'existing',
  'output',
  'build',
  'lint',
  'docs',
  'then',
  'and',
  'or',
]);
const PROGRAM_NAME = /^[a-z][a-z0-9._+-]*$/;

const CONVENTIONAL_MAKE_TARGETS = new Set([
  'test',
  'tests',
  'check',
  'lint',
  'build',
  'all',
  'vet',
  'fmt',
  'format',
  'ci',
  'docs',
  'verify',
  'typecheck',
  'unit',
  'integration',
  'e2e',
  'coverage',
  'bench',
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Words after which a program name starts the command a sentence asks for (`Run cargo test -p core to confirm …`). */
const INVOCATION_CUES = new Set([
  'run',
  'running',
  'rerun',
  'execute',
  'executing',
  'invoke',
  'invoking',
  'use',
  'using',
  'with',
  'by',
  'via',
  'through',
  'then',
  'plus',
  'after',
]);
const KNOWN_PROGRAMS = new Set([...COMMANDS_WITH_ARGS, ...BARE_COMMANDS, ...ENGLISH_WORD_PROGRAMS, 'git']);

/**
 * Skipped in front of the command that matters, with their options that take a separate value
 * (`timeout -s KILL 10 git reset` is judged as `git reset`, not as a program named `-s`).
 */
const WRAPPERS = new Map<string, ReadonlySet<string>>([
  ['timeout', new Set(['-s', '--signal', '-k', '--kill-after'])],
  ['nice', new Set(['-n', '--adjustment'])],
  ['command', new Set()],
  ['exec', new Set(['-a'])],
  [
    'xvfb-run',
    new Set([
      '-n',
      '--server-num',
      '-s',
      '--server-args',
      '-f',
      '--auth-file',
      '-e',
      '--error-file',
      '-p',
      '--xauth-protocol',
      '-w',
      '--wait',
    ]),
  ],
]);
/** The duration `timeout` takes before its command; without one the next word is the command. */
const TIMEOUT_DURATION = /^\d+(?:\.\d+)?[smhd]?$/;

/** Index of the word after one wrapper at `at` (its options, and `timeout`'s duration, skipped). */
function afterWrapper(words: readonly Word[], at: number, valued: ReadonlySet<string>): number {
  let i = at + 1;
  for (; i < words.length && (words[i] as Word).word.startsWith('-'); i += 1) {
    // `--` is skipped like an option: no check's command starts with `-`.
    if (valued.has((words[i] as Word).word)) i += 1;
  }
  return (words[at] as Word).word === 'timeout' && TIMEOUT_DURATION.test(words[i]?.word ?? '') ? i + 1 : i;
}

/** Index of the command word: variable assignments and wrappers in front of it skipped. */
function commandStart(words: readonly Word[]): number {
  let start = 0;
  for (;;) {
    const word = words[start]?.word ?? '';
    const valued = WRAPPERS.get(word);
    if (valued !== undefined) start = afterWrapper(words, start, valued);
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) start += 1;
    else return start;
  }
}

const MUTATING_GIT = new Set([
  'add',
  'commit',
  'push',
  'pull',
  'fetch',
  'checkout',
  'switch',
  'reset',
  'rebase',
  'merge',
  'restore',
  'rm',
  'mv',
  'clean',
  'apply',
  'am',
  'cherry-pick',
  'revert',
  'init',
  'clone',
  'gc',
  'prune',
  'stash',
  'tag',
  'branch',
  'remote',
  'submodule',
  'config',
  'notes',
  'worktree',
  'update-ref',
  'update-index',
  'filter-branch',
  'bisect',
  'reflog',
  'replace',
  'sparse-checkout',
  'maintenance',
  'pack-refs',
  'repack',
]);

// A filter flag with `=` needs a value: `git log --grep=` selects nothing. `--`, `--follow` and `-e`
// are not filters: `--` only separates the paths that follow, `--follow` needs such a path and
// `-e` introduces a `git grep` pattern (judged by the grep rule), so alone they select nothing.
const GIT_FILTER_FLAG =
  /^(?:-\d+|-n\d*|--max-count(?:=.+)?|--since(?:=.+)?|--until(?:=.+)?|--after(?:=.+)?|--before(?:=.+)?|--author(?:=.+)?|--committer(?:=.+)?|--grep(?:=.+)?|-S.+|-G.+|-L.+|--diff-filter(?:=.+)?)$/;
const REVISION =
  /^(?:HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|@)(?:[~^]\d*|@\{[^}]*\})*$|^[0-9a-f]{7,40}(?:[~^]\d*)*$|\.\.|^(?:main|master|develop|trunk)(?:[~^]\d*)*$|^v\d+(?:\.\d+)*/;
const KNOWN_FILES =
  /^(?:Makefile|GNUmakefile|Dockerfile|Containerfile|Justfile|justfile|Rakefile|Gemfile|Procfile|LICENSE|README|CHANGELOG|Vagrantfile|BUILD|WORKSPACE|Jenkinsfile)$/;

export function isPathLike(token: string): boolean {
  if (token === '.' || token === '..') return true;
  if (token.startsWith('-')) return false;
  if (token.includes('/') || /[*?]/.test(token) || KNOWN_FILES.test(token)) return true;
  return /^[\w.@+-]*\w\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(token);
}

function isFlag(token: string): boolean {
  return token.length > 1 && token.startsWith('-') && token !== '--';
}

type Word = { word: string; glob: boolean };

/**
 * Splits a shell line into command segments of plain words (quotes removed, `&&`, `||`, `|`,
 * `;`, `&` separate segments, redirections end a word, `#` starts a comment). This judges what
 * a verify item names; it is not a security policy (that is the shell policy's job).
 */
function segmentsOf(item: string): { segments: Word[][]; chained: boolean } {
  const segments: Word[][] = [[]];
  let chained = false;
  let word = '';
  let inWord = false;
  let glob = false;
  const endWord = (): void => {
    if (inWord) segments[segments.length - 1]?.push({ word, glob });
    word = '';
    inWord = false;
    glob = false;
  };
  for (let i = 0; i < item.length; i++) {
    const ch = item[i] as string;
    if (ch === "'" || ch === '"') {
      const close = item.indexOf(ch, i + 1);
      const end = close === -1 ? item.length : close;
      const quoted = item.slice(i + 1, end);
      word += ch === '"' ? quoted.replace(/\\(["\\$`])/g, '$1') : quoted;
      inWord = true;
      i = end;
    } else if (ch === '\\') {
      word += item[i + 1] ?? '';
      inWord = true;
      i++;
    } else if (ch === '\n' || ch === '\r') {
      // A second line is a second command, as in a script.
      endWord();
      segments.push([]);
    } else if (ch === ' ' || ch === '\t') {
      endWord();
    } else if (ch === '#' && !inWord) {
      break;
    } else if (ch === ';' || ch === '|' || ch === '&') {
      if (ch === '&' && (item[i - 1] === '>' || item[i + 1] === '>')) continue; // 2>&1, &>
      endWord();
      if (ch === ';') chained = true;
      if ((ch === '|' || ch === '&') && (item[i + 1] === ch || item[i + 1] === '&')) i++;
      segments.push([]);
    } else if (ch === '>' || ch === '<') {
      if (/^\d$/.test(word) && inWord) {
        word = '';
        inWord = false;
      }
      endWord();
    } else {
      if (ch === '*' || ch === '?') glob = true;
      word += ch;
      inWord = true;
    }
  }
  endWord();
  return { segments: segments.filter((seg) => seg.length > 0), chained };
}

function judgeGit(args: readonly string[]): string | null {
  let i = 0;
  while (i < args.length) {
    const a = args[i] as string;
    if (a === '-C') i += 2;
    else if (a === '--no-pager' || a === '-P' || a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) i += 1;
    else if (a === '-c' || a.startsWith('-c')) return '`git -c` injects configuration and does not verify anything';
    else break;
  }
  const sub = args[i];
  if (sub === undefined)
    return 'bare `git` is not a check: select a revision, path or filter, e.g. `git log -5 --oneline` or `git diff HEAD~1 -- src/main.rs`';
  const rest = args.slice(i + 1);
  if (MUTATING_GIT.has(sub))
    return `\`git ${sub}\` changes the repository or its refs and does not verify a step: use a read-only history check such as \`git show --stat HEAD\``;
  if (sub === 'diff' && rest.includes('--check'))
    return '`git diff --check` only reports whitespace errors and does not verify the step: name a test, build or targeted inspection command';
  const selects =
    rest.some((a) => REVISION.test(a) || isPathLike(a) || GIT_FILTER_FLAG.test(a)) ||
    (sub === 'grep' && rest.some((a) => !isFlag(a)));
  if (!selects)
    return `\`git ${[sub, ...rest].join(' ')}\` selects no revision, path or filter, so it proves nothing about this step: e.g. \`git log -5 --oneline\`, \`git diff HEAD~1 -- <path>\`, \`git blame <path>\``;
  return null;
}

type CommandVerdict =
  | { kind: 'command' }
  | { kind: 'not_command' }
  /** `soft`: the words may still form an observable check (English-word heads). */
  | { kind: 'rejected'; reason: string; soft: boolean };

function judgeCommand(words: readonly Word[]): CommandVerdict {
  const start = commandStart(words);
  const head = words[start]?.word;
  if (head === undefined) return { kind: 'not_command' };
  const args = words.slice(start + 1).map((w) => w.word);
  // `/usr/bin/git` is git: judged by what it does, not waved through as a path to a script.
  if (head === 'git' || /[\\/]git(?:\.exe)?$/.test(head)) {
    const reason = judgeGit(args);
    return reason === null ? { kind: 'command' } : { kind: 'rejected', reason, soft: false };
  }
  if (head === 'cd' || (head.includes('/') && !head.includes('`'))) return { kind: 'command' };
  if (ENGLISH_WORD_PROGRAMS.has(head)) {
    const hasPathArg = words.slice(start + 1).some((w) => w.glob || isPathLike(w.word));
    if (args.some(isFlag) || hasPathArg) return { kind: 'command' };
    if (head === 'make' && args.length === 1 && CONVENTIONAL_MAKE_TARGETS.has(args[0] as string))
      return { kind: 'command' };
    const example = ENGLISH_HEAD_EXAMPLES[head] ?? `${head} src/main.rs`;
    return {
      kind: 'rejected',
      soft: true,
      reason: `\`${head}\` is also an English word: as a command it needs a flag or a path-like argument (e.g. \`${example}\`), otherwise it reads as prose`,
    };
  }
  if (BARE_COMMANDS.has(head)) return { kind: 'command' };
  if (COMMANDS_WITH_ARGS.has(head)) {
    return args.length > 0
      ? { kind: 'command' }
      : {
          kind: 'rejected',
          soft: false,
          reason: `bare \`${head}\` does not run a check: add the subcommand or target (e.g. \`${head} test\`)`,
        };
  }
  // A program this list does not know: it reads as a command when it carries a flag or a path,
  // unless it is a sentence asking for a known program (`please run git reset --hard HEAD`).
  const hasPathArg = words.slice(start + 1).some((w) => w.glob || isPathLike(w.word));
  const asksForProgram = args.some(
    (a, i) => INVOCATION_CUES.has(a.toLowerCase()) && KNOWN_PROGRAMS.has(args[i + 1] ?? ''),
  );
  if (PROGRAM_NAME.test(head) && !PROSE_HEADS.has(head) && !asksForProgram && (args.some(isFlag) || hasPathArg))
    return { kind: 'command' };
  return { kind: 'not_command' };
}

const RUN_CHECKS =
  /^(?:run|execute|do|perform)\s+(?:the\s+|all\s+|all\s+the\s+|relevant\s+|existing\s+)?(?:checks?|tests?|test\s+suite|linters?|lint|validation|verification|ci)\.?$/i;
const EMPTY_WORDS =
  /^(?:n\/?a|none|tbd|todo|-+|\.\.\.|…|manual(?:ly)?(?:\s+(?:testing|test|check|review|verification|qa))?|tests?\s+pass(?:es)?|it\s+works|works|looks\s+good|ok|done|verified|check|checks|review|inspect|confirm|verify|test)\.?$/i;
const SKIP_MARKDOWN_LINT = /^skip\s+markdown\s*lint\s+if\s+unavailable\.?$/i;
const OBSERVABLE_VERB =
  /\b(?:returns?|pass(?:es)?|fails?|shows?|prints?|contains?|exits?|renders?|appears?|disappears?|lists?|reports?|succeeds?|matches|equals?|includes?|is|are|has|have|no longer|displays?|logs?|emits?|responds?|resolves?|compiles?|loads?|opens?|builds?|runs?|produces?|creates?|throws?|raises?|rejects?|accepts?|blocks?|allows?|reads?|writes?|stays?|keeps?|remains?|becomes?|clears?|lints? clean|exists?|exist)\b/i;
const IDENTIFIER = /\w+::\w+|\w+\(\)|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b|#\d+|\b\d{3}\b|\/[\w/-]+/;

function anchorOf(item: string): boolean {
  if (/`[^`]+`/.test(item) || /(?:^|\s)(["'])[^"']+\1/.test(item)) return true;
  if (IDENTIFIER.test(item)) return true;
  // A capitalised word after the first names a UI surface or type (`the Tasks view shows …`).
  if (/\s[A-Z][a-z]+\b/.test(item)) return true;
  return item.split(/\s+/).some((w) => isPathLike(w.replace(/[,.;:)]+$/, '').replace(/^\(/, '')));
}

/**
 * A real command inside descriptive text: a known program right after an invocation cue (within
 * three words), judged as a command from there on. A rejected git or runner command rejects the
 * item; prose that merely mentions a program (`the cargo output`) is not a command.
 */
function embeddedCommand(item: string): VerifyVerdict | null {
  const words = item.split(/\s+/);
  for (let i = 1; i < words.length; i++) {
    const program = (words[i] as string).replace(/^['"(]+|['",;:.)]+$/g, '');
    if (!KNOWN_PROGRAMS.has(program)) continue;
    if (!words.slice(Math.max(0, i - 3), i).some((w) => INVOCATION_CUES.has(w.toLowerCase().replace(/[^a-z]/g, ''))))
      continue;
    const tail = [program, ...words.slice(i + 1)].join(' ').replace(/[.;,]+$/, '');
    const first = segmentsOf(tail).segments[0];
    if (first === undefined) continue;
    const verdict = judgeCommand(first);
    if (verdict.kind === 'command') return { ok: true, kind: 'command', chained: false };
    if (verdict.kind === 'rejected' && !verdict.soft) return { ok: false, reason: verdict.reason };
  }
  return null;
}

/**
 * VT Code's independent re-derivation check (`independent-rederive <target> (fresh context, no
 * helper reuse)`): an oracle derived again without the code under test. It must say it is
 * independent or fresh, that it re-derives, that nothing is reused, and name what it derives.
 */
function isIndependentRederivation(item: string): boolean {
  const t = item.toLowerCase();
  return (
    /fresh|independent/.test(t) &&
    /re-?\s?derive/.test(t) &&
    /without reusing|no (?:helper )?reuse|fresh context/.test(t) &&
    t.split(/\s+/).length >= 4
  );
}

export function judgeVerifyItem(raw: string, ctx: VerifyContext): VerifyVerdict {
  const item = unwrapCode(raw);
  if (SKIP_MARKDOWN_LINT.test(item)) {
    return ctx.markdownOnly
      ? { ok: true, kind: 'skip_markdown_lint', chained: false }
      : {
          ok: false,
          reason:
            '`skip Markdown lint if unavailable` is allowed only for steps whose targets are all Markdown files; this step needs an ordinary command or observable check',
        };
  }
  if (isIndependentRederivation(item)) return { ok: true, kind: 'observable', chained: false };
  if (RUN_CHECKS.test(item))
    return {
      ok: false,
      reason: `\`${item}\` names no check: give the exact command (e.g. \`npm test\`, \`cargo test -p crate\`) or an observable result`,
    };
  if (EMPTY_WORDS.test(item)) return { ok: false, reason: `\`${item}\` is not a concrete command or observable check` };

  const { segments, chained } = segmentsOf(item);
  let sawCommand = false;
  let softReason: string | null = null;
  for (const [n, seg] of segments.entries()) {
    const verdict = judgeCommand(seg);
    if (n === 0 && verdict.kind !== 'command' && ASSIGNMENT.test(seg[0]?.word ?? '')) {
      // `FOO=1 build output` only looks like a command: what follows the assignments must be one.
      if (verdict.kind === 'rejected') return { ok: false, reason: verdict.reason };
      const head = seg.find((w) => !ASSIGNMENT.test(w.word))?.word;
      return {
        ok: false,
        reason: `\`${item}\` sets environment variables, but ${head === undefined ? 'no command follows them' : `\`${head}\` is not a command`}: put the command after the assignments (e.g. \`FORCE_COLOR=0 npm test\`)`,
      };
    }
    // After a pipe or `&&`, an English-word program (`| sort`, `| wc`) is plainly a command.
    if (verdict.kind === 'command' || (verdict.kind === 'rejected' && verdict.soft && sawCommand)) {
      sawCommand = true;
      continue;
    }
    if (verdict.kind === 'rejected' && !(verdict.soft && !sawCommand)) return { ok: false, reason: verdict.reason };
    if (sawCommand)
      return {
        ok: false,
        reason: `\`${seg.map((w) => w.word).join(' ')}\` in \`${item}\` is not a recognised command`,
      };
    if (verdict.kind === 'rejected') softReason = verdict.reason;
    break;
  }
  if (sawCommand) return { ok: true, kind: 'command', chained };

  // Not a command: an observable check names something concrete and what is seen about it.
  for (const m of item.matchAll(/`([^`]+)`/g)) {
    const inner = judgeVerifyItem(m[1] as string, ctx);
    if (inner.ok && inner.kind === 'command') return { ok: true, kind: 'observable', chained: false };
  }
  const embedded = embeddedCommand(item);
  if (embedded !== null) return embedded;
  const prose = blankCodeSpans(item);
  if (anchorOf(item) && OBSERVABLE_VERB.test(prose)) return { ok: true, kind: 'observable', chained: false };
  if (softReason !== null) return { ok: false, reason: softReason };
  return {
    ok: false,
    reason: `\`${item}\` is neither a command nor an observable check: name the command (e.g. \`rg -n 'symbol' src\`) or what is observed on which target (e.g. \`parse_case\` passes)`,
  };
}
