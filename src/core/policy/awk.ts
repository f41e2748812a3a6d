/**
 * awk, gawk, mawk and nawk in plan mode (RO-2, RO-3): their options, and a conservative check of
 * the program text. awk can run commands (`system()`, `"cmd" | getline`, `print | "cmd"`),
 * write files (`print > "file"`), read any file (`getline < "f"`, or files added to `ARGV`),
 * print the environment and its secrets (`ENVIRON`, gawk's `PROCINFO`) and, in gawk, call
 * functions indirectly (`@f()`) or load code (`@load`, `@include`, `-i`, `-l`, `-f`, `-E`).
 * Those names are refused wherever they occur, strings included. Comparisons such as `NR > 1`
 * are ordinary awk, so `>` is only a redirection inside a `print`/`printf` statement outside
 * parentheses; a small lexer finds those, and any `|` that is not `||`. Where the lexer could
 * disagree with awk about what is a regular expression, the program is rejected.
 */
import { operands, readArgs, type Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

const SHORT_OK = 'FvS';
const LONG_OK = new Set([
  'field-separator',
  'assign',
  'sandbox',
  'posix',
  'traditional',
  're-interval',
  'characters-as-bytes',
]);

export function checkAwk(words: readonly Word[]): SegmentVerdict {
  const name = (words[0] as Word).text;
  const args = readArgs(words.slice(1), {
    valueShort: 'Fv',
    valueLong: ['field-separator', 'assign'],
    doubleDash: true,
  });
  for (const a of args) {
    if (a.kind === 'operand') continue;
    const known = a.kind === 'short' ? SHORT_OK.includes(a.flag) : LONG_OK.has(a.name);
    if (!known)
      return reject(
        'unknown',
        `${name} option \`${a.word}\` is not on the read-only list (program files, includes, extensions, profiles and dumps are not allowed)`,
      );
  }
  const program = operands(args)[0];
  if (program === undefined) return reject('unknown', `${name} needs a program`);
  const problem = awkProgramProblem(program.text);
  return problem === null ? allow('inspection') : reject('mutation', problem);
}

const BANNED: [RegExp, string][] = [
  [/\bsystem\b/, 'awk `system()` runs a shell command'],
  [/\bgetline\b/, 'awk `getline` reads from a command or from any file'],
  [/\b(ENVIRON|PROCINFO)\b/, 'awk `ENVIRON` / `PROCINFO` expose the environment, which holds secrets'],
  [/\b(ARGV|ARGC)\b/, 'awk `ARGV` / `ARGC` can make awk read files not named on the command line'],
  [/\b(close|fflush)\b/, 'awk `close()` / `fflush()` act on commands and files opened by the program'],
];

export function awkProgramProblem(program: string): string | null {
  for (const [pattern, why] of BANNED) if (pattern.test(program)) return why;
  if (program.includes('@')) return 'gawk `@` directives and indirect calls can load code or call any function';
  return new AwkLexer(program).problem();
}

type Prev = 'operand' | 'operator';

class AwkLexer {
  private i = 0;
  private prev: Prev = 'operator';
  private inPrint = false;
  private printDepth = 0;

  constructor(private readonly s: string) {}

  problem(): string | null {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i] as string;
      if (c === '"') {
        const end = this.skipString();
        if (end === null) return 'awk program has an unterminated string';
        this.i = end;
        this.prev = 'operand';
      } else if (c === '/' && this.prev === 'operator') {
        const p = this.skipRegex();
        if (p !== null) return p;
        this.prev = 'operand';
      } else if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i += 1;
      } else if (/[A-Za-z_]/.test(c)) {
        const start = this.i;
        while (this.i < s.length && /\w/.test(s[this.i] as string)) this.i += 1;
        const word = s.slice(start, this.i);
        if (word === 'print' || word === 'printf') {
          this.inPrint = true;
          this.printDepth = 0;
          this.prev = 'operator';
        } else {
          this.prev = 'operand';
        }
      } else if (/[0-9.]/.test(c)) {
        this.i += 1;
        this.prev = 'operand';
      } else {
        const p = this.punctuation(c);
        if (p !== null) return p;
      }
    }
    return null;
  }

  private punctuation(c: string): string | null {
    const s = this.s;
    this.i += 1;
    if (c === ' ' || c === '\t' || c === '\\') return null;
    if (c === ')' || c === ']' || c === '$') {
      if (c === ')' && this.inPrint) this.printDepth -= 1;
      this.prev = c === '$' ? 'operator' : 'operand';
      return null;
    }
    if (c === '|') {
      if (s[this.i] !== '|') return 'awk `|` pipes to or from a command';
      this.i += 1;
      this.prev = 'operator';
      return null;
    }
    if ((c === '+' || c === '-') && s[this.i] === c) {
      // Postfix increment ends an operand; `x++ / 2` is a division.
      this.i += 1;
      this.prev = 'operand';
      return null;
    }
    if (this.inPrint) {
      if (c === '(') this.printDepth += 1;
      if (c === '>' && this.printDepth <= 0) return 'awk `print > "file"` writes a file';
      if (c === ';' || c === '\n' || c === '}' || c === '{') this.inPrint = false;
    }
    this.prev = 'operator';
    return null;
  }

  private skipString(): number | null {
    const s = this.s;
    let j = this.i + 1;
    while (j < s.length) {
      const c = s[j];
      if (c === '\\') j += 2;
      else if (c === '"') return j + 1;
      else if (c === '\n') return null;
      else j += 1;
    }
    return null;
  }

  /** Regex literals that could end somewhere else for awk than for this lexer are rejected. */
  private skipRegex(): string | null {
    const s = this.s;
    let j = this.i + 1;
    let bracket = false;
    while (j < s.length) {
      const c = s[j] as string;
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '[') bracket = true;
      if (c === ']') bracket = false;
      if (c === '/') {
        if (bracket) return 'awk regular expression has `/` inside `[…]`; escape it as `\\/`';
        this.i = j + 1;
        return null;
      }
      if (c === '"' || c === ';' || c === '>' || c === '\n') {
        return `awk regular expression contains \`${c === '\n' ? '\\n' : c}\`, which makes the program ambiguous to check`;
      }
      j += 1;
    }
    return 'awk program has an unterminated regular expression';
  }
}
