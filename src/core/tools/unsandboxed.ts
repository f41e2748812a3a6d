/**
 * Plan mode where no OS sandbox can be had (RO-1, RO-2: policy only). The command policy judges
 * the command line; two things it cannot see would still let an admitted inspection command read
 * outside the workspace or start a program, so without a sandbox they stop `run_command`:
 *   - a symbolic link in the workspace that leads outside it (`cat link`, `grep -R`);
 *   - a git repository whose own config names programs (diff drivers, filters, hooks paths, an
 *     external diff, an include of other config): `git show` or `git status` would run them.
 * The dedicated tools (read_file, grep, …) check every path they open and stay available.
 */
import type { EntryKind, FileSystem } from '../ports';

/** Entries looked at before giving up: a workspace larger than this cannot be cleared cheaply. */
const WALK_LIMIT = 100_000;

/**
 * git lets a line start with section headers (`[diff "x"] textconv = cmd` is one line, and a
 * subsection name may hold `]`), so a key or a header counts after any run of headers too.
 */
const HEADERS_BEFORE = String.raw`^\s*(?:\[(?:[^\]"\n]|"(?:[^"\\\n]|\\.)*")*\]\s*)*`;
/** Config keys whose value git runs as a program, and sections that pull in other config. */
const GIT_PROGRAM_KEY = new RegExp(
  `${HEADERS_BEFORE}(textconv|clean|smudge|process|external|fsmonitor|hookspath|sshcommand|askpass|editor|pager|program|command|helper|cmd|tool)\\s*=`,
  'im',
);
const GIT_INCLUDE = new RegExp(String.raw`${HEADERS_BEFORE}\[\s*include(if)?\b`, 'im');
const GIT_ALIAS_SHELL = new RegExp(String.raw`${HEADERS_BEFORE}\[\s*alias\b`, 'im');
const GIT_CONFIG_FILE = new Set(['config', 'config.worktree']);

const isInside = (root: string, path: string): boolean =>
  path === root || path.startsWith(`${root.replace(/\/+$/, '')}/`);

/** What one walk of the workspace found: the first link leading outside it, and every `.git` entry. */
interface WorkspaceWalk {
  outside: { link: string; target: string } | null;
  /** Every entry named `.git` (a repository's folder, or a pointer to one elsewhere), nested ones included. */
  gitEntries: { path: string; kind: EntryKind }[];
  /** Every `config`/`config.worktree` entry inside a `.git` folder (submodules' `.git/modules/*` included). */
  gitConfigFiles: { path: string; kind: EntryKind }[];
}

/** Walks the workspace without following links; stops at the first link whose target is outside it. */
async function walkWorkspace(fs: FileSystem, root: string): Promise<WorkspaceWalk | 'too_large'> {
  const realRoot = await fs.realpath(root);
  const walk: WorkspaceWalk = { outside: null, gitEntries: [], gitConfigFiles: [] };
  const queue: { dir: string; inGit: boolean }[] = [{ dir: root, inGit: false }];
  let seen = 0;
  while (queue.length > 0) {
    const { dir, inGit } = queue.pop() as { dir: string; inGit: boolean };
    for (const entry of await fs.readDir(dir)) {
      seen += 1;
      if (seen > WALK_LIMIT) return 'too_large';
      const path = `${dir}/${entry.name}`;
      if (entry.name === '.git') walk.gitEntries.push({ path, kind: entry.kind });
      if (inGit && entry.kind !== 'directory' && GIT_CONFIG_FILE.has(entry.name))
        walk.gitConfigFiles.push({ path, kind: entry.kind });
      if (entry.kind === 'directory') queue.push({ dir: path, inGit: inGit || entry.name === '.git' });
      if (entry.kind !== 'symlink') continue;
      walk.outside = await outsideTarget(fs, realRoot, path);
      if (walk.outside !== null) return walk;
    }
  }
  return walk;
}

async function outsideTarget(
  fs: FileSystem,
  realRoot: string,
  link: string,
): Promise<{ link: string; target: string } | null> {
  let target: string;
  try {
    target = await fs.realpath(link);
  } catch {
    // A dangling link may be completed later by something outside the workspace.
    return { link, target: '(a missing target)' };
  }
  return isInside(realRoot, target) ? null : { link, target };
}

function configTextRisk(shown: string, config: string): string | null {
  const program = GIT_PROGRAM_KEY.exec(config);
  if (program) return `the repository's ${shown} sets \`${program[1] ?? ''}\`, a program git would run`;
  if (GIT_INCLUDE.test(config)) return `the repository's ${shown} includes other config files`;
  if (GIT_ALIAS_SHELL.test(config)) return `the repository's ${shown} defines aliases`;
  return null;
}

/**
 * git reads a repository's configuration from `.git/config`, from `.git/config.worktree`
 * (`extensions.worktreeConfig`) and, where `.git/commondir` exists, from the folder it names; a
 * nested repository (`git -C sub`, `cd sub && git …`) has its own. Every one of them is judged.
 */
async function gitConfigRisk(fs: FileSystem, root: string, walk: WorkspaceWalk): Promise<string | null> {
  const shown = (path: string) => path.slice(root.length + 1);
  for (const entry of walk.gitEntries) {
    if (entry.kind !== 'directory')
      return `\`${shown(entry.path)}\` is not a folder (a worktree or submodule pointer leads to a repository elsewhere)`;
    if ((await fs.lstat(`${entry.path}/commondir`)) !== null)
      return `\`${shown(entry.path)}/commondir\` names another folder whose configuration git reads`;
  }
  for (const file of walk.gitConfigFiles) {
    // git follows a link here; the check does not read through links, so it refuses instead.
    if (file.kind !== 'file')
      return `\`${shown(file.path)}\` is not a plain file, and git would read the config it leads to`;
    const risk = configTextRisk(shown(file.path), (await fs.readText(file.path)) ?? '');
    if (risk !== null) return risk;
  }
  return null;
}

const NAMES_GIT = /(^|[\s;&|()`])git(\s|$)/;

/**
 * Why `command` may not run in plan mode without a sandbox, or `null`. `root` is the workspace;
 * `fs` reads it (never follows a link it lists).
 */
export async function unsandboxedPlanRefusal(fs: FileSystem, root: string, command: string): Promise<string | null> {
  const walk = await walkWorkspace(fs, root);
  if (walk === 'too_large')
    return `the workspace has more than ${WALK_LIMIT.toLocaleString('en-US')} entries, too many to check for links leading outside it`;
  const link = walk.outside;
  if (link !== null)
    return `\`${link.link.slice(root.length + 1)}\` is a symbolic link to ${link.target}, outside the workspace, and a command could read through it`;
  // The shell drops quotes and backslashes from the program's name: `"git" log`, `g'i't log`, `\git log`.
  return NAMES_GIT.test(command.replace(/["'\\]/g, '')) ? gitConfigRisk(fs, root, walk) : null;
}
