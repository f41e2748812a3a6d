/**
 * Glob and `.gitignore` matching for the pure-JS search fallback, with ripgrep's `-g` semantics
 * so the fallback and the ripgrep path agree: a glob without a slash matches a name at any depth
 * (`*.ts`), a glob with one is anchored at the search root (`src/**\/*.ts`). picomatch compiles
 * the globs and `ignore` reads `.gitignore` files, so edge cases such as `[]]` or an escaped
 * trailing space behave as in git and ripgrep.
 */
import picomatch from 'picomatch';
import ignore from 'ignore';
import { errorMessage } from '../errors';

export interface Glob {
  readonly source: string;
  /** `path` is relative to the search root, POSIX, without a leading `./`. */
  matches(path: string): boolean;
}

/**
 * ripgrep's glob dialect: hidden files match `*`, `[!a]` negates a class, an unclosed `[` or `{`
 * is an error, and no extglobs or leading-`!` negation (the caller handles exclusion).
 */
const RG_DIALECT: picomatch.PicomatchOptions = {
  dot: true,
  posix: true,
  noextglob: true,
  nonegate: true,
  strictBrackets: true,
};

export function compileGlob(glob: string): Glob {
  // An escaped trailing space is part of the name (`a\ `), as in git and bash.
  const trimmed = glob
    .replace(/^\s+/, '')
    .replace(/(?<!\\)\s+$/, '')
    .replace(/^\.\//, '');
  if (trimmed === '') throw new Error('the glob is empty');
  const withoutTrailing = trimmed.replace(/\/+$/, '');
  const anchored = withoutTrailing.includes('/');
  let test: (path: string) => boolean;
  try {
    test = picomatch(withoutTrailing.replace(/^\//, ''), { ...RG_DIALECT, basename: !anchored });
  } catch (err) {
    throw new Error(`invalid glob "${glob}": ${errorMessage(err)}`);
  }
  return { source: glob, matches: (path) => test(path) };
}

/** The rules of one `.gitignore`, matched against paths relative to the folder that holds it. */
export interface IgnoreRules {
  /** `undefined` when no rule mentions the path; otherwise whether the last matching rule ignores it. */
  decide(relPath: string, isDir: boolean): boolean | undefined;
}

/** The rules of a `.gitignore` file as git reads them; a line that is not a valid pattern is skipped. */
export function parseGitignore(text: string): IgnoreRules {
  // Git on Linux and ripgrep compare names case-sensitively.
  const rules = ignore({ ignorecase: false }).add(text);
  return {
    decide(relPath, isDir) {
      const verdict = rules.test(isDir ? `${relPath}/` : relPath);
      if (verdict.ignored) return true;
      return verdict.unignored ? false : undefined;
    },
  };
}
