/**
 * Environment for commands the read-only policy approved (RO-2).
 *
 *   spawnEnv = withPlanCommandEnv(process.env)
 *
 * The command policy judges what the model typed; it cannot see configuration that makes a read
 * command run a program. Some of that can be switched off from the environment, which outranks
 * repository config: git's file-system monitor hook (`core.fsmonitor`, run by `git status`),
 * repositories discovered inside the workspace without an explicit `--git-dir` (an embedded bare
 * repository brings its own config), pagers, and environment variables that inject programs or
 * config (`GIT_EXTERNAL_DIFF`, `RIPGREP_CONFIG_PATH`, `BASH_ENV`, `LD_PRELOAD`), and PATH entries
 * that are not absolute (they resolve bare program names inside the workspace). What remains
 * is the repository's own `.git/config` (diff drivers, clean filters): a workspace whose `.git`
 * directory is hostile is not made safe by any command policy.
 */

export interface CommandEnv {
  set: Readonly<Record<string, string>>;
  unset: readonly string[];
}

const GIT_OVERRIDES: readonly [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['core.pager', 'cat'],
];

export const PLAN_COMMAND_ENV: CommandEnv = {
  set: {
    GIT_CONFIG_COUNT: String(GIT_OVERRIDES.length),
    ...Object.fromEntries(GIT_OVERRIDES.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${i}`, key], [`GIT_CONFIG_VALUE_${i}`, value]])),
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
  },
  unset: [
    'GIT_EXTERNAL_DIFF', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_CONFIG_PARAMETERS', 'GIT_EXEC_PATH', 'GIT_SSH_COMMAND',
    'RIPGREP_CONFIG_PATH', 'LESSOPEN', 'LESSCLOSE', 'BASH_ENV', 'ENV', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES',
    // `cd lib` searches CDPATH first, which the workspace path check (paths.ts) cannot see.
    'CDPATH',
  ],
};

/**
 * `base` with the plan-mode overrides applied; `base` itself is not changed. PATH keeps only
 * absolute entries: an empty or relative entry would let `cd dir && ls` run `dir/ls`.
 */
export function withPlanCommandEnv(base: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !PLAN_COMMAND_ENV.unset.includes(key) && !/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(key)) env[key] = value;
  }
  if (env.PATH !== undefined) env.PATH = env.PATH.split(':').filter((dir) => dir.startsWith('/')).join(':');
  return { ...env, ...PLAN_COMMAND_ENV.set };
}
