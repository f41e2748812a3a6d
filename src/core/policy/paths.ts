/**
 * The workspace path rule for shell commands: no tool touches a path outside the workspace
 * (RO-2 in plan mode; MODE-1: build and auto get no bypass, so it binds in every mode).
 *
 *   checkCommandPaths(command, root, mode?) -> PathVerdict
 *
 * Built on the same reading of the command as the read-only policy (shell-scan.ts): its words
 * (command-words.ts) keep every parameter expansion visible as a marker instead of the empty
 * string it would otherwise become. For each simple command, every argument that may be a
 * path (see `candidates`), `--opt=value` / `NAME=value` values, attached short-option values and
 * every redirection target is resolved with POSIX rules against the folders the command may run
 * in (cwd.ts tracks `cd`) and must stay inside `root`. The program word itself is exempt
 * (`/usr/bin/env`, `./node_modules/.bin/tsc`).
 *
 * "Looks like a path": every argument counts as a possible path unless the program is known to
 * read it as something else — the pattern of grep/rg/`git grep`, the script of sed, the program
 * and `-F` separator of awk, `find -name`-style patterns, the words of echo/printf/tr (they open no
 * files), URLs other than `file:`. Among possible paths only these are refused: absolute paths
 * outside `root` (except /dev/null, /dev/stdin, /dev/stdout, /dev/stderr), words whose `..` leave
 * `root`, `~` / `~user`, globs that could match `..`, and words holding an expansion (`$HOME`,
 * `${X}`), which cannot be resolved statically. So a pattern the check cannot tell from a path
 * (`paste -d /`) is refused rather than allowed, and the reason says so; a relative word without
 * `..` is always inside and never refused, pattern or not, unless it names the runtime's own
 * folder `.vtcode/` (runtime-folder.ts: refused in build and auto, plan mode may read its plans).
 *
 * A script handed to another shell (`sh -c '…'`, whatever shell options come before or after
 * `-c` and whatever program runs the shell: `env`, `timeout`, `find -exec`…; `eval`, `watch`) is
 * checked as a command line of its own.
 *
 * The check is lexical: it cannot see symlinks (a link inside the workspace may point outside),
 * what a program reads from its configuration or its input, or what a script file or another
 * interpreter (`node -e`, `python -c`) does.
 * Programs that take file names from their input (`xargs`, `--files0-from`) are refused for that
 * reason. Core stays pure: no file system access here.
 */
import { posix } from 'node:path';
import { quote } from 'shell-quote';
import { namesLong, type OptionSpec, type Word } from './args';
import { MARK } from './command-words';
import { CwdFlow, MAX_FOLDERS } from './cwd';
import { nameMayBe, runtimeFolderProblem, runtimeFolderProblemOf, wildcardsMayMatchDots } from './runtime-folder';
import type { AgentMode } from '../vocabulary';
import { scanCommand, type Redirect, type ScannedSegment, type ScanResult } from './shell-scan';
import { aggregate, refuseWhole, type SegmentsVerdict } from './verdict';

/** The path rule's verdict, aggregated over the segments like the policy's (verdict.ts). */
export type PathVerdict = SegmentsVerdict;

const DEVICES = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr']);
const URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A relative path none of whose components is `.`, `..` or hidden; no URL, `~`, glob or expansion. */
const PLAIN_RELATIVE = /^[\w+,@%=-][\w.+,@%=-]*(\/[\w+,@%=-][\w.+,@%=-]*)*\/?$/;

/** Programs that print their words and open none of them. */
const NO_PATHS = new Set(['echo', 'printf', 'tr']);
/** Programs that run a command per line of their input: the file names they pass are not on the command line. */
const INPUT_DRIVEN = new Set(['xargs', 'parallel']);

interface PatternRule {
  /** The options that take a value, read the way getopt does (`--` always ends the options). */
  spec: Required<Pick<OptionSpec, 'valueShort' | 'valueLong'>>;
  /** Options whose value is a pattern or script, not a file (short letters, long names). */
  patternValues: { short: string; long: readonly string[] };
  /** Options that supply the pattern, so that no operand is one. */
  patternGiven: { short: string; long: readonly string[] };
}

