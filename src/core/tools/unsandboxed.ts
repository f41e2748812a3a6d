/**
 * Plan mode where no OS sandbox can be had (RO-1, RO-2: policy only). The command policy judges
 * the command line; two things it cannot see would still let an admitted inspection command read
 * outside the workspace or start a program, so without a sandbox they stop `run_command`:
 *   - a symbolic link in the workspace that leads outside it (`cat link`, `grep -R`);
 *   - a git repository whose own config names programs (diff drivers, filters, hooks paths, an
 *     external diff, an include of other config): `git show` or `git status` would run them.
 * The dedicated tools (read_file, grep, …) check every path they open and stay available.
 */
import type { FileSystem } from '../ports';

/** Entries looked at before giving up: a workspace larger than this cannot be cleared cheaply. */
const WALK_LIMIT = 100_000;

/** Config keys whose value git runs as a program, and sections that pull in other config. */
const GIT_PROGRAM_KEY =
  /^\s*(textconv|clean|smudge|process|external|fsmonitor|hookspath|sshcommand|askpass|editor|pager|program|command|helper|cmd|tool)\s*=/im;
const GIT_INCLUDE = /^\s*\[\s*include(if)?\b/im;
const GIT_ALIAS_SHELL = /^\s*\[\s*alias\b/im;

const isInside = (root: string, path: string): boolean =>
  path === root || path.startsWith(`${root.replace(/\/+$/, '')}/`);

/** The first symlink below `root` whose target resolves outside it (or cannot be resolved), if any. */
async function linkOutside(
  fs: FileSystem,
  root: string,
): Promise<{ link: string; target: string } | 'too_large' | null> {
  const realRoot = await fs.realpath(root);
  const queue = [root];
  let seen = 0;
  while (queue.length > 0) {
    const dir = queue.pop() as string;
    for (const entry of await fs.readDir(dir)) {
      seen += 1;
      if (seen > WALK_LIMIT) return 'too_large';
      const path = `${dir}/${entry.name}`;
      if (entry.kind === 'directory') queue.push(path);
      if (entry.kind !== 'symlink') continue;
      let target: string;
      try {
        target = await fs.realpath(path);
      } catch {
        // A dangling link may be completed later by something outside the workspace.
        return { link: path, target: '(a missing target)' };
      }
      if (!isInside(realRoot, target)) return { link: path, target };
    }
  }
  return null;
}

async function gitConfigRisk(fs: FileSystem, root: string): Promise<string | null> {
  const dotGit = await fs.lstat(`${root}/.git`);
  if (dotGit === null) return null;
  if (dotGit.kind !== 'directory')
    return '`.git` is not a folder (a worktree or submodule pointer leads to a repository elsewhere)';
  const config = (await fs.readText(`${root}/.git/config`)) ?? '';
  const program = GIT_PROGRAM_KEY.exec(config);
  if (program) return `the repository's .git/config sets \`${program[1] ?? ''}\`, a program git would run`;
  if (GIT_INCLUDE.test(config)) return "the repository's .git/config includes other config files";
  if (GIT_ALIAS_SHELL.test(config)) return "the repository's .git/config defines aliases";
  return null;
}

const NAMES_GIT = /(^|[\s;&|()`])git(\s|$)/;

/**
 * Why `command` may not run in plan mode without a sandbox, or `null`. `root` is the workspace;
 * `fs` reads it (never follows a link it lists).
 */
export async function unsandboxedPlanRefusal(fs: FileSystem, root: string, command: string): Promise<string | null> {
  const link = await linkOutside(fs, root);
  if (link === 'too_large')
    return `the workspace has more than ${WALK_LIMIT.toLocaleString('en-US')} entries, too many to check for links leading outside it`;
  if (link !== null)
    return `\`${link.link.slice(root.length + 1)}\` is a symbolic link to ${link.target}, outside the workspace, and a command could read through it`;
  if (NAMES_GIT.test(command)) {
    const risk = await gitConfigRisk(fs, root);
    if (risk !== null) return `${risk}`;
  }
  return null;
}
