/**
 * Quote-aware pre-scan of a shell command string (RO-2, RO-3).
 *
 * `shell-quote` tokenises words well but is lossy in exactly the places an attacker would use:
 * it expands `$VAR` to an empty string, silently skips an unbalanced quote, treats any unquoted
 * `#` as the start of a comment (sh does so only at the start of a word, so to shell-quote
 * `ls a#b; rm x` would hide `rm`), splits on Unicode spaces that bash keeps inside a word, and
 * forgets which digits were glued to a redirection. This scanner walks the raw text once, tracking
 * quote state, and fails closed on everything the policy cannot prove static. It also
 *  - splits the command into segments at unquoted `&&`, `||`, `|` and `;`;
 *  - removes the few redirections that write nothing (`2>&1`, `>/dev/null`, `< file`) from the
 *    text that is handed to `shell-quote` (command-words.ts), so the parser only ever sees plain words;
 *  - escapes a `#` inside a word (`a#b`) in that text, so `shell-quote` reads it as sh does;
 *  - hands each segment's text and each redirection target to `shell-quote` once, so the result is
 *    the one reading of the command: the policy, the path rule and the navigation accounting all
 *    consume it and none parses the command again.
 * Commands longer than MAX_COMMAND_LENGTH are refused unread: every later step is then bounded.
 * Commands run under /bin/sh (dash on Debian/Ubuntu), so syntax whose meaning differs between
 * bash and dash (`&>`, `|&`, multi-digit descriptors) is read the stricter way or rejected;
 * test/unit/policy/differential.test.ts checks allowed commands against the real /bin/sh.
 * Problems are attached to the segment they occur in, so a verdict can name the failing segment.
 */
import { splitWords, type SegmentWords } from './command-words';

type ProblemClass = 'mutation' | 'unknown';

interface ScanProblem {
  message: string;
  class: ProblemClass;
}

export type Joiner = '&&' | '||' | '|' | ';';

/** Commands run under /bin/sh, which is dash on Debian and Ubuntu; bash-only syntax means something else there. */
function bashOnly(syntax: string, shMeaning: string, instead: string): string {
  return `${syntax} is bash-only syntax (under /bin/sh it is ${shMeaning}); use ${instead}`;
}

export interface Redirect {
  /**
   * `<` reads a file, `dup` duplicates a descriptor (`2>&1`), `null` writes to /dev/null, `write`
   * opens a file for writing (`>`, `>>`, `>|`, `<>`, `&>`; always also a problem of the segment).
   */
  kind: '<' | 'dup' | 'null' | 'write';
  text: string;
  /** The file the redirection opens, as written (quotes kept), for the workspace path check; `null` for `dup`. */
  target: string | null;
  /** The words of `target` (a `#` inside the word read as sh reads it); `null` for `dup`. */
  targetWords: SegmentWords | null;
}

export interface ScannedSegment {
  /** The segment as the user wrote it (trimmed), redirections included. */
  raw: string;
  /** The segment's words, harmless redirections removed: what the program receives. */
  argv: SegmentWords;
  redirects: Redirect[];
  /** Operator that joins this segment to the previous one (`null` for the first). */
  joiner: Joiner | null;
  problems: ScanProblem[];
  /**
   * Set when a glob could expand to a word starting with `-` (`*.md`, `-*`): harmless for a
   * program without write options, an option-injection risk for any other.
   */
  unanchoredGlob: string | null;
  /** A command or process substitution (`$(…)`, backticks, `<(…)`) produces words no static check can see. */
  substitution: boolean;
  /** Parentheses group part of the segment: a `cd` inside them does not outlive them. */
  subshell: boolean;
  /** An unquoted brace expansion (`{a,b}`, `{1..9}`) turns one word into several. */
  braces: boolean;
}

export type ScanResult = { ok: true; segments: ScannedSegment[] } | { ok: false; problem: ScanProblem };

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}]/u;
const BLANK = new Set([' ', '\t']);
const WORD_END = new Set([' ', '\t', ';', '&', '|', '<', '>', '(', ')']);

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c === '\n' || c === '\r') return `a line break (${hex})`;
  return code < 0x20 || code === 0x7f ? `a control character (${hex})` : `'${c}' (${hex})`;
}