// Only options known to take a value are listed: reading a flag as taking a value when it does not
// would shift the pattern onto a path and exempt it, while missing one only makes the check stricter.
const GREP: PatternRule = {
  spec: {
    valueShort: 'ABCDdefm',
    valueLong: [
      'regexp',
      'file',
      'after-context',
      'before-context',
      'context',
      'max-count',
      'devices',
      'directories',
      'include',
      'exclude',
      'exclude-dir',
      'exclude-from',
      'label',
      'binary-files',
    ],
  },
  patternValues: { short: 'e', long: ['regexp'] },
  patternGiven: { short: 'ef', long: ['regexp', 'file'] },
};
const RG: PatternRule = {
  spec: {
    valueShort: 'ABCEMTdefgjmrt',
    valueLong: [
      'regexp',
      'file',
      'glob',
      'iglob',
      'type',
      'type-not',
      'max-count',
      'max-depth',
      'context',
      'after-context',
      'before-context',
      'replace',
      'encoding',
      'threads',
      'ignore-file',
      'sort',
      'sortr',
    ],
  },
  patternValues: { short: 'egr', long: ['regexp', 'glob', 'iglob', 'replace'] },
  patternGiven: { short: 'ef', long: ['regexp', 'file'] },
};
const SED: PatternRule = {
  spec: { valueShort: 'efl', valueLong: ['expression', 'file', 'line-length'] },
  patternValues: { short: 'e', long: ['expression'] },
  patternGiven: { short: 'ef', long: ['expression', 'file'] },
};
const AWK: PatternRule = {
  spec: { valueShort: 'Ffv', valueLong: ['field-separator', 'file', 'assign'] },
  patternValues: { short: 'F', long: ['field-separator'] },
  patternGiven: { short: 'f', long: ['file'] },
};
const PATTERN_RULES = new Map<string, PatternRule>([
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  ['sed', SED],
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
]);

/** Short options whose value is a field separator, by program (`cut -d/`, `sort -t/`). */
const SEPARATOR_LETTERS = new Map([
  ['cut', 'd'],
  ['paste', 'd'],
  ['sort', 't'],
  ['join', 't'],
  ['column', 'os'],
  ['split', 't'],
]);

/** `find` predicates whose value is a name pattern, not a file. */
const FIND_PATTERNS = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-lname',
  '-ilname',
]);

function matches(flag: string, kind: 'short' | 'long', set: { short: string; long: readonly string[] }): boolean {
  return kind === 'short' ? set.short.includes(flag) : set.long.some((name) => namesLong(flag, name));
}

/**
 * Indexes (into `args`) of the words a pattern program reads as patterns or scripts: the values of
 * pattern options and, unless an option supplied the pattern, the first operand. Read the way
 * getopt does: short clusters, attached and detached values, `--name=value`, `--`.
 */
function patternWords(args: readonly Word[], rule: PatternRule): Set<number> {
  const { valueShort, valueLong } = rule.spec;
  const exempt = new Set<number>();
  let given = false;
  let firstOperand = -1;
  let ended = false;
  for (let i = 0; i < args.length; i += 1) {
    const t = (args[i] as Word).text;
    if (ended || t === '-' || !t.startsWith('-')) {
      if (firstOperand < 0) firstOperand = i;
      continue;
    }
    if (t === '--') {
      ended = true;
      continue;
    }
    const next = args[i + 1]?.text;
    const detached = next !== undefined && !next.startsWith('-');
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = t.slice(2, eq < 0 ? undefined : eq);
      const takesNext = eq < 0 && valueLong.includes(name) && detached;
      if (matches(name, 'long', rule.patternGiven)) given = true;
      if ((eq >= 0 || takesNext) && matches(name, 'long', rule.patternValues)) exempt.add(takesNext ? i + 1 : i);
      if (takesNext) i += 1;
      continue;
    }
    for (let k = 1; k < t.length; k += 1) {
      const flag = t[k] as string;
      if (rule.patternGiven.short.includes(flag)) given = true;
      if (!valueShort.includes(flag)) continue;
      const takesNext = k === t.length - 1 && detached;
      if (rule.patternValues.short.includes(flag) && (takesNext || k < t.length - 1)) exempt.add(takesNext ? i + 1 : i);
      if (takesNext) i += 1;
      break;
    }
  }
  if (!given && firstOperand >= 0) exempt.add(firstOperand);
  return exempt;
}

/** The subcommand index of `git …` (after global options), or -1. */
function gitSubcommand(args: readonly Word[]): number {
  for (let i = 0; i < args.length; i += 1) {
    const t = (args[i] as Word).text;
    if (t === '-C' || t === '-c' || t === '--git-dir' || t === '--work-tree' || t === '--namespace') i += 1;
    else if (!t.startsWith('-')) return i;
  }
  return -1;
}

