/**
 * sed in plan mode (RO-2, RO-3): its options, and a conservative parser for (GNU) sed scripts.
 * The parser accepts the commands that only read and print, and names the first one that writes
 * a file (`w`, `W`, `s///w`), runs a command (`e`, `s///e`) or reads a file the workspace path
 * rule cannot see, because a script is not a path to it (`r`, `R`). Anything it cannot parse is
 * rejected: text it skipped without understanding could hide one of those commands. So is a
 * label followed by a blank: GNU sed ends a label there and runs the rest as a command
 * (`:a w /tmp/f` writes), other seds read the blank as part of the label.
 */
import { operands, readArgs, type Word } from './args';
import { allow, reject, type SegmentVerdict } from './verdict';

const SHORT_OK = 'nErsuzel';
const LONG_OK = new Set([
  'quiet',
  'silent',
  'debug',
  'expression',
  'line-length',
  'posix',
  'regexp-extended',
  'separate',
  'sandbox',
  'unbuffered',
  'null-data',
  'help',
  'version',
]);

export function checkSed(words: readonly Word[]): SegmentVerdict {
  const args = readArgs(words.slice(1), {
    valueShort: 'el',
    valueLong: ['expression', 'line-length'],
  });
  // The shell expands an unquoted glob before sed starts, so sed would run a file's name as its
  // script: `sed -n a*` runs the file `a x<line break>w out` as `a x` and `w out`, which writes.
  const globs = new Set(words.filter((w) => w.glob).map((w) => w.text));
  const chunks: string[] = [];
  for (const a of args) {
    if (a.kind === 'operand') continue;
    const flag = a.kind === 'short' ? a.flag : a.name;
    if (flag === 'i' || flag === 'I' || (a.kind === 'long' && 'in-place'.startsWith(flag))) {
      return reject('mutation', `\`sed ${a.word}\` edits files in place`);
    }
    if (flag === 'f' || (a.kind === 'long' && 'file'.startsWith(flag))) {
      return reject(
        'unknown',
        `\`sed ${a.word}\` reads its script from a file the policy cannot check; pass the script with \`-e\``,
      );
    }
    const known = a.kind === 'short' ? SHORT_OK.includes(flag) : LONG_OK.has(flag);
    if (!known) return reject('unknown', `sed option \`${a.word}\` is not on the read-only list`);
    if (flag === 'e' || flag === 'expression') {
      if (a.value === undefined) return reject('unknown', '`sed -e` needs a script');
      if (globs.has(a.word) || globs.has(a.value)) return reject('unknown', globScript(a.value));
      chunks.push(a.value);
    }
  }
  if (chunks.length === 0) {
    const first = operands(args)[0];
    if (first === undefined) return reject('unknown', 'sed needs a script');
    if (first.glob) return reject('unknown', globScript(first.text));
    chunks.push(first.text);
  }
  // sed joins its -e chunks with line breaks and reads them as one script (`-e 'a\' -e text`).
  const problem = sedScriptProblem(chunks.join('\n'));
  if (problem !== null) return reject(problem.mutates ? 'mutation' : 'unknown', problem.message);
  return allow('inspection');
}

function globScript(script: string): string {
  return `the sed script \`${script}\` is an unquoted glob: the shell would replace it with matching file names and sed would run the first as its script; quote it`;
}

const SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const COUNTED = new Set(['l', 'L', 'q', 'Q']);
const LABEL_END = new Set([' ', '\t', '\n', ';', '}']);

class SedError extends Error {
  constructor(
    message: string,
    readonly writes: boolean,
  ) {
    super(message);
  }
}

export interface SedProblem {
  message: string;
  /** The script writes a file or runs a command (as opposed to being unparseable). */
  mutates: boolean;
}

export function sedScriptProblem(script: string): SedProblem | null {
  try {
    new SedParser(script).parse();
    return null;
  } catch (err) {
    if (err instanceof SedError) return { message: err.message, mutates: err.writes };
    throw err;
  }
}

class SedParser {
  private i = 0;
  private depth = 0;

  constructor(private readonly s: string) {}

  private get c(): string | undefined {
    return this.s[this.i];
  }

  private fail(message: string, writes = false): never {
    throw new SedError(`sed script: ${message}`, writes);
  }

  parse(): void {
    for (;;) {
      while (this.c !== undefined && /[\s;]/.test(this.c)) this.i += 1;
      if (this.c === undefined) break;
      if (this.c === '#') {
        this.skipLine();
        continue;
      }
      this.address();
      this.blanks();
      if (this.c === ',') {
        this.i += 1;
        this.blanks();
        this.address(true);
        this.blanks();
      }
      while (this.c === '!') {
        this.i += 1;
        this.blanks();
      }
      this.command();
    }
    if (this.depth !== 0) this.fail('unbalanced `{`');
  }

  private blanks(): void {
    while (this.c === ' ' || this.c === '\t') this.i += 1;
  }

  private skipLine(): void {
    while (this.c !== undefined && this.c !== '\n') this.i += 1;
  }

  private digits(): boolean {
    const start = this.i;
    while (this.c !== undefined && this.c >= '0' && this.c <= '9') this.i += 1;
    return this.i > start;
  }