function firstInvisible(command: string): string | null {
  for (const c of command) {
    if (c !== ' ' && c !== '\t' && INVISIBLE.test(c)) return c;
  }
  return null;
}

/**
 * The longest command the policy reads (16 KiB). Far above any command an agent needs, and low
 * enough that the check of the longest one takes milliseconds (bench/policy-adversarial.bench.ts).
 */
export const MAX_COMMAND_LENGTH = 16 * 1024;

/** Static check of a whole command; see the file comment. */
export function scanCommand(command: string): ScanResult {
  if (command.trim() === '') return { ok: false, problem: { message: 'the command is empty', class: 'unknown' } };
  if (command.length > MAX_COMMAND_LENGTH) {
    const message = `the command is ${command.length} characters long; commands longer than ${MAX_COMMAND_LENGTH} are not checked. Split it into several calls`;
    return { ok: false, problem: { message, class: 'unknown' } };
  }
  const hidden = firstInvisible(command);
  if (hidden !== null) {
    const why =
      hidden === '\n' || hidden === '\r'
        ? 'a second line can hide another command; run one command per call or join them with &&'
        : 'invisible or look-alike characters can make a command read differently from how it runs';
    return {
      ok: false,
      problem: { message: `the command contains ${describeChar(hidden)}: ${why}`, class: 'unknown' },
    };
  }
  return new Scanner(command).run();
}

class Scanner {
  private readonly segments: ScannedSegment[] = [];
  private segStart = 0;
  private joiner: Joiner | null = null;
  private out = '';
  private redirects: Redirect[] = [];
  private problems: ScanProblem[] = [];
  private unanchoredGlob: string | null = null;
  private substitution = false;
  private subshell = false;
  private braces = false;
  // Current unquoted-word state; a "word" here is what bash would see before expansion.
  private wordLen = 0;
  private wordOutStart = 0;
  private wordDigitsOnly = true;
  private wordIsOption = false;
  private wordSawEquals = false;
  private braceOpen = false;
  private braceSep = false;
  private bracketOpen = false;

  constructor(private readonly s: string) {}

  run(): ScanResult {
    const s = this.s;
    let i = 0;
    while (i < s.length) {
      const c = s[i] as string;
      if (c === "'" || c === '"') {
        const after = this.quoted(i);
        if (after < 0) return this.unbalanced(c);
        i = after;
      } else if (c === '\\') {
        i = this.escaped(i);
      } else if (BLANK.has(c)) {
        this.endWord();
        this.out += c;
        i += 1;
      } else {
        i = this.operator(i) ?? this.plainChar(i);
      }
    }
    this.endWord();
    this.closeSegment(s.length, true);
    return { ok: true, segments: this.segments };
  }

  /** A quoted string at `i` joins the current word; returns the index after it, or -1 when it never closes. */
  private quoted(i: number): number {
    const s = this.s;
    const close = s[i] === "'" ? s.indexOf("'", i + 1) : this.scanDouble(i);
    if (close < 0) return -1;
    this.addWordText(s.slice(i, close + 1));
    return close + 1;
  }

  /** A backslash and the character it quotes; returns the index after them. */
  private escaped(i: number): number {
    const next = this.s[i + 1];
    if (next === undefined) {
      this.problem('the command ends with a lone backslash', 'unknown');
      return i + 1;
    }
    if (next.charCodeAt(0) > 0x7e) this.nonAscii(next);
    this.addWordText('\\' + next);
    return i + 2;
  }