/** Indexes of the argument words that are not paths for this program. */
function notPaths(program: string, args: readonly Word[]): Set<number> {
  if (NO_PATHS.has(program)) return new Set(args.map((_, i) => i));
  const rule = PATTERN_RULES.get(program);
  if (rule !== undefined) return patternWords(args, rule);
  if (program === 'git') {
    const sub = gitSubcommand(args);
    if (sub < 0 || args[sub]?.text !== 'grep') return new Set();
    return new Set([...patternWords(args.slice(sub + 1), GREP)].map((i) => i + sub + 1));
  }
  if (program === 'find') {
    const exempt = new Set<number>();
    args.forEach((w, i) => {
      if (FIND_PATTERNS.has(w.text)) exempt.add(i + 1);
    });
    return exempt;
  }
  return new Set();
}

/** Shells whose `-c` script is itself a command line. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
/** Programs that join their words into one command line for a shell (`eval cat x`, `watch -n 2 ls`). */
const JOINED = new Set(['eval', 'watch']);
/** A shell option cluster holding `-c` (`-c`, `-lc`, `-cx`). */
const SCRIPT_FLAG = /^-[A-Za-z]*c[A-Za-z]*$/;

type CommandOption = { letter: string; long: string; leads: boolean };

/**
 * Programs that take a command line as an option's value and hand it to a shell (`su -c`,
 * `runuser -c`, `script -c`, `flock FILE -c`) or split it into the words that lead the command
 * they run (`env -S`: `env -S 'sh -c' 'cat x'` runs `sh -c 'cat x'`).
 */
const COMMAND_OPTIONS = new Map<string, CommandOption>([
  ['su', { letter: 'c', long: 'command', leads: false }],
  ['runuser', { letter: 'c', long: 'command', leads: false }],
  ['script', { letter: 'c', long: 'command', leads: false }],
  ['flock', { letter: 'c', long: 'command', leads: false }],
  ['env', { letter: 'S', long: 'split-string', leads: true }],
]);

/** A word as shell text again: quoted, with its expansions left open so the check still sees them. */
function shellText(word: string): string {
  return word
    .split(MARK)
    .map((piece, i) => (i % 2 === 0 ? quote([piece]) : `\${${piece}}`))
    .join('');
}

/** The command lines other shells run for one segment, each with how it is handed over. */
type InnerScripts = { via: string; scripts: string[] };

/** Whether `text` gives the command option, with its attached value (null: the next word is it). */
function commandOption(text: string, option: CommandOption): { value: string | null } | null {
  if (text.startsWith('--')) {
    // getopt_long takes any unambiguous abbreviation (`--comm`, `--split`).
    const eq = text.indexOf('=');
    if (!namesLong(text.slice(2, eq < 0 ? undefined : eq), option.long)) return null;
    return { value: eq < 0 ? null : text.slice(eq + 1) };
  }
  const at = text.indexOf(option.letter);
  if (!text.startsWith('-') || at <= 0) return null;
  return { value: text.slice(at + 1) || null };
}

/**
 * The command lines given as option values (`su -c 'cat x'`, `su -lc …`, `--command=…`,
 * `-S'…'`), or null. A letter inside a cluster counts even where an earlier letter might take
 * it as its value: that only checks one more word. For `env -S`, the words after the value
 * follow the split ones in the command env runs, so they are part of the command line checked.
 */
function optionScripts(program: string, args: readonly Word[]): InnerScripts | null {
  const option = COMMAND_OPTIONS.get(program);
  if (option === undefined) return null;
  const scripts: string[] = [];
  for (const [i, { text }] of args.entries()) {
    const found = commandOption(text, option);
    if (found === null) continue;
    const script = found.value ?? args[i + 1]?.text ?? '';
    const rest = args.slice(found.value === null ? i + 2 : i + 1).map((w) => shellText(w.text));
    scripts.push(option.leads ? [script, ...rest].join(' ') : script);
  }
  return scripts.length === 0 ? null : { via: `${program} -${option.letter}`, scripts };
}

