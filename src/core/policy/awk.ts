/**
 * awk, gawk, mawk and nawk in plan mode (RO-2, RO-3): their options, and a conservative check of
 * the program text. awk can run commands (`system()`, `"cmd" | getline`, `print | "cmd"`),
 * write files (`print > "file"`), read any file (`getline < "f"`, or files added to `ARGV`),
 * print the environment and its secrets (`ENVIRON`, gawk's `PROCINFO` and `SYMTAB`) and, in gawk, call
 * functions indirectly (`@f()`) or load code (`@load`, `@include`, `-i`, `-l`, `-f`, `-E`).
 * Those names are refused wherever they occur, strings included. Comparisons such as `NR > 1`
 * are ordinary awk, so `>` is only a redirection inside a `print`/`printf` statement outside
 * parentheses; a small lexer finds those, and any `|` that is not `||`. Where the lexer could
 * disagree with awk about what is a regular expression, the program is rejected.
 */
import { operands, readArgs, type Arg, type Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

const SHORT_OK = 'FvS';
const VALUE_SHORT = 'Fv';
const VALUE_LONG = ['field-separator', 'assign'];
const LONG_OK = new Set([...VALUE_LONG, 'sandbox', 'posix', 'traditional', 're-interval', 'characters-as-bytes']);

export function checkAwk(words: readonly Word[]): SegmentVerdict {
  const name = (words[0] as Word).text;
  const spec = { valueShort: VALUE_SHORT, valueLong: VALUE_LONG };
  const args = readArgs(words.slice(1), spec);
  for (const a of args) {
    const problem = a.kind === 'operand' ? null : optionProblem(name, a);
    if (problem !== null) return reject('unknown', problem);
  }
  const program = operands(args)[0];
  if (program === undefined) return reject('unknown', `${name} needs a program`);
  // A glob up to the program could expand to words that move another one into its place.
  const firstGlob = words.findIndex((w) => w.glob);
  if (firstGlob > 0 && operands(readArgs(words.slice(1, firstGlob), spec)).length === 0)
    return reject('unknown', `a glob before or as the ${name} program could put a file name in its place; quote it`);
  const problem = awkProgramProblem(program.text);
  return problem === null ? allow('inspection') : reject('mutation', problem);
}

function optionProblem(name: string, a: Exclude<Arg, { kind: 'operand' }>): string | null {
  const known = a.kind === 'short' ? SHORT_OK.includes(a.flag) : LONG_OK.has(a.name);
  if (!known)
    return `${name} option \`${a.word}\` is not on the read-only list (program files, includes, extensions, profiles and dumps are not allowed)`;
  const takesValue = a.kind === 'short' ? VALUE_SHORT.includes(a.flag) : VALUE_LONG.includes(a.name);
  // Every awk takes the next word as the value, even `-v`: read as an option here, it would
  // leave the program to be found one word too late.
  if (takesValue && a.value === undefined)
    return `${name} option \`${a.word}\` needs a value, attached to it when the value starts with \`-\` (\`-F-\`, \`--field-separator=-\`)`;
  // BWK awk (macOS, the BSDs) skips long options it does not know and runs their value as the program.
  if (a.kind === 'long' && a.value !== undefined && !a.word.includes('='))
    return `${name} \`${a.word} ${a.value}\`: write \`${a.word}=${a.value}\`, since an awk that does not know \`${a.word}\` runs \`${a.value}\` as the program`;
  return null;
}

const BANNED: [RegExp, string][] = [
  [/\bsystem\b/, 'awk `system()` runs a shell command'],
  [/\bgetline\b/, 'awk `getline` reads from a command or from any file'],
  [/\b(ENVIRON|PROCINFO)\b/, 'awk `ENVIRON` / `PROCINFO` expose the environment, which holds secrets'],
  [/\bSYMTAB\b/, 'gawk `SYMTAB` reaches every global variable, `ENVIRON` and `ARGV` included'],
  [/\b(ARGV|ARGC)\b/, 'awk `ARGV` / `ARGC` can make awk read files not named on the command line'],
  [/\b(close|fflush)\b/, 'awk `close()` / `fflush()` act on commands and files opened by the program'],
];

export function awkProgramProblem(program: string): string | null {
  for (const [pattern, why] of BANNED) if (pattern.test(program)) return why;
  if (program.includes('@')) return 'gawk `@` directives and indirect calls can load code or call any function';
  return new AwkLexer(program).problem();
}

/**
 * What the last token makes of a `/`: `operator` (a regular expression follows), `operand` (a
 * division follows) or `either`, where awks disagree: mawk reads `length /re/` and `x++ /re/` as a
 * regular expression and the others a division; after `if (…)` gawk reads a regular expression and
 * mawk a division.
 */
type Prev = 'operand' | 'operator' | 'either';

/** Keywords after which every awk reads `/` as the start of a regular expression. */
const BEFORE_REGEX = new Set(['print', 'printf', 'return', 'exit', 'else', 'do', 'case', 'in']);
const CONDITION_KEYWORDS = new Set(['if', 'while', 'for', 'switch']);
/** Blanks to some awk: gawk skips a carriage return, mawk also a form feed and a vertical tab. */
const BLANK = /[ \t\r\f\v]/;

class AwkLexer {
  private i = 0;
  private prev: Prev = 'operator';
  private inPrint = false;
  private printDepth = 0;
  /** The last word, while only blanks, comments and newlines followed it (`if` before its `(`). */
  private lastWord: string | null = null;
  /** For each open `(`: whether it opens the condition of `if`/`while`/`for`/`switch`. */
  private readonly parens: boolean[] = [];
  /** A `\` was read: awk joins the next line to this one (mawk even across blanks after the `\`). */
  private continued = false;

  constructor(private readonly s: string) {}

  problem(): string | null {
    while (this.i < this.s.length) {
      const p = this.token(this.s[this.i] as string);
      if (p !== null) return p;
    }
    return null;
  }

  private token(c: string): string | null {
    if (BLANK.test(c) || c === '\\' || (c === '\n' && this.continued)) {
      this.i += 1;
      this.continued = c === '\\' || (this.continued && c !== '\n');
      return null;
    }
    if (c === '#') {
      while (this.i < this.s.length && this.s[this.i] !== '\n') this.i += 1;
      return null;
    }
    if (/[A-Za-z_]/.test(c)) {
      this.continued = false;
      this.word();
      return null;
    }
    this.continued = false;
    const word = this.lastWord;
    if (c !== '\n') this.lastWord = null;
    if (c === '"') return this.string();
    if (c === '/') return this.slash();
    if (/[0-9.]/.test(c)) {
      this.i += 1;
      this.prev = 'operand';
      return null;
    }
    return this.punctuation(c, word);
  }

  private word(): void {
    const s = this.s;
    const start = this.i;
    while (this.i < s.length && /\w/.test(s[this.i] as string)) this.i += 1;
    const word = s.slice(start, this.i);
    this.lastWord = word;
    if (word === 'print' || word === 'printf') {
      this.inPrint = true;
      this.printDepth = 0;
    }
    this.prev = BEFORE_REGEX.has(word) ? 'operator' : word === 'length' ? 'either' : 'operand';
  }

  private string(): string | null {
    const end = this.skipString();
    if (end === null) return 'awk program has an unterminated string';
    this.i = end;
    this.prev = 'operand';
    return null;
  }

  private slash(): string | null {
    if (this.prev === 'either' && this.s.includes('/', this.i + 1))
      return 'awk `/` after `length`, `++`, `--` or an `if`/`while`/`for` condition is a division to some awks and a regular expression to others; put the operand in parentheses';
    if (this.prev !== 'operator') return this.punctuation('/', null);
    const p = this.skipRegex();
    if (p !== null) return p;
    this.prev = 'operand';
    return null;
  }

  private punctuation(c: string, word: string | null): string | null {
    this.i += 1;
    if (c === '|') {
      if (this.s[this.i] !== '|') return 'awk `|` pipes to or from a command';
      this.i += 1;
      this.prev = 'operator';
      return null;
    }
    if ((c === '+' || c === '-') && this.s[this.i] === c) {
      // A postfix increment ends an operand: `x++ / 2` is a division, except to mawk.
      this.i += 1;
      this.prev = 'either';
      return null;
    }
    if (this.inPrint) {
      if (c === '(') this.printDepth += 1;
      if (c === ')') this.printDepth -= 1;
      if (c === '>' && this.printDepth <= 0) return 'awk `print > "file"` writes a file';
      if (this.endsPrint(c, word)) this.inPrint = false;
    }
    if (c === '(') this.parens.push(word !== null && CONDITION_KEYWORDS.has(word));
    if (c === ')') this.prev = this.parens.pop() === true ? 'either' : 'operand';
    else this.prev = c === ']' ? 'operand' : 'operator';
    return null;
  }

  /** awk goes on reading the statement on the next line after `,`, `&&`, `||` (busybox after any operator). */
  private endsPrint(c: string, word: string | null): boolean {
    if (c === '\n') return this.prev !== 'operator' || word === 'print' || word === 'printf';
    return c === ';' || c === '}' || c === '{';
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

  /**
   * Regex literals that could end somewhere else for awk than for this lexer are rejected. gawk and
   * mawk read a `/` inside a bracket expression as part of it, other awks as the end: a `/` the
   * lexer places inside brackets is refused, and its brackets end no earlier than any awk's do
   * (a `]` right after `[` or `[^` is literal; `[:`, `[.`, `[=` open a class inside them).
   */
  private skipRegex(): string | null {
    const s = this.s;
    let j = this.i + 1;
    let depth = 0;
    while (j < s.length) {
      const c = s[j] as string;
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '/') {
        if (depth > 0) return 'awk regular expression has `/` inside `[…]`; escape it as `\\/`';
        this.i = j + 1;
        return null;
      }
      if (c === '"' || c === ';' || c === '>' || c === '\n') {
        return `awk regular expression contains \`${c === '\n' ? '\\n' : c}\`, which makes the program ambiguous to check`;
      }
      j += 1;
      if (c === '[' && depth === 0) {
        depth = 1;
        if (s[j] === '^') j += 1;
        if (s[j] === ']') j += 1;
      } else if (c === '[' && /[:.=]/.test(s[j] ?? '')) depth += 1;
      else if (c === ']' && depth > 0) depth -= 1;
    }
    return 'awk program has an unterminated regular expression';
  }
}
