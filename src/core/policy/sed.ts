/**
 * A conservative parser for (GNU) sed scripts, used by the read-only policy (RO-2, RO-3).
 * It accepts the commands that only read and print, and names the first one that writes a file
 * (`w`, `W`, `s///w`) or runs a command (`e`, `s///e`). Anything it cannot parse is rejected:
 * text it skipped without understanding could hide one of those commands.
 */

const SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const COUNTED = new Set(['l', 'L', 'q', 'Q']);

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

  /** Skips to the unescaped `delim`, as GNU sed's match_slash does (brackets are not special). */
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
      } else if (c === '\n' && what === 'address') {
        this.fail('line break inside an address');
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
    } else if (cmd === ':') {
      this.blanks();
      const start = this.i;
      while (this.c !== undefined && this.c !== '\n' && this.c !== ';') this.i += 1;
      if (this.i === start) this.fail('`:` needs a label');
    } else if (cmd === 'b' || cmd === 't' || cmd === 'T' || cmd === 'v') {
      while (this.c !== undefined && this.c !== '\n' && this.c !== ';' && this.c !== '}') this.i += 1;
    } else if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      this.text();
    } else if (cmd === 'r' || cmd === 'R') {
      this.skipLine();
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
