/**
 * A getopt-like reading of one command's words, enough to find write options (RO-3) the way
 * the program itself would: short clusters (`-nri`), attached and detached values (`-o out`,
 * `-oout`, `--output=out`, `--output out`), and GNU long-option abbreviations (`--out` is
 * `--output` to getopt_long and to git's parse-options).
 */

export interface Word {
  text: string;
  /** An unquoted `*`/`?` glob: the shell may expand it to any number of words. */
  glob: boolean;
}

export type Arg =
  | { kind: 'short'; flag: string; value: string | undefined; word: string }
  | { kind: 'long'; name: string; value: string | undefined; word: string }
  | { kind: 'operand'; text: string; glob: boolean };

export interface OptionSpec {
  /** Short flags that take a value (the rest of the cluster, or the next word). */
  valueShort?: string;
  /** Long options that take a value when no `=` is given. */
  valueLong?: readonly string[];
}

/** Splits words into options and operands. */
export function readArgs(words: readonly Word[], spec: OptionSpec = {}): Arg[] {
  const args: Arg[] = [];
  const valueShort = new Set(spec.valueShort);
  const valueLong = new Set(spec.valueLong);
  let optionsEnded = false;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] as Word;
    const t = w.text;
    if (optionsEnded || t === '-' || !t.startsWith('-')) {
      args.push({ kind: 'operand', text: t, glob: w.glob });
      continue;
    }
    // Every program the policy reads this way ends its options at `--`.
    if (t === '--') {
      optionsEnded = true;
      continue;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      let value = eq < 0 ? undefined : t.slice(eq + 1);
      const next = words[i + 1]?.text;
      if (value === undefined && valueLong.has(name) && next !== undefined && !next.startsWith('-')) {
        i += 1;
        value = next;
      }
      args.push({ kind: 'long', name, value, word: t });
      continue;
    }
    for (let k = 1; k < t.length; k += 1) {
      const flag = t[k] as string;
      if (valueShort.has(flag)) {
        let value: string | undefined = t.slice(k + 1);
        if (value === '') {
          // A detached value that looks like an option is left to be read as one: over-reading
          // options can only make a deny check stricter, never hide a denied option.
          const next = words[i + 1]?.text;
          value = next !== undefined && !next.startsWith('-') ? next : undefined;
          if (value !== undefined) i += 1;
        }
        args.push({ kind: 'short', flag, value, word: t });
        break;
      }
      args.push({ kind: 'short', flag, value: undefined, word: t });
    }
  }
  return args;
}

/** True when `given` names `option` itself or an abbreviation of it. */
export function namesLong(given: string, option: string): boolean {
  return given.length > 0 && option.startsWith(given);
}

export interface DenySpec {
  short?: string;
  long?: readonly string[];
  /**
   * Long options of the program that are a prefix of a denied one but, given in full, mean
   * themselves (git's `--text` beside `--textconv`): an exact name wins over an abbreviation.
   */
  ownOptions?: readonly string[];
}

/** Options that make a program write a file or run another program, and why (RO-3). */
export interface OptionRule extends DenySpec {
  why: string;
}

/**
 * The first word that is (or contains) a denied option, as the user wrote it. Every word that
 * starts with `-` is inspected, values and operands included, and every letter of a short
 * cluster counts: no model of which flag takes a value can then hide `-o` inside `-Lo`.
 */
export function findDenied(words: readonly Word[], deny: DenySpec): string | null {
  for (const { text } of words) {
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = text.slice(2, eq < 0 ? undefined : eq);
      if (deny.ownOptions?.includes(name)) continue;
      if (deny.long?.some((option) => namesLong(name, option))) return text;
    } else if (text.startsWith('-') && deny.short !== undefined) {
      for (const flag of text.slice(1)) {
        if (deny.short.includes(flag)) return text === `-${flag}` ? text : `-${flag} (in ${text})`;
      }
    }
  }
  return null;
}

/** The first word holding an option some rule denies, as written, with that rule's reason. */
export function firstDenied(
  words: readonly Word[],
  rules: readonly OptionRule[],
): { shown: string; why: string } | null {
  for (const word of words) {
    for (const rule of rules) {
      const shown = findDenied([word], rule);
      if (shown !== null) return { shown, why: rule.why };
    }
  }
  return null;
}

export function operands(args: readonly Arg[]): Extract<Arg, { kind: 'operand' }>[] {
  return args.filter((a): a is Extract<Arg, { kind: 'operand' }> => a.kind === 'operand');
}
