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

/** A shell started with `-i` or `-l` in an option cluster (`bash -ic`, `sh -lc`, `dash -i -c`). */
const SHELL_WITH_STARTUP_FLAG = /(^|[^\w.-])(ba|da|k|mk|a)?sh(\s+[-+][A-Za-z]*)*\s+-[A-Za-z]*[il]/;

/**
 * Whether `command` may make a leading `*` or `?` match a leading `.`: bash's `dotglob` (`shopt -s`;
 * `bash -O`, even with a name built from variables; `BASHOPTS`; any `GLOBIGNORE`; macOS's /bin/sh is
 * bash), zsh's `GLOB_DOTS` (`setopt`, `-o`, `-4`, the `(D)` qualifier: any zsh line counts), tcsh's
 * `globdot`, ksh93's `FIGNORE`. Read without quotes, backslashes and `_` (zsh ignores `_` and case in
 * option names); `$'…'` can spell any of these words, so it counts too. A shell that runs a startup
 * file first can turn these on unseen: `BASH_ENV` / `ENV`, `--rcfile` / `--init-file`, and an
 * interactive or login shell (`bash -ic`, `sh -lc`, `--login`), which reads the user's profile. `..`
 * stays exempt: these shells never match it with wildcards.
 */
export function wildcardsMayMatchDots(command: string): boolean {
  const plain = command.replace(/["'\\_]/g, '');
  return (
    command.includes("$'") ||
    /dotglob|globdot|globignore|bashopts|fignore|shopt|setopt|zsh|bashenv|rcfile|init-?file|--login|--interactive/i.test(
      plain,
    ) ||
    /(^|[^\w])env=/i.test(plain) ||
    SHELL_WITH_STARTUP_FLAG.test(plain) ||
    /\s[-+]O/.test(plain)
  );
}

/**
 * Why the workspace-relative POSIX path `relative` (normalised, no `..`) may not be named in
 * `mode`, or null. `glob`: the path's words may be glob patterns, which count when they could match;
 * `leadingDots`: their leading `*` and `?` may match a leading `.` (`wildcardsMayMatchDots`).
 */
export function runtimeFolderProblem(
  relative: string,
  glob: boolean,
  mode: AgentMode,
  leadingDots: boolean,
): string | null {
  const slash = relative.indexOf('/');
  if (slash < 0) return runtimeFolderProblemOf(relative, undefined, glob, mode, leadingDots);
  const end = relative.indexOf('/', slash + 1);
  return runtimeFolderProblemOf(
    relative.slice(0, slash),
    relative.slice(slash + 1, end < 0 ? undefined : end),
    glob,
    mode,
    leadingDots,
  );
}

/** The same, given only the first two components of the path (all the rule looks at). */
export function runtimeFolderProblemOf(
  first: string,
  second: string | undefined,
  glob: boolean,
  mode: AgentMode,
  leadingDots: boolean,
): string | null {
  // Case-insensitive file systems (macOS, Windows) open `.VTCODE` as `.vtcode`.
  if (!nameMayBe(first, glob, RUNTIME_FOLDER, leadingDots)) return null;
  if (mode === 'plan' && second?.toLowerCase() === 'plans') return null;
  const allowed = mode === 'plan' ? ` (plan mode may read \`${READABLE_IN_PLAN}/\`)` : '';
  return `names the runtime's own folder \`${RUNTIME_FOLDER}/\` (session logs and plans; writing there would forge the session's record), which commands may not touch${allowed}`;
}

/**
 * Whether the path component `part` (a glob pattern when `glob`) may name `name` (lower case) on a
 * case-insensitive file system; `leadingDots`: a leading `*` or `?` may match a leading `.`.
 */
export function nameMayBe(part: string, glob: boolean, name: string, leadingDots = false): boolean {
  if (!glob || !/[*?[]/.test(part)) return part.toLowerCase() === name;
  // sh matches a leading `.` only literally (a bracket may or may not: counted as matching).
  if (!leadingDots && name.startsWith('.') && (part.startsWith('*') || part.startsWith('?'))) return false;
  return globMayMatch(part, name);
}

/**
 * Whether some reading of the glob component `part` matches `name`, ignoring case. The text has lost
 * its quotes and backslashes (`[v\]]`, `[v"]"]` arrive as `[v]]`), and shells disagree on where a
 * bracket closes (dash knows no `[.c.]` or `[=c=]`, nor `^` for `!`), so a `[` counts both as itself
 * and as a bracket that any later `]` may close; a bracket may match any one character. Stricter
 * than every sh, never looser.
 */
function globMayMatch(part: string, name: string): boolean {
  // How many characters of `name` the pattern read so far may have matched: outside a bracket, and
  // inside one still open (its character already counted).
  let outside = new Set([0]);
  let inside = new Set<number>();
  for (const c of part) {
    const nextOutside = new Set<number>();
    const nextInside = new Set(inside);
    if (c === ']') for (const k of inside) nextOutside.add(k);
    for (const k of outside) {
      if (c === '*') for (let m = k; m <= name.length; m += 1) nextOutside.add(m);
      else if (k < name.length) {
        if (c === '?' || c.toLowerCase() === name[k]) nextOutside.add(k + 1);
        if (c === '[') nextInside.add(k + 1);
      }
    }
    outside = nextOutside;
    inside = nextInside;
  }
  return outside.has(name.length);
}
