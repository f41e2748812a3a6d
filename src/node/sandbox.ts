/**
 * The OS sandbox every agent command runs in (RO-1 … RO-4, MODE-1): bubblewrap on Linux.
 *
 * The command policy in core explains refusals; this is what enforces. A program's own language
 * (a sed script, an awk program, an npm lifecycle script) can do anything the process may do, so
 * the process may do little:
 *   - the workspace is mounted at its path, read-only in plan mode; in build/auto writable except
 *     `.vtcode/` (session logs and plans carry the runtime's authority);
 *   - system folders are read-only; nothing else of the user's files exists (no HOME, no parent
 *     folders, so no other repository and no symlink target outside the workspace);
 *   - `/tmp` is a private tmpfs that holds HOME and every cache, discarded when the command ends;
 *   - fresh PID, IPC, UTS and network namespaces (the network is shared only when asked for), and
 *     `/proc` shows the sandbox's own processes only;
 *   - the environment is the allow-list of core/policy/command-env.ts.
 */
import { execFile } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, isAbsolute, dirname, sep } from 'node:path';
import type { Isolation } from '../core/ports';
import type { AgentMode } from '../core/vocabulary';

/** Where the sandbox's throwaway folder is, as the command sees it. */
export const SANDBOX_SCRATCH = '/tmp';

/** Top-level system folders: bound read-only, or re-created as the same symlink (merged /usr). */
const SYSTEM_ROOTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * Parts of /etc that programs need (user names, the dynamic linker cache, Debian's alternatives
 * such as `awk`, locale, TLS roots and name resolution for build/auto with network). Nothing
 * else of /etc: it holds host secrets on some machines.
 */
const ETC_FILES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/localtime',
  '/etc/locale.alias',
  '/etc/mime.types',
  '/etc/magic',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/hosts',
  '/etc/resolv.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/services',
  '/etc/protocols',
];

/** Global npm configs of a node in /usr or /usr/local: they can hold registry tokens. */
const SYSTEM_SECRETS = ['/usr/etc/npmrc', '/usr/local/etc/npmrc'];

/**
 * Toolchain managers that install below HOME: a PATH entry below one of these makes the whole
 * folder visible (read-only), since their shims resolve into it; the variable tells the tool
 * where it lives now that HOME is elsewhere. Other PATH entries below HOME are bound alone.
 */
const HOME_TOOLCHAINS: Readonly<Record<string, { variable?: string; also?: { folder: string; variable: string } }>> = {
  '.cargo': { variable: 'CARGO_HOME', also: { folder: '.rustup', variable: 'RUSTUP_HOME' } },
  '.pyenv': { variable: 'PYENV_ROOT' },
  '.nvm': { variable: 'NVM_DIR' },
  '.volta': { variable: 'VOLTA_HOME' },
  '.bun': {},
  '.deno': {},
  go: {},
};

/**
 * Files inside bound toolchain folders that can hold credentials (registry tokens): hidden behind
 * /dev/null. Relative to a bound folder; `*` is one folder level (a node version).
 */
const TOOLCHAIN_SECRETS = [
  'credentials',
  'credentials.toml',
  'config',
  'config.toml', // ~/.cargo
  'etc/npmrc', // a node prefix's global npm config (nvm, volta, /opt/node)
  'versions/node/*/etc/npmrc', // ~/.nvm
  'tools/image/node/*/etc/npmrc', // ~/.volta
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.git-credentials',
];

function secretFilesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pattern of TOOLCHAIN_SECRETS) {
    const [head, tail] = pattern.split('/*/') as [string, string | undefined];
    if (tail === undefined) {
      if (kindOf(join(dir, head)) === 'file') found.push(join(dir, head));
      continue;
    }
    let versions: string[] = [];
    try {
      versions = readdirSync(join(dir, head));
    } catch {
      continue;
    }
    for (const v of versions) if (kindOf(join(dir, head, v, tail)) === 'file') found.push(join(dir, head, v, tail));
  }
  return found;
}

export interface SandboxSpec {
  /** Workspace root as the runtime names it (mounted at this path). */
  root: string;
  cwd: string;
  mode: AgentMode;
  network: boolean;
  /** The host's PATH and HOME: toolchains on PATH stay reachable. */
  path: string;
  home: string | undefined;
}

export interface SandboxLayout {
  args: string[];
  /** Toolchain variables to set when the host did not (e.g. CARGO_HOME once ~/.cargo is bound). */
  toolchain: Record<string, string>;
}