  private address(second = false): void {
    const c = this.c;
    if (c === undefined) return;
    if (c >= '0' && c <= '9') {
      this.digits();
      if (this.c === '~') {
        this.i += 1;
        if (!this.digits()) this.fail('`~` needs a step number');
      }
    } else if (c === '$') {
      this.i += 1;
    } else if (second && (c === '+' || c === '~')) {
      this.i += 1;
      if (!this.digits()) this.fail(`\`${c}\` needs a number`);
    } else if (c === '/' || c === '\\') {
      if (c === '\\') this.i += 1;
      const delim = this.c;
      if (delim === undefined || delim === '\n' || delim === '\\') this.fail('bad regular expression delimiter');
      this.i += 1;
      this.delimited(delim, 'address');
      while (this.c === 'I' || this.c === 'M') this.i += 1;
    }
  }

  /**
   * Skips to the unescaped `delim`, as GNU sed's match_slash does: brackets are not special, and an
   * unescaped line break leaves an address, `s` or `y` part unterminated, a script GNU sed refuses.
   */
  private delimited(delim: string, what: string): void {
    for (;;) {
      const c = this.c;
      if (c === undefined) this.fail(`unterminated ${what}`);
      this.i += 1;
      if (c === '\\') {
        if (this.c === undefined) this.fail(`unterminated ${what}`);
        this.i += 1;
      } else if (c === delim) {
        return;
      } else if (c === '\n') {
        this.fail(`line break inside the ${what}`);
      }
    }
  }

  private endCommand(): void {
    this.blanks();
    const c = this.c;
    if (c === undefined || c === ';' || c === '\n' || c === '}' || c === '#') return;
    this.fail(`unexpected \`${c}\` after a command`);
  }

  private command(): void {
    const cmd = this.c;
    if (cmd === undefined) this.fail('an address needs a command');
    this.i += 1;
    if (cmd === '{') {
      this.depth += 1;
    } else if (cmd === '}') {
      this.depth -= 1;
      if (this.depth < 0) this.fail('unbalanced `}`');
      this.endCommand();
    } else if (SIMPLE.has(cmd)) {
      this.endCommand();
    } else if (COUNTED.has(cmd)) {
      this.blanks();
      this.digits();
      this.endCommand();
    } else if (cmd === ':' || cmd === 'b' || cmd === 't' || cmd === 'T' || cmd === 'v') {
      this.label(cmd);
    } else if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      this.text();
    } else if (cmd === 'r' || cmd === 'R') {
      this.fail(
        `the \`${cmd}\` command reads a file named inside the script, which the workspace path check cannot see; name the file as an operand instead`,
      );
    } else if (cmd === 'w' || cmd === 'W') {
      this.fail(`the \`${cmd}\` command writes a file`, true);
    } else if (cmd === 'e') {
      this.fail('the `e` command runs a shell command', true);
    } else if (cmd === 's') {
      this.substitute();
    } else if (cmd === 'y') {
      const delim = this.delimiter();
      this.delimited(delim, '`y` source');
      this.delimited(delim, '`y` target');
      this.endCommand();
    } else {
      this.fail(`unsupported command \`${cmd}\``);
    }
  }

  /**
   * The label of `:`, `b`, `t`, `T` (or the version of `v`): GNU sed skips leading blanks and
   * ends it at a blank, `;`, `}` or a line break; the only safe blank-free reading is the one
   * where all of them agree.
   */
  private label(cmd: string): void {
    this.blanks();
    const start = this.i;
    while (this.c !== undefined && !LABEL_END.has(this.c)) this.i += 1;
    if (cmd === ':' && this.i === start) this.fail('`:` needs a label');
    if (this.c === ' ' || this.c === '\t') {
      this.fail(
        `a blank after the label of \`${cmd}\`: GNU sed runs what follows it as another command, other seds read it as part of the label; end the label with \`;\``,
      );
    }
  }

  /** `a`/`i`/`c` text runs to the end of the line, continued by a trailing backslash. */
  private text(): void {
    for (;;) {
      let escaped = false;
      while (this.c !== undefined && this.c !== '\n') {
        escaped = this.c === '\\' ? !escaped : false;
        this.i += 1;
      }
      if (this.c === undefined || !escaped) return;
      this.i += 1;
    }
  }

  private delimiter(): string {
    const delim = this.c;
    if (delim === undefined || delim === '\n' || delim === '\\') this.fail('bad delimiter');
    this.i += 1;
    return delim;
  }

  private substitute(): void {
    const delim = this.delimiter();
    this.delimited(delim, '`s` pattern');
    this.delimited(delim, '`s` replacement');
    for (;;) {
      // GNU sed allows blanks between the flags: `s/a/b/ w out` writes.
      this.blanks();
      const f = this.c;
      if (f === undefined) return;
      if (f === 'w') this.fail('the `w` flag of `s` writes a file', true);
      if (f === 'e') this.fail('the `e` flag of `s` runs the result as a command', true);
      if ('gpiImM'.includes(f) || (f >= '0' && f <= '9')) {
        this.i += 1;
        continue;
      }
      break;
    }
    this.endCommand();
  }
}