/**
 * The `sh -c` scripts of a segment (also behind any program that runs its arguments: `env`,
 * `timeout`, `setsid`, `find -exec`…: every word after the `-c` cluster), or null. Which of them
 * is the script depends on shell options the check does not model (`-o pipefail`, `+e`, `--`,
 * `--rcfile FILE`, `--emulate sh`), so each is read as one; the others are `$0` and the script's
 * arguments. Each is one quoted word to this check, so it is checked again as a command of its own.
 */
function shellScripts(program: string, args: readonly Word[]): InnerScripts | null {
  const at = SHELLS.has(program) ? -1 : args.findIndex((w) => SHELLS.has(posix.basename(w.text)));
  if (at < 0 && !SHELLS.has(program)) return null;
  const flag = args.findIndex((w, i) => i > at && SCRIPT_FLAG.test(w.text));
  if (flag < 0) return null;
  const shell = at < 0 ? program : posix.basename((args[at] as Word).text);
  return { via: `${shell} ${(args[flag] as Word).text}`, scripts: args.slice(flag + 1).map((w) => w.text) };
}

/**
 * The command lines a segment hands to another shell: the words of `eval`/`watch`, option values
 * (`su -c`, `env -S`) and `sh -c` scripts. Both of the last two are looked for, since one program
 * can have both (`env -uSOME sh -c …`, `runuser -u me -- sh -ce …`, `flock .lock bash -cx …`).
 */
function innerScripts(program: string, args: readonly Word[]): InnerScripts[] {
  if (JOINED.has(program)) return [{ via: program, scripts: [args.map((w) => w.text).join(' ')] }];
  return [optionScripts(program, args), shellScripts(program, args)].filter((s) => s !== null);
}

/** The reason a program that names files through its input is refused, or null. */
function inputDriven(program: string, args: readonly Word[]): string | null {
  if (INPUT_DRIVEN.has(program))
    return `\`${program}\` takes the file names it passes from its input, which the workspace check cannot see; name the files on the command line instead`;
  for (const { text } of args) {
    const name = text.startsWith('--') ? (text.slice(2).split('=')[0] ?? '') : '';
    const fileList =
      (name.length >= 6 && namesLong(name, 'files0-from')) || (name.length >= 6 && namesLong(name, 'files-from'));
    if (fileList || (program === 'find' && text === '-files0-from')) {
      return `\`${program} ${text}\` reads file names from a list the workspace check cannot see; name the files on the command line instead`;
    }
  }
  return null;
}

/**
 * Whether one component of a glob may match `..` under /bin/sh (dash matches a leading `.` only
 * with a literal `.`; whether a bracket may match it is unspecified, so brackets count): the same
 * glob reading as the runtime-folder rule, so `.[.]` and `.[[:punct:]]` count.
 */
