/**
 * Glob and `.gitignore` matching with ripgrep's `-g` semantics, so the pure-JS search fallback
 * and the ripgrep path agree: a glob without a slash matches a name at any depth (`*.ts`), a glob
 * with one is anchored at the search root (`src/**\/*.ts`). Supported: `*`, `?`, `**`, `[abc]`,
 * `[!abc]`, `{a,b}`.
 */

export interface Glob {
  readonly source: string;
  /** `path` is relative to the search root, POSIX, without a leading `./`. */
  matches(path: string): boolean;
}

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** Body of a RegExp for one glob (no anchors); throws with a plain message on bad syntax. */
function globBody(glob: string): string {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i] as string;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          i += 1;
          if (glob[i + 1] === '/') {
            i += 1;
            out += '(?:[^/]*/)*';
          } else {
            out += '.*';
          }
          continue;
        }
      }
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) throw new Error(`unclosed "[" in glob "${glob}"`);
      let cls = glob.slice(i + 1, close);
      if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
      out += `[${cls.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else if (ch === '{') {
      braceDepth += 1;
      out += '(?:';
    } else if (ch === '}' && braceDepth > 0) {
      braceDepth -= 1;
      out += ')';
    } else if (ch === ',' && braceDepth > 0) {
      out += '|';
    } else if (ch === '\\' && i + 1 < glob.length) {
      i += 1;
      out += escapeRegex(glob[i] as string);
    } else {
      out += escapeRegex(ch);
    }
  }
  if (braceDepth > 0) throw new Error(`unclosed "{" in glob "${glob}"`);
  return out;
}

export function compileGlob(glob: string): Glob {
  const trimmed = glob.trim().replace(/^\.\//, '');
  if (trimmed === '') throw new Error('the glob is empty');
  const withoutTrailing = trimmed.replace(/\/+$/, '');
  const anchored = withoutTrailing.includes('/');
  const body = globBody(withoutTrailing.replace(/^\//, ''));
  const regex = new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`);
  return { source: glob, matches: (path) => regex.test(path) };
}

interface IgnoreRule {
  negate: boolean;
  dirOnly: boolean;
  glob: Glob;
}

/** The rules of one `.gitignore`, matched against paths relative to the folder that holds it. */
export interface IgnoreRules {
  /** `undefined` when no rule mentions the path; otherwise whether the last matching rule ignores it. */
  decide(relPath: string, isDir: boolean): boolean | undefined;
}

/**
 * Parses the common subset of `.gitignore`: comments, blank lines, `!` negation, trailing `/`
 * for folders, leading `/` or an inner slash for anchoring, and the glob syntax above.
 * A rule that does not compile is skipped rather than failing the search.
 */
export function parseGitignore(text: string): IgnoreRules {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    if (line.startsWith('\\')) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    try {
      rules.push({ negate, dirOnly, glob: compileGlob(line) });
    } catch {
      continue;
    }
  }
  return {
    decide(relPath, isDir) {
      let verdict: boolean | undefined;
      for (const rule of rules) {
        if (rule.dirOnly && !isDir) continue;
        if (rule.glob.matches(relPath)) verdict = !rule.negate;
      }
      return verdict;
    },
  };
}