const isInside = (parent: string, child: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

function kindOf(path: string): 'dir' | 'file' | 'symlink' | null {
  try {
    const st = lstatSync(path);
    return st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Read-only binds for the toolchains on PATH, never HOME itself, `/` or a folder holding the workspace. */
function toolchainBinds(
  spec: SandboxSpec,
  rootReal: string,
): { binds: string[]; masks: string[]; toolchain: Record<string, string> } {
  const masks: string[] = [];
  const binds = new Set<string>();
  const toolchain: Record<string, string> = {};
  const home = spec.home && isAbsolute(spec.home) ? realOrNull(spec.home) : null;
  for (const entry of spec.path.split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const real = realOrNull(entry);
    if (real === null || SYSTEM_ROOTS.some((sys) => isInside(sys, real)) || isInside(rootReal, real)) continue;
    let bind = real;
    if (home !== null && isInside(home, real) && real !== home) {
      const top = relative(home, real).split(sep)[0] ?? '';
      const known = HOME_TOOLCHAINS[top];
      if (known !== undefined) {
        bind = join(home, top);
        if (known.variable) toolchain[known.variable] = bind;
        const also = known.also && join(home, known.also.folder);
        if (known.also && also && kindOf(also) === 'dir') {
          binds.add(also);
          toolchain[known.also.variable] = also;
        }
      }
    } else if (home === null || !isInside(real, home)) {
      // /opt/node/bin -> /opt/node: the prefix holds the lib/ the binaries load.
      const parent = dirname(real);
      if (parent !== '/' && !isInside(parent, rootReal) && (home === null || !isInside(parent, home))) bind = parent;
    }
    if (bind === '/' || isInside(bind, rootReal) || (home !== null && bind === home)) continue;
    binds.add(bind);
  }
  for (const dir of binds) masks.push(...secretFilesIn(dir));
  return { binds: [...binds].sort(), masks, toolchain };
}

/**
 * The bwrap arguments for one command (everything before `--`). The workspace's `.vtcode` must
 * already exist as a real folder in build/auto (see `prepareWorkspace`).
 */
export function sandboxLayout(spec: SandboxSpec): SandboxLayout {
  const rootReal = realpathSync(spec.root);
  const args = ['--unshare-all', '--die-with-parent', '--new-session'];
  if (spec.network) args.push('--share-net');
  for (const dir of SYSTEM_ROOTS) {
    const kind = kindOf(dir);
    if (kind === 'symlink') args.push('--symlink', readlinkSync(dir), dir);
    else if (kind === 'dir') args.push('--ro-bind', dir, dir);
  }
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  for (const file of SYSTEM_SECRETS) if (kindOf(file) === 'file') args.push('--ro-bind', '/dev/null', file);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', SANDBOX_SCRATCH, '--dir', `${SANDBOX_SCRATCH}/home`);
  const tools = toolchainBinds(spec, rootReal);
  for (const dir of tools.binds) args.push('--ro-bind', dir, dir);
  for (const file of tools.masks) args.push('--ro-bind', '/dev/null', file);
  // The workspace last, so it is what a path under /tmp or a toolchain folder resolves to.
  if (spec.mode === 'plan') {
    args.push('--ro-bind', rootReal, spec.root);
  } else {
    args.push('--bind', rootReal, spec.root, '--ro-bind', join(rootReal, '.vtcode'), join(spec.root, '.vtcode'));
  }
  args.push('--chdir', spec.cwd);
  return { args, toolchain: tools.toolchain };
}

/**
 * Makes sure `.vtcode` is a real folder before a build/auto command mounts it read-only: a
 * missing one could be created by the command and then be trusted by the runtime.
 */
export function prepareWorkspace(root: string): void {
  const vtcode = join(root, '.vtcode');
  const kind = kindOf(vtcode);
  if (kind === null) mkdirSync(vtcode, { mode: 0o700 });
  else if (kind !== 'dir')
    throw new Error(
      `refusing to run the command: ${vtcode} is a ${kind === 'symlink' ? 'symbolic link' : 'file'}, not the runtime's folder`,
    );
}

/** The first executable `name` on `path`. */
export function findProgram(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`; Arch: `sudo pacman -S bubblewrap`)';

/**
 * Whether bwrap at `program` can build the sandbox here: it runs `true` in a plan-mode layout
 * over a fresh folder. Fails where user namespaces are off or restricted (some kernels, AppArmor
 * profiles, nested containers) as well as where bwrap is missing.
 */
export async function probeSandbox(
  program: string | null,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Isolation> {
  if (process.platform !== 'linux') {
    return {
      sandboxed: false,
      summary: `sandbox: unavailable on ${process.platform} — policy only`,
      remedy:
        'Commands are checked by the read-only policy alone; only Linux with bubblewrap has an OS sandbox so far.',
    };
  }
  if (program === null) {
    return {
      sandboxed: false,
      summary: 'sandbox: unavailable (bwrap not found) — policy only',
      remedy: `To run agent commands in an OS sandbox, ${INSTALL_HINT}.`,
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'vtplan-probe-'));
  try {
    const layout = sandboxLayout({
      root: dir,
      cwd: dir,
      mode: 'plan',
      network: false,
      path: env.PATH ?? '',
      home: env.HOME,
    });
    const run = (args: string[]) =>
      new Promise<{ ok: boolean; out: string; why: string }>((resolve) => {
        execFile(
          program,
          args,
          { encoding: 'utf8', timeout: 10_000, env: { PATH: '/usr/bin:/bin' } },
          (err, stdout, stderr) => {
            resolve({
              ok: err === null,
              out: stdout.trim(),
              why: err === null ? '' : stderr.trim().split('\n')[0] || err.message,
            });
          },
        );
      });
    const probe = await run([...layout.args, '--', '/bin/sh', '-c', 'exit 0']);
    if (probe.ok) {
      const version = (await run(['--version'])).out || 'bubblewrap';
      return { sandboxed: true, summary: `sandbox: ${version} (${program})` };
    }
    return {
      sandboxed: false,
      summary: `sandbox: unavailable (bwrap failed: ${probe.why}) — policy only`,
      remedy:
        'bwrap is installed but cannot create namespaces here: enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 the AppArmor profile for bwrap), or run outside a container that forbids them.',
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