function mayMatchDotDot(part: string): boolean {
  return /[*?[]/.test(part) && nameMayBe(part, true, '..');
}

/** Folder changes followed in one command line: each can make every later path longer to resolve. */
const MAX_FOLDER_CHANGES = 32;
/** Shell scripts inside scripts followed (`sh -c 'sh -c …'`, `eval eval …`): each level is read again. */
const MAX_SCRIPT_DEPTH = 3;

class Checker {
  private readonly root: string;
  private folderChanges = 0;
  private readonly folderParts = new Map<string, readonly string[]>();

  constructor(
    root: string,
    private readonly mode: AgentMode,
    /** How many shells (`sh -c`, `eval`) the command is nested in. */
    private readonly depth: number,
    /** The outermost line may make a leading `*`/`?` match a leading `.` (`wildcardsMayMatchDots`). */
    private readonly leadingDots: boolean,
  ) {
    this.root = posix.normalize(root).replace(/(.)\/+$/, '$1');
  }

  private inside(absolute: string): boolean {
    return this.root === '/' || absolute === this.root || absolute.startsWith(`${this.root}/`);
  }

  /** Why `absolute` (normalised) may not be named, or null: outside the workspace, or in its runtime folder. */
  private refusal(shown: string, absolute: string, glob: boolean, where: string): string | null {
    if (!this.inside(absolute)) return this.outside(shown, where);
    // Inside the root, so the relative path is a slice (posix.relative was most of this check's time).
    const relative = absolute === this.root ? '' : absolute.slice(this.root === '/' ? 1 : this.root.length + 1);
    // shell-quote marks `*`/`?` globs only; sh also expands `.[v]tcode`, so a bracket counts as one.
    const why = runtimeFolderProblem(relative, glob || shown.includes('['), this.mode, this.leadingDots);
    return why === null ? null : `\`${shown}\` ${why}`;
  }

  private outside(shown: string, where: string): string {
    return `\`${shown}\` ${where} outside the workspace (${this.root}); commands may only name paths inside it`;
  }

  /** Why `text`, read as a path from any of `cwds`, may leave the workspace; null when it cannot. */
  path(text: string, glob: boolean, cwds: readonly string[]): string | null {
    // Most words are plain relative paths (`README.md`, `src/a.ts`, `5`). No component is `..` or
    // hidden, so from any folder the flow tracks (each one inside and allowed) they stay inside and
    // out of `.vtcode`.
    if (PLAIN_RELATIVE.test(text)) return null;
    if (text.includes(MARK)) {
      // Markers come in pairs, so every odd piece is a variable name.
      const shown = text
        .split(MARK)
        .map((piece, i) =>
          i % 2 === 0 ? piece : /^[A-Za-z_][A-Za-z0-9_]*$/.test(piece) ? `$${piece}` : `\${${piece}}`,
        )
        .join('');
      return `\`${shown}\` expands a shell variable the workspace check cannot resolve, so it cannot prove the path stays inside the workspace (${this.root}); spell the path out`;
    }
    const url = URL.exec(text);
    if (url !== null) {
      if (url[1]?.toLowerCase() !== 'file') return null;
      const local = text.slice(url[0].length);
      return local.startsWith('/') ? this.path(local, glob, cwds) : this.outside(text, 'names a file on another host,');
    }
    if (text.startsWith('~')) return this.outside(text, 'names a home folder,');
    if (DEVICES.has(text)) return null;
    // shell-quote marks `*`/`?` globs only; sh also expands `.[.]` to `..`.
    if (glob || text.includes('[')) {
      const risky = text.split('/').find(mayMatchDotDot);
      if (risky !== undefined)
        return `the glob \`${text}\` can match \`..\` (the folder above) under /bin/sh, which may lead outside the workspace (${this.root}); name the files explicitly`;
    }
    if (posix.isAbsolute(text)) return this.refusal(text, posix.normalize(text), glob, 'is');
    const normal = posix.normalize(text);
    const brackets = glob || text.includes('[');
    if (normal !== '..' && !normal.startsWith('../')) {
      // Without a `..` a relative path stays below its folder, and every folder the flow tracks
      // is inside and allowed: only from the root itself can it reach `.vtcode`.
      if (!cwds.includes(this.root)) return null;
      const why = runtimeFolderProblem(normal === '.' ? '' : normal, brackets, this.mode, this.leadingDots);
      return why === null ? null : `\`${text}\` ${why}`;
    }
    // Resolved by components, not by joining: a folder can be thousands of characters deep, and
    // joining it for every word made the check quadratic.
    let up = 0;
    while (normal.startsWith('..', 3 * up) && (normal.length === 3 * up + 2 || normal[3 * up + 2] === '/')) up += 1;
    const rest = normal.slice(3 * up);
    const [restFirst, restSecond] = rest === '' ? [] : rest.split('/', 2);
    for (const cwd of cwds) {
      const parts = this.partsOf(cwd);
      if (parts.length < up && this.root !== '/') {
        const absolute = posix.join(cwd, normal);
        const from = cwd === this.root ? '' : ` from \`${parts.join('/')}\``;
        return this.outside(text, `resolves to ${absolute}${from},`);
      }
      const kept = Math.max(0, parts.length - up);
      const first = kept >= 1 ? parts[0] : restFirst;
      const second = kept >= 2 ? parts[1] : kept === 1 ? restFirst : restSecond;
      const why =
        first === undefined ? null : runtimeFolderProblemOf(first, second, brackets, this.mode, this.leadingDots);
      if (why !== null) return `\`${text}\` ${why}`;
    }
    return null;
  }

  /** The components of a tracked folder below the root, computed once per folder. */
  private partsOf(cwd: string): readonly string[] {
    let parts = this.folderParts.get(cwd);
    if (parts === undefined) {
      const relative = cwd === this.root ? '' : cwd.slice(this.root === '/' ? 1 : this.root.length + 1);
      parts = relative === '' ? [] : relative.split('/');
      this.folderParts.set(cwd, parts);
    }
    return parts;
  }

  /** Why an argument word of `program` may name a path outside; handles option values and `NAME=value`. */
  argument(word: Word, cwds: readonly string[], program: string): string | null {
    const t = word.text;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      return eq < 0 ? null : this.path(t.slice(eq + 1), word.glob, cwds);
    }
    if (t.startsWith('-') && t.length > 2) {
      // A value may be attached after any letter of a cluster (`-C../x`, `-cf/tmp/a.tar`); it is
      // taken from where a path could start.
      const start = [...t.slice(2)].findIndex((c) => c === '/' || c === '~' || c === '.' || c === MARK);
      const attached = start < 0 ? '' : t.slice(start + 2);
      if (attached === '') return null;
      // A lone `/` after a separator option is the separator (`cut -d/`); anywhere else it is the
      // root folder (`tar -C/`, `env -C/`, `make -C/`).
      if (attached === '/' && (SEPARATOR_LETTERS.get(program) ?? '').includes(t.at(-2) as string)) return null;
      return this.path(attached, word.glob, cwds);
    }
    if (t.startsWith('-')) return null;
    const whole = this.path(t, word.glob, cwds);
    if (whole !== null) return whole;
    const eq = t.indexOf('=');
    return eq > 0 ? this.path(t.slice(eq + 1), word.glob, cwds) : null;
  }

  /** Verdict for one simple command; updates the cwd flow for `cd`, `pushd` and `popd`. */
  segment(segment: ScannedSegment, flow: CwdFlow): string | null {
    const cwds = flow.enter(segment.joiner);
    const hidden = this.hiddenPaths(segment, flow);
    if (hidden !== null) return hidden;
    if (!segment.argv.ok) return segment.argv.reason;
    const words = segment.argv.words;
    const redirected = this.redirectTargets(segment.redirects, cwds);
    if (redirected !== null) return redirected;
    let at = 0;
    while (at < words.length && ASSIGNMENT.test((words[at] as Word).text)) {
      const why = this.argument(words[at] as Word, cwds, '');
      if (why !== null) return why;
      at += 1;
    }
    const head = words[at];
    if (head === undefined) return null;
    const unnamed = this.programWord(head, cwds);
    if (unnamed !== null) return unnamed;
    const program = posix.basename(head.text);
    const args = words.slice(at + 1);
    const fed = inputDriven(program, args);
    if (fed !== null) return fed;
    if (program === 'cd' || program === 'pushd' || program === 'popd')
      return this.folderCommand(program, args, cwds, flow);
    const script = this.innerScriptVerdict(program, args);
    if (script !== null) return script;
    return this.arguments(program, args, cwds);
  }

  /** Why the segment's paths cannot be known from its text: too many folders, substitutions, braces. */
  private hiddenPaths(segment: ScannedSegment, flow: CwdFlow): string | null {
    if (flow.overflowed) {
      return `the \`cd\`s before this command leave more than ${MAX_FOLDERS} folders it may run in, more than the workspace check follows; use \`cd DIR &&\` or fewer \`cd\`s per command`;
    }
    if (segment.substitution) {
      return 'a command substitution (`$(…)`, backticks) or process substitution (`<(…)`) produces paths the workspace check cannot see; run the inner command on its own and pass its result literally';
    }
    if (segment.braces)
      return 'a brace expansion (`{a,b}`, `{1..9}`) turns one word into several paths the workspace check cannot see; list the paths one by one';
    return null;
  }

  private redirectTargets(redirects: readonly Redirect[], cwds: readonly string[]): string | null {
    for (const r of redirects) {
      if (r.targetWords === null) continue;
      if (!r.targetWords.ok) return `redirection \`${r.text}\`: ${r.targetWords.reason}`;
      // Every word counts: a comment or operator the parser split off is still part of the file name.
      for (const target of r.targetWords.words) {
        const why = this.path(target.text, target.glob, cwds);
        if (why !== null) return `redirection \`${r.text}\`: ${why}`;
      }
    }
    return null;
  }

  /** The program word is exempt as a path, but not when it is a variable or a glob that may leave. */
  private programWord(head: Word, cwds: readonly string[]): string | null {
    if (head.text.includes(MARK))
      return `the program name \`${head.text.replaceAll(MARK, '')}\` comes from a shell variable the workspace check cannot resolve`;
    return head.glob ? this.path(head.text, true, cwds) : null;
  }

  private folderCommand(
    program: 'cd' | 'pushd' | 'popd',
    args: readonly Word[],
    cwds: readonly string[],
    flow: CwdFlow,
  ): string | null {
    this.folderChanges += 1;
    if (this.folderChanges > MAX_FOLDER_CHANGES) {
      return `more than ${MAX_FOLDER_CHANGES} \`cd\`/\`pushd\`/\`popd\` in one command are more than the workspace check follows; split the command`;
    }
    if (program === 'popd') {
      flow.popd();
      return null;
    }
    return this.changeDirectory(program, args, cwds, flow);
  }

  /** A script handed to another shell is checked as a command line of its own. */
  private innerScriptVerdict(program: string, args: readonly Word[]): string | null {
    for (const inner of innerScripts(program, args)) {
      // Checked from the workspace root: `..` leaves it no later there than from a subfolder.
      if (this.depth >= MAX_SCRIPT_DEPTH)
        return `scripts nested more than ${MAX_SCRIPT_DEPTH} deep (\`${inner.via}\`) are more than the workspace check follows`;
      for (const script of inner.scripts) {
        const verdict = checkScannedPaths(
          script,
          scanCommand(script),
          this.root,
          this.mode,
          this.depth + 1,
          this.leadingDots,
        );
        if (!verdict.allowed) return `the script run by \`${inner.via}\`: ${verdict.reason}`;
      }
    }
    return null;
  }

  /** The words after the program, each as a possible path unless the program reads it otherwise. */
  private arguments(program: string, args: readonly Word[], cwds: readonly string[]): string | null {
    const skip = notPaths(program, args);
    const generic = !NO_PATHS.has(program) && !PATTERN_RULES.has(program) && program !== 'git' && program !== 'find';
    for (const [i, word] of args.entries()) {
      // An unquoted expansion in a pattern position can split into a pattern and a path.
      if (skip.has(i) && (NO_PATHS.has(program) || !word.text.includes(MARK))) continue;
      const why = skip.has(i) ? this.path(word.text, word.glob, cwds) : this.argument(word, cwds, program);
      if (why !== null) return generic ? `${why} (every argument of \`${program}\` counts as a possible path)` : why;
    }
    return null;
  }

  private changeDirectory(
    program: string,
    args: readonly Word[],
    cwds: readonly string[],
    flow: CwdFlow,
  ): string | null {
    const end = args.findIndex((w) => w.text === '--');
    const operands = args.filter((w, i) => (end >= 0 ? i > end : !/^-[LPe@]+$/.test(w.text)));
    const target = operands[0];
    if (target === undefined)
      return `\`${program}\` without a folder goes to the home folder, outside the workspace (${this.root}); name a folder inside it`;
    if (target.text === '-')
      return `\`${program} -\` returns to a folder the workspace check cannot see; name a folder inside the workspace (${this.root})`;
    if (operands.length > 1) return `\`${program}\` takes one folder; run the commands separately`;
    const why = this.path(target.text, target.glob, cwds);
    if (why !== null) return why;
    if (target.glob) return `\`${program} ${target.text}\`: the folder is a glob; name it explicitly`;
    // resolve, not join: an absolute target replaces the folder (every cwd is absolute, so no process.cwd()).
    flow.changeTo(cwds.map((cwd) => posix.resolve(cwd, target.text)));
    return null;
  }
}