  /** A control operator, redirection or parenthesis at `i`: the index after it, or null when there is none. */
  private operator(i: number): number | null {
    const s = this.s;
    const c = s[i];
    const next = s[i + 1];
    if (c === '&' && next === '&') return this.boundary(i, 2, '&&');
    if (c === '|' && next === '|') return this.boundary(i, 2, '||');
    if (c === '|' && next === '&') {
      this.problem(bashOnly('`|&`', 'a syntax error', '`2>&1 |`'), 'unknown');
      return this.boundary(i, 2, '|');
    }
    if (c === '|') return this.boundary(i, 1, '|');
    if (c === ';') {
      if (next !== ';' && next !== '&') return this.boundary(i, 1, ';');
      this.problem(`\`;${next}\` belongs to \`case\` syntax, which the policy does not run`, 'unknown');
      return i + 2;
    }
    if (c === '&' && next === '>') {
      // dash reads `a &>/dev/null b` as `a &` then `>/dev/null b`: b would run unseen.
      this.problem(bashOnly('`&>`', 'a background `&`', '`>/dev/null 2>&1`'), 'unknown');
      return this.writeTarget(i, s[i + 2] === '>' ? 3 : 2);
    }
    if (c === '&') {
      this.problem('`&` runs a command in the background, outside the policy’s view', 'unknown');
      return i + 1;
    }
    if (c === '>' || c === '<') return this.redirect(i);
    if (c === '(' || c === ')') {
      this.problem('parentheses start a subshell or grouping, which the policy does not allow', 'unknown');
      this.subshell = true;
      return i + 1;
    }
    return null;
  }

  private unbalanced(q: string): ScanResult {
    return {
      ok: false,
      problem: { message: `the command has an unbalanced ${q === "'" ? 'single' : 'double'} quote`, class: 'unknown' },
    };
  }

  private problem(message: string, cls: ProblemClass): void {
    this.problems.push({ message, class: cls });
  }

  private nonAscii(c: string): void {
    this.problem(
      `${describeChar(c)} is outside quotes; look-alike characters are not allowed in command words`,
      'unknown',
    );
  }

