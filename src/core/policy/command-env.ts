/**
 * The environment every agent command runs with (RO-2, MODE-1, and the quality bar: keys are never
 * printed or logged).
 *
 * It is an allow-list, not a deny-list: a child process sees the locale, the terminal type, an
 * absolute-only PATH and the toolchain locations, and nothing else of the host's environment. So a
 * provider key, a cloud token or an SSH agent socket in the editor's environment never reaches a
 * command, whatever the command prints (`env`, `printenv`, `/proc/self/environ`, `ps e`). HOME,
 * the temp folder and every tool cache point into a throwaway folder that the sandbox discards
 * (or the host removes, where no sandbox runs), so `npm test` or `cargo test` in plan mode write
 * their caches there and leave nothing behind.
 *
 * Plan mode adds git overrides that outrank repository config: no fsmonitor hook (run by
 * `git status`), no bare repository discovered inside the workspace (it brings its own config),
 * no hooks at all (`git diff` and `git describe --dirty` refresh the index, which runs
 * post-index-change), no optional lock files.
 */
import type { AgentMode } from '../vocabulary';

/** Variables copied from the host when set. Anything not listed here never reaches a command. */
const PASSED_THROUGH: readonly string[] = [
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'NO_COLOR',
  'COLORTERM',
  // Where toolchains live, so `cargo`, `rustup`, `pyenv`, `go` or `java` find themselves.
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'NVM_DIR',
  'VOLTA_HOME',
  'GOROOT',
  'JAVA_HOME',
  'VIRTUAL_ENV',
];
const LOCALE = /^LC_[A-Z_]+$/;

const PLAN_GIT_OVERRIDES: readonly [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['core.pager', 'cat'],
  ['core.hooksPath', '/dev/null'],
];

export interface CommandEnvOptions {
  mode: AgentMode;
  /** The workspace root: git does not look above it, and PATH holds nothing inside it. */
  root: string;
  /** The throwaway folder for this command: `/tmp` inside the sandbox, a private temp folder without one. */
  scratch: string;
  /** The user's git identity, so `git commit` works in build/auto although HOME (and ~/.gitconfig) is hidden. */
  gitIdentity?: { name?: string; email?: string };
  /** Toolchain locations made visible by the sandbox, set when the host did not set them (`CARGO_HOME` …). */
  toolchain?: Readonly<Record<string, string>>;
}

function gitConfigEnv(pairs: readonly [string, string][]): Record<string, string> {
  return {
    GIT_CONFIG_COUNT: String(pairs.length),
    ...Object.fromEntries(
      pairs.flatMap(([key, value], i) => [
        [`GIT_CONFIG_KEY_${i}`, key],
        [`GIT_CONFIG_VALUE_${i}`, value],
      ]),
    ),
  };
}

function cachesUnder(scratch: string, mode: AgentMode): Record<string, string> {
  const caches: Record<string, string> = {
    XDG_CACHE_HOME: `${scratch}/cache`,
    XDG_CONFIG_HOME: `${scratch}/config`,
    XDG_DATA_HOME: `${scratch}/data`,
    XDG_STATE_HOME: `${scratch}/state`,
    npm_config_cache: `${scratch}/npm-cache`,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    GOCACHE: `${scratch}/go-build`,
    GOPATH: `${scratch}/go`,
  };
  if (mode === 'plan') {
    // Build outputs and bytecode would land in the (read-only) workspace: send them to the scratch folder.
    Object.assign(caches, {
      CARGO_TARGET_DIR: `${scratch}/cargo-target`,
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONPYCACHEPREFIX: `${scratch}/pycache`,
      PYTEST_ADDOPTS: '-p no:cacheprovider',
    });
  }
  return caches;
}

function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : trimmed.slice(0, cut);
}

/** The complete environment of one agent command; `base` (the host's environment) is not changed. */
export function commandEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  options: CommandEnvOptions,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && (PASSED_THROUGH.includes(key) || LOCALE.test(key))) env[key] = value;
  }
  // An empty or relative PATH entry would let `cd dir && ls` run `dir/ls`; an entry inside the
  // workspace (`npx` puts node_modules/.bin there) would let the repository replace `cat` or `git`.
  const inside = (dir: string) => dir === options.root || dir.startsWith(`${options.root.replace(/\/+$/, '')}/`);
  const path = (base.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(':')
    .filter((dir) => dir.startsWith('/') && !inside(dir));
  env.PATH = path.join(':');
  for (const [key, value] of Object.entries(options.toolchain ?? {})) env[key] ??= value;
  Object.assign(env, cachesUnder(options.scratch, options.mode), {
    HOME: `${options.scratch}/home`,
    TMPDIR: options.scratch,
    SHELL: '/bin/sh',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    // A workspace inside a larger repository: git stops at the workspace instead of reading the
    // parent's history (`git log -p` would print files outside the workspace).
    GIT_CEILING_DIRECTORIES: parentOf(options.root),
  });
  if (options.mode === 'plan') Object.assign(env, gitConfigEnv(PLAN_GIT_OVERRIDES), { GIT_OPTIONAL_LOCKS: '0' });
  const { name, email } = options.gitIdentity ?? {};
  if (name) Object.assign(env, { GIT_AUTHOR_NAME: name, GIT_COMMITTER_NAME: name });
  if (email) Object.assign(env, { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email });
  return env;
}
