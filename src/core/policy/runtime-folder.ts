/**
 * The runtime's own folder, `.vtcode/` (session logs, plans, the task checklist), as the
 * workspace path rule sees it (paths.ts; MODE-1: every mode). Session logs and plans carry the
 * runtime's authority: a command that wrote there could forge an approval or a transcript, so in
 * build and auto no command may name the folder or anything below it. Plan mode writes nothing
 * and may read the plans (`.vtcode/plans/…`), nothing else there.
 */
import type { AgentMode } from '../vocabulary';

export const RUNTIME_FOLDER = '.vtcode';
const READABLE_IN_PLAN = `${RUNTIME_FOLDER}/plans`;

/**
 * Why the workspace-relative POSIX path `relative` (normalised, no `..`) may not be named in
 * `mode`, or null. `glob`: the path's words may be glob patterns, which count when they could match.
 */
export function runtimeFolderProblem(relative: string, glob: boolean, mode: AgentMode): string | null {
  const slash = relative.indexOf('/');
  if (slash < 0) return runtimeFolderProblemOf(relative, undefined, glob, mode);
  const end = relative.indexOf('/', slash + 1);
  return runtimeFolderProblemOf(
    relative.slice(0, slash),
    relative.slice(slash + 1, end < 0 ? undefined : end),
    glob,
    mode,
  );
}

/** The same, given only the first two components of the path (all the rule looks at). */
export function runtimeFolderProblemOf(
  first: string,
  second: string | undefined,
  glob: boolean,
  mode: AgentMode,
): string | null {
  // Case-insensitive file systems (macOS, Windows) open `.VTCODE` as `.vtcode`.
  if (!nameMayBe(first, glob, RUNTIME_FOLDER)) return null;
  if (mode === 'plan' && second?.toLowerCase() === 'plans') return null;
  const allowed = mode === 'plan' ? ` (plan mode may read \`${READABLE_IN_PLAN}/\`)` : '';
  return `names the runtime's own folder \`${RUNTIME_FOLDER}/\` (session logs and plans; writing there would forge the session's record), which commands may not touch${allowed}`;
}

/** Whether the path component `part` (a glob pattern when `glob`) may name `name` on a case-insensitive file system. */
export function nameMayBe(part: string, glob: boolean, name: string): boolean {
  if (!glob || !/[*?[]/.test(part)) return part.toLowerCase() === name;
  // sh matches a leading `.` only literally (a bracket may or may not: counted as matching).
  if (name.startsWith('.') && (part.startsWith('*') || part.startsWith('?'))) return false;
  return globRegExp(part).test(name);
}

/** A glob component as a case-insensitive regular expression; unknown bracket syntax matches anything. */
function globRegExp(part: string): RegExp {
  let source = '';
  for (let i = 0; i < part.length; i += 1) {
    const c = part[i] as string;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const close = bracketEnd(part, i);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      // Any bracket expression may match any one character: stricter than sh, never looser.
      source += '.';
      i = close;
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i');
}

/**
 * Where the bracket expression opening at `open` closes, or -1 when it does not (sh then reads the
 * `[` literally). As in sh: a leading `!` or `^` negates, a `]` right after that is a member, and
 * `[:class:]`, `[=c=]` and `[.c.]` hold their own `]`; so `.[[:alpha:]]tcode` is one bracket.
 */
function bracketEnd(part: string, open: number): number {
  let j = open + 1;
  if (part[j] === '!' || part[j] === '^') j += 1;
  if (part[j] === ']') j += 1;
  while (j < part.length) {
    const c = part[j];
    if (c === ']') return j;
    const kind = part[j + 1];
    const inner = c === '[' && (kind === ':' || kind === '=' || kind === '.') ? part.indexOf(`${kind}]`, j + 2) : -1;
    j = inner < 0 ? j + 1 : inner + 2;
  }
  return -1;
}