/**
 * Checks every path a command line names against the workspace `root` (absolute POSIX path); see
 * the file comment. `mode` matters only for the runtime folder; the default is the strictest.
 */
export function checkCommandPaths(command: string, root: string, mode: AgentMode = 'build'): PathVerdict {
  return checkScannedPaths(command, scanCommand(command), root, mode);
}

/** The same, over the reading the caller already has (the read-only policy reads the same one). */
export function checkScannedPaths(
  command: string,
  reading: ScanResult,
  root: string,
  mode: AgentMode = 'build',
  depth = 0,
  leadingDots = wildcardsMayMatchDots(command),
): PathVerdict {
  if (!posix.isAbsolute(root))
    return refuseWhole(
      command,
      `the workspace root \`${root}\` is not an absolute path, so no path can be checked against it`,
    );
  if (!reading.ok)
    return refuseWhole(command, `the workspace check cannot read the command: ${reading.problem.message}`);
  const checker = new Checker(root, mode, depth, leadingDots);
  const flow = new CwdFlow(
    posix.normalize(root).replace(/(.)\/+$/, '$1'),
    reading.segments.some((s) => s.subshell),
  );
  return aggregate(
    reading.segments.map((segment) => {
      const reason = checker.segment(segment, flow);
      return { command: segment.raw, allowed: reason === null, reason };
    }),
  );
}
