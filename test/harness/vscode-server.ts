/**
 * Real VS Code for tests and `npm start`, offline: the VS Code server bundled in the npm package
 * code-server, rendered by Debian Chromium through playwright-core. `scripts/harness/setup.sh`
 * installs the pieces into `.cache/`: the newest VS Code we test (1.139, on Node 24) and the oldest
 * we support (`engines.vscode`, in `.cache/cs-min`, on the Node it was built for).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareMultiRootWorkspace, type WindowKind, type WindowTarget } from './windows';

export const repoRoot = resolve(__dirname, '..', '..');
const cacheDir = process.env.VTPLAN_CACHE ?? join(repoRoot, '.cache');
/** VTPLAN_VSCODE_SERVER and VTPLAN_VSCODE_NODE select another install (scripts/test.mjs: the oldest supported). */
const serverNode = process.env.VTPLAN_VSCODE_NODE ?? join(cacheDir, 'node24', 'bin', 'node');
const serverMain =
  process.env.VTPLAN_VSCODE_SERVER ??
  join(cacheDir, 'cs', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
const sampleWorkspace = join(repoRoot, 'examples', 'sample-workspace');

function assertInstalled(): void {
  for (const [what, path] of [
    ['Node for the VS Code server', serverNode],
    ['VS Code server', serverMain],
    ['Chromium', '/usr/bin/chromium'],
  ] as const) {
    if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run scripts/harness/setup.sh first.`);
  }
}

/** A short private folder: VS Code puts unix sockets under TMPDIR, and socket paths are limited to ~107 bytes. */
export function makeRunDir(label: string): string {
  return mkdtempSync(join(tmpdir().length < 40 ? tmpdir() : '/tmp', `vtp-${label}-`));
}

/** Environment that keeps VS Code and Chromium from writing into the real HOME. */
function isolatedEnv(runDir: string): NodeJS.ProcessEnv {
  const home = join(runDir, 'home');
  const tmp = join(runDir, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  return {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** Settings that keep the built-in chat and update checks out of the way in tests. */
const quietSettings = {
  'workbench.startupEditor': 'none',
  'workbench.colorTheme': process.env.VTPLAN_THEME ?? 'Default Dark Modern',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
};

function workspaceSettings(): Record<string, unknown> {
  const {
    'extensions.autoCheckUpdates': _c,
    'extensions.autoUpdate': _u,
    'update.mode': _m,
    'telemetry.telemetryLevel': _t,
    ...rest
  } = quietSettings;
  return rest;
}

/** Copies a workspace into the run folder so tests never dirty the repository. */
export function prepareWorkspace(runDir: string, source = sampleWorkspace): string {
  const target = join(runDir, 'ws');
  cpSync(source, target, { recursive: true });
  mkdirSync(join(target, '.vscode'), { recursive: true });
  if (!existsSync(join(target, '.vscode', 'settings.json'))) {
    // Only settings a workspace may hold; the user/machine-wide ones go to the server's Machine settings.
    writeFileSync(join(target, '.vscode', 'settings.json'), JSON.stringify(workspaceSettings(), null, 2));
  }
  return target;
}

/** Prepares what a window of `kind` opens (see windows.ts), inside the run folder. */
export function prepareWindow(runDir: string, kind: WindowKind): WindowTarget {
  switch (kind) {
    case 'folder':
    case 'untrusted':
      return { folder: prepareWorkspace(runDir) };
    case 'multi-root':
      return { workspace: prepareMultiRootWorkspace(runDir, sampleWorkspace, workspaceSettings()) };
    case 'no-folder':
      return { empty: true };
  }
}

export interface RunningServer {
  base: string;
  port: number;
  runDir: string;
  env: NodeJS.ProcessEnv;
  /** Workbench URL opening a folder (a path), a `.code-workspace` file or no folder, with extensions loaded from their folders (no install). */
  url(target: string | WindowTarget, payload?: [string, string][]): string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  runDir: string;
  port?: number;
  log?: (line: string) => void;
  /** `false`: workspace trust is on, so a folder can open in Restricted Mode (default: trust is off). */
  trustDisabled?: boolean;
  /** Extra user (machine) settings, e.g. ones an untrusted workspace may not set. */
  userSettings?: Record<string, unknown>;
  /**
   * `true` (default): `--enable-smoke-test-driver`, so the workbench honours the URL payload
   * (extension development and test paths), which the tests use. It also hides every notification
   * toast. `false`: the workbench as users see it, toasts included; extensions then come from
   * `installedExtensions`, since the payload is ignored.
   */
  smokeTestDriver?: boolean;
  /** Extension folders (with a built `package.json` main) loaded as installed extensions. */
  installedExtensions?: readonly string[];
  /**
   * Environment for the server, which its extension hosts inherit: how tests reach the extension
   * host on every supported VS Code (the payload's `extensionEnvironment` is ignored before 1.10x).
   */
  env?: Readonly<Record<string, string>>;
}

/**
 * Lists extension folders in the extensions dir's `extensions.json` where they are, without
 * copying: the folder loads as an installed extension, and a rebuild shows after a window reload.
 * Entries for other extensions (the user's, under `npm start`) are kept.
 */
function installExtensionFolders(extensionsDir: string, folders: readonly string[]): void {
  const manifest = join(extensionsDir, 'extensions.json');
  const read: unknown = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : [];
  const entries = (Array.isArray(read) ? read : []) as { identifier?: { id?: string } }[];
  const ours = folders.map((folder) => {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    return {
      identifier: { id: `${pkg.publisher}.${pkg.name}`.toLowerCase() },
      version: pkg.version,
      location: { $mid: 1, scheme: 'file', path: resolve(folder) },
      metadata: { installedTimestamp: Date.now(), source: 'vsix' },
    };
  });
  const ids = new Set(ours.map((e) => e.identifier.id));
  const kept = entries.filter((e) => !ids.has(e.identifier?.id?.toLowerCase() ?? ''));
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(manifest, JSON.stringify([...kept, ...ours], null, 2));
}

/**
 * Starts the VS Code server in its own process group and waits until it answers HTTP. See
 * `ServerOptions.smokeTestDriver` for what `--enable-smoke-test-driver` changes.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  assertInstalled();
  const { runDir } = options;
  const port = options.port ?? (await freePort());
  const env = { ...isolatedEnv(runDir), ...options.env };
  const dirs = { ud: join(runDir, 'ud'), sd: join(runDir, 'sd'), ext: join(runDir, 'ext') };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.sd, 'data', 'Machine'), { recursive: true });
  const trustDisabled = options.trustDisabled ?? true;
  const trust = trustDisabled
    ? {}
    : { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' };
  const machine = { ...quietSettings, ...trust, ...options.userSettings };
  // The server reads remote "Machine" settings below --user-data-dir (older layouts: below the server data dir).
  for (const dir of [join(dirs.ud, 'Machine'), join(dirs.sd, 'data', 'Machine')]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(machine, null, 2));
  }
  if (options.installedExtensions?.length) installExtensionFolders(dirs.ext, options.installedExtensions);
  const smokeTestDriver = options.smokeTestDriver ?? true;
  const child: ChildProcess = spawn(
    serverNode,
    [
      serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      ...(smokeTestDriver ? ['--enable-smoke-test-driver'] : []),
      '--disable-telemetry',
      '--disable-update-check',
      ...(trustDisabled ? ['--disable-workspace-trust'] : []),
      '--accept-server-license-terms',
      '--user-data-dir',
      dirs.ud,
      '--server-data-dir',
      dirs.sd,
      '--extensions-dir',
      dirs.ext,
    ],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output.push(text);
    if (output.length > 200) output.shift();
    options.log?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child, 'SIGTERM');
    const done = await Promise.race([exited.then(() => true), delay(3000).then(() => false)]);
    if (!done) killGroup(child, 'SIGKILL');
    else killGroup(child, 'SIGKILL'); // the file watcher and other children may outlive the main process
  };
  killOnExit(() => killGroup(child, 'SIGKILL'));

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`VS Code server exited early (${child.exitCode}):\n${output.join('')}`);
    try {
      const res = await fetch(`${base}/version`);
      if (res.status < 500) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`VS Code server did not answer on ${base} within 60 s:\n${output.join('')}`);
    }
    await delay(300);
  }

  return {
    base,
    port,
    runDir,
    env,
    url(target, payload = []) {
      const window = typeof target === 'string' ? { folder: target } : target;
      // `ew`: VS Code's web workbench opens an empty window instead of the last one.
      const query = new URLSearchParams(
        'folder' in window
          ? { folder: window.folder }
          : 'workspace' in window
            ? { workspace: window.workspace }
            : { ew: 'true' },
      );
      if (payload.length > 0) query.set('payload', JSON.stringify(payload));
      return `${base}/?${query.toString()}`;
    },
    stop,
  };
}

/** A `vscode-remote://` URI for a path on this machine, as the payload expects. */
export function remoteUri(server: RunningServer, path: string): string {
  return `vscode-remote://127.0.0.1:${server.port}${path}`;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

const exitKills = new Set<() => void>();
let hooked = false;
/** Servers are killed also when the test process is interrupted or crashes (only sync work runs at exit). */
function killOnExit(kill: () => void): void {
  exitKills.add(kill);
  if (hooked) return;
  hooked = true;
  const killAll = () => {
    for (const k of exitKills) k();
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms));
}

export function removeRunDir(runDir: string): void {
  rmSync(runDir, { recursive: true, force: true });
}
