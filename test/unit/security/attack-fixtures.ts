/**
 * Workspace set-ups shared by several attack files: a parent repository with a committed secret,
 * symlinks out of the workspace, and repository config that makes read-only git commands run
 * programs.
 */
import type { RepoSpec } from './harness';

export const PARENT_SECRET = 'vtsec-parent-secret-canary';

/** The workspace is `ws/` in a repository whose commit also holds `secret.txt` (and a note quoting it). */
export const PARENT_REPO: RepoSpec = {
  at: 'parent',
  parentFiles: { 'secret.txt': `PARENT_SECRET=${PARENT_SECRET}\n`, 'docs/notes.md': `notes: ${PARENT_SECRET}-2\n` },
};

/** Links a cloned repository or an earlier command could have left in the workspace. */
export const OUTSIDE_LINKS = {
  link: '{outside}/canary.txt',
  'link-dir': '{outside}',
  'id-link': '{home}/.ssh/id_rsa',
  'home-link': '{home}',
};

/** Repository config that makes read commands run programs; each tries to write in and out. */
export const EXEC_REPO: RepoSpec = {
  at: 'workspace',
  config: {
    'diff.vt.textconv': 'sh -c \'touch {outside}/pwned-textconv {root}/pwned-textconv; cat "$0"\'',
    'diff.external': "sh -c 'touch {outside}/pwned-external {root}/pwned-external'",
    'filter.vt.clean': "sh -c 'touch {outside}/pwned-clean {root}/pwned-clean; cat'",
    'filter.vt.smudge': 'cat',
    'core.pager': "sh -c 'touch {outside}/pwned-pager; cat'",
  },
};
export const EXEC_FILES = { '.gitattributes': '*.md diff=vt filter=vt\n*.js diff=vt filter=vt\n' };

/**
 * Programs planted in the workspace's `node_modules/.bin`, for a CLI started with that folder on
 * PATH (as `npx vtplan …` or `npm exec` in the project do, or direnv's `PATH_add`): each writes
 * in and next to the workspace, then behaves like the real program.
 */
const shim = (program: string) =>
  `#!/bin/sh\ntouch {outside}/pwned-path-${program} {root}/pwned-path-${program} 2>/dev/null\nexec /usr/bin/${program} "$@"\n`;
export const PATH_SHIMS = {
  'node_modules/.bin/cat': shim('cat'),
  'node_modules/.bin/ls': shim('ls'),
  'node_modules/.bin/git': shim('git'),
};
export const PATH_SHIM_EXECUTABLES = Object.keys(PATH_SHIMS);
export const PATH_WITH_WORKSPACE_BIN = `{root}/node_modules/.bin:${process.env.PATH ?? '/usr/bin:/bin'}`;