  /** Returns the index of the closing quote, or -1. Flags expansions, which stay live inside "…". */
  private scanDouble(open: number): number {
    const s = this.s;
    let j = open + 1;
    while (j < s.length) {
      const c = s[j] as string;
      if (c === '"') return j;
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '`') this.backtick();
      if (c === '$' && !isLiteralDollar(s[j + 1], true)) this.dollarProblem(j);
      j += 1;
    }
    return -1;
  }

  private backtick(): void {
    this.problem('backticks run a command substitution', 'unknown');
    this.substitution = true;
  }

  private dollarProblem(at: number): void {
    const next = this.s[at + 1];
    if (next === '(') {
      this.problem('`$(…)` runs a command substitution', 'unknown');
      this.substitution = true;
    } else if (next === "'" || next === '"')
      this.problem('`$\'…\'` / `$"…"` quoting is not allowed; use plain quotes', 'unknown');
    else this.problem(`\`$${next ?? ''}…\` expands a variable, so the command is not static`, 'unknown');
  }

  private addWordText(text: string): void {
    if (this.wordLen === 0) this.wordIsOption = text[0] === '-' || text[1] === '-';
    if (text.includes('=')) this.wordSawEquals = true;
    this.out += text;
    this.wordLen += text.length;
    this.wordDigitsOnly = false;
  }

  private plainChar(i: number): number {
    const s = this.s;
    const c = s[i] as string;
    if (c.charCodeAt(0) > 0x7e) {
      this.nonAscii(String.fromCodePoint(s.codePointAt(i) ?? 0));
    } else if (c === '$') {
      if (!isLiteralDollar(s[i + 1], false)) this.dollarProblem(i);
    } else if (c === '`') {
      this.backtick();
    } else if (c === '#') {
      if (this.wordLen === 0) {
        this.problem(
          'an unquoted `#` at the start of a word starts a comment that can hide the rest of the line; quote it',
          'unknown',
        );
      } else {
        // Literal inside a word for sh; shell-quote would start a comment here, so escape it.
        this.out += '\\';
      }
    } else if (c === '*' || c === '?') {
      this.globChar(c);
    } else if (c === '[') {
      this.bracketOpen = true;
    } else if (c === ']' && this.bracketOpen) {
      this.problem('an unquoted `[…]` is a glob; quote it', 'unknown');
    } else if (c === '{') {
      this.braceOpen = true;
    } else if (this.braceOpen && (c === ',' || (c === '.' && s[i + 1] === '.'))) {
      this.braceSep = true;
    } else if (c === '}' && this.braceOpen) {
      if (this.braceSep) {
        this.problem(
          'brace expansion `{a,b}` / `{1..9}` is not static; list the words explicitly or quote them',
          'unknown',
        );
        this.braces = true;
      }
      this.braceOpen = false;
      this.braceSep = false;
    }
    if (this.wordLen === 0) this.wordIsOption = c === '-';
    if (c === '=') this.wordSawEquals = true;
    if (c < '0' || c > '9') this.wordDigitsOnly = false;
    this.out += c;
    this.wordLen += 1;
    return i + 1;
  }

  private globChar(c: string): void {
    if (this.unanchoredGlob !== null) return;
    if (this.wordLen === 0) {
      this.unanchoredGlob = `a word starting with the glob \`${c}\` could expand to a file name that begins with \`-\` and be read as an option; anchor it (\`./${c}.md\`) or quote it`;
    } else if (this.wordIsOption && !this.wordSawEquals) {
      this.unanchoredGlob = `the glob \`${c}\` inside an option could change which option it is; quote it`;
    }
  }

  private endWord(): void {
    this.wordLen = 0;
    this.wordOutStart = this.out.length;
    this.wordDigitsOnly = true;
    this.wordIsOption = false;
    this.wordSawEquals = false;
    this.braceOpen = false;
    this.braceSep = false;
    this.bracketOpen = false;
  }

  private boundary(i: number, width: number, joiner: Joiner): number {
    this.endWord();
    this.closeSegment(i, false);
    this.joiner = joiner;
    this.segStart = i + width;
    return i + width;
  }

  private closeSegment(end: number, last: boolean): void {
    const raw = this.s.slice(this.segStart, end).trim();
    if (raw === '') {
      // `ls;` is ordinary shell; an operator with nothing on one side is not.
      if (!(last && this.joiner === ';' && this.segments.length > 0)) {
        this.problems.push({ message: 'an operator has no command on one side', class: 'unknown' });
      } else {
        return;
      }
    }
    const { redirects, problems, unanchoredGlob, substitution, subshell, braces } = this;
    this.segments.push({
      raw,
      argv: splitWords(this.out),
      redirects,
      joiner: this.joiner,
      problems,
      unanchoredGlob,
      substitution,
      subshell,
      braces,
    });
    this.out = '';
    this.redirects = [];
    this.problems = [];
    this.unanchoredGlob = null;
    this.substitution = false;
    this.subshell = false;
    this.braces = false;
    this.wordOutStart = 0;
  }

  /**
   * A digit glued to the front of `>`/`<` is a descriptor number, not a word. Only one digit:
   * dash reads `10>x` as the word `10` plus `>x`, so a longer run stays a word (stricter for bash).
   */
  private takeDescriptorPrefix(): string {
    if (this.wordLen === 1 && this.wordDigitsOnly) {
      const fd = this.out.slice(this.wordOutStart);
      this.out = this.out.slice(0, this.wordOutStart);
      return fd;
    }
    return '';
  }

  private redirect(i: number): number {
    const s = this.s;
    const fd = this.takeDescriptorPrefix();
    this.endWord();
    const c = s[i] as string;
    const n1 = s[i + 1];
    if (n1 === '(') {
      this.problem(`\`${c}(…)\` is process substitution, which runs a command`, 'unknown');
      this.substitution = true;
      return i + 2;
    }
    if (c === '<') {
      if (n1 === '<') {
        this.problem('here-documents and here-strings (`<<`, `<<<`) are not allowed', 'unknown');
        return s[i + 2] === '<' || s[i + 2] === '-' ? i + 3 : i + 2;
      }
      if (n1 === '>') {
        this.problem('`<>` opens a file for reading and writing (and creates it)', 'mutation');
        return this.writeTarget(i, 2, fd);
      }
      if (n1 === '&') return this.descriptorDup(i, 2, fd);
      const target = this.readTarget(i + 1);
      if (target.text === '') this.problem('`<` has no file to read', 'unknown');
      else
        this.redirects.push({
          kind: '<',
          text: `${fd}<${target.text}`,
          target: target.text,
          targetWords: splitWords(target.word),
        });
      this.out += ' ';
      return target.end;
    }
    if (n1 === '&') {
      if (isDescriptorWord(s, i + 2)) return this.descriptorDup(i, 2, fd);
      return this.outputRedirect(i, 2, fd);
    }
    if (n1 === '|') {
      this.problem('`>|` overwrites a file', 'mutation');
      return this.writeTarget(i, 2, fd);
    }
    return this.outputRedirect(i, n1 === '>' ? 2 : 1, fd);
  }

  private descriptorDup(i: number, width: number, fd: string): number {
    const s = this.s;
    let j = i + width;
    const start = j;
    while (j < s.length && (s[j] as string) >= '0' && (s[j] as string) <= '9') j += 1;
    if (j === start && s[j] === '-') j += 1;
    if (j === start || (j < s.length && !WORD_END.has(s[j] as string))) {
      this.problem(`\`${s.slice(i, j + 1)}\` is not a plain descriptor duplication like \`2>&1\``, 'unknown');
      return j;
    }
    this.redirects.push({ kind: 'dup', text: `${fd}${s.slice(i, j)}`, target: null, targetWords: null });
    this.out += ' ';
    return j;
  }

  private outputRedirect(i: number, width: number, fd: string): number {
    const op = `${fd}${this.s.slice(i, i + width)}`;
    const target = this.readTarget(i + width);
    if (target.text === '/dev/null') {
      this.redirects.push({
        kind: 'null',
        text: `${op}/dev/null`,
        target: target.text,
        targetWords: splitWords(target.word),
      });
    } else {
      const shown = target.text === '' ? op : `${op} ${target.text}`;
      this.problem(
        `output redirection \`${shown}\` writes a file (only \`2>&1\` and \`/dev/null\` are allowed)`,
        'mutation',
      );
      if (target.text !== '')
        this.redirects.push({ kind: 'write', text: shown, target: target.text, targetWords: splitWords(target.word) });
    }
    this.out += ' ';
    return target.end;
  }

  /** The target of a redirection already reported as a problem, kept so the path check still sees the file it opens. */
  private writeTarget(i: number, width: number, fd = ''): number {
    const op = `${fd}${this.s.slice(i, i + width)}`;
    const target = this.readTarget(i + width);
    if (target.text !== '')
      this.redirects.push({
        kind: 'write',
        text: `${op} ${target.text}`,
        target: target.text,
        targetWords: splitWords(target.word),
      });
    this.out += ' ';
    return target.end;
  }

  /**
   * The word after a redirection operator, checked with the same rules as any word but kept out
   * of the argv: `text` as written, `word` as shell-quote must read it.
   */
  private readTarget(from: number): { text: string; word: string; end: number } {
    const s = this.s;
    let j = from;
    while (j < s.length && BLANK.has(s[j] as string)) j += 1;
    const start = j;
    const saved = { out: this.out, wordLen: this.wordLen };
    this.out = '';
    this.wordLen = 0;
    while (j < s.length && !WORD_END.has(s[j] as string)) {
      const c = s[j] as string;
      if (c === "'" || c === '"') {
        const close = c === "'" ? s.indexOf("'", j + 1) : this.scanDouble(j);
        if (close < 0) {
          this.problem('the command has an unbalanced quote', 'unknown');
          j = s.length;
          break;
        }
        this.addWordText(s.slice(j, close + 1));
        j = close + 1;
      } else if (c === '\\') {
        this.addWordText(s.slice(j, j + 2));
        j += 2;
      } else {
        j = this.plainChar(j);
      }
    }
    const word = this.out;
    this.out = saved.out;
    this.wordLen = saved.wordLen;
    this.endWord();
    return { text: s.slice(start, Math.min(j, s.length)), word, end: Math.min(j, s.length) };
  }
}

function isDescriptorWord(s: string, at: number): boolean {
  const c = s[at];
  return c !== undefined && ((c >= '0' && c <= '9') || c === '-');
}

/** Bash keeps `$` literal when nothing that could start an expansion follows it. */
function isLiteralDollar(next: string | undefined, inDouble: boolean): boolean {
  if (next === undefined) return true;
  if (next === ' ' || next === '\t') return true;
  return inDouble && next === '"';
}
