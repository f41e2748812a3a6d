/**
 * Workspace confinement for model-given paths. A path is accepted when it names something inside
 * the workspace both as written (no `..` escape, no absolute path elsewhere) and after every
 * symlink is resolved (a link inside the workspace pointing out of it is refused; one pointing
 * elsewhere inside is fine). Missing files are checked through their nearest existing folder, so
 * a file about to be created is confined the same way. Paths an agent writes are confined once
 * more: never into `.vtcode/`, the runtime's own files (`resolveWritablePath`).
 */
import { posix as path } from 'node:path';
import { RUNTIME_FOLDER } from '../policy/runtime-folder';
import type { EntryStat, FileSystem } from '../ports';
import { ToolFailure } from './tool';

export interface WorkspacePath {
  /** Workspace-relative POSIX path as the model should see it; `.` for the root. */
  relative: string;
  /** Absolute path as written (symlinks not resolved). */
  absolute: string;
  /** Absolute path with every existing symlink resolved: the one to read or write. */
  real: string;
  /** What is at `real` (lstat), `null` when nothing is there yet. */
  stat: EntryStat | null;
  /** The workspace root with every symlink resolved (for `displayPath`). */
  realRoot: string;
}

function outside(given: string, root: string, why: string): ToolFailure {
  return new ToolFailure(
    'outside_workspace',
    `\`${given}\` ${why}, which is outside the workspace (${root}). Only paths inside the workspace can be used; give one relative to its root, e.g. \`src/index.ts\`.`,
    given,
  );
}

function within(base: string, target: string): string | null {
  const rel = path.relative(base, target);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith('../') || path.isAbsolute(rel)) return null;
  return rel;
}

function isMissing(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Resolves `given` against `root` (absolute). Throws ToolFailure (`outside_workspace`) with a
 * plain explanation when the path leaves the workspace by any route.
 */
export async function resolveWorkspacePath(fs: FileSystem, root: string, given: string): Promise<WorkspacePath> {
  return (await resolve(fs, root, given)).path;
}

/**
 * Plans, session logs (with their integrity chain) and checklists are written by the runtime's
 * private writer alone, so what it reads back on resume is what it wrote.
 */
function isRuntimeOwned(relative: string): boolean {
  return relative === RUNTIME_FOLDER || relative.startsWith(`${RUNTIME_FOLDER}/`);
}

/**
 * `resolveWorkspacePath` for a path an agent tool writes: also refused (`refused`) when the path,
 * as written or after its symlinks are resolved, lies in or below `<workspace>/.vtcode/`.
 */
export async function resolveWritablePath(
  fs: FileSystem,
  root: string,
  given: string,
  tool: string,
): Promise<WorkspacePath> {
  const { path: target, realRoot } = await resolve(fs, root, given);
  const realRelative = within(realRoot, target.real) ?? target.real;
  if (isRuntimeOwned(target.relative) || isRuntimeOwned(realRelative)) {
    const subject = isRuntimeOwned(target.relative)
      ? `\`${target.relative}\` is`
      : `\`${target.relative}\` resolves through a symbolic link to \`${realRelative}\`, which is`;
    throw new ToolFailure(
      'refused',
      `Mutation blocked: ${subject} inside \`${RUNTIME_FOLDER}/\`, where VT Code keeps its own files (plans, session logs, checklists); only the runtime writes them, and \`${tool}\` cannot. To change a plan, revise it in plan mode (the runtime persists the new <proposed_plan>); to update the checklist, use task_tracker.`,
      target.relative,
    );
  }
  return target;
}

async function resolve(
  fs: FileSystem,
  root: string,
  given: string,
): Promise<{ path: WorkspacePath; realRoot: string }> {
  const text = given.trim() === '' ? '.' : given.trim();
  if (text.includes('\0')) throw new ToolFailure('invalid_args', 'The path contains a NUL byte.', given);
  if (text === '~' || text.startsWith('~/')) {
    throw new ToolFailure(
      'outside_workspace',
      `\`${text}\` is a home-folder path; use a path relative to the workspace root (${root}).`,
      text,
    );
  }
  const normRoot = path.normalize(root).replace(/(.)\/+$/, '$1');
  const located = await locate(fs, normRoot, text);
  const { absolute, relative } = located;
  let realRoot = located.realRoot;

  // Nearest existing ancestor through realpath; the names below it must not exist at all
  // (a dangling symlink there would be followed by a later write). The path and the root are
  // resolved at once: each is a thread-pool round trip, and on a busy machine those round trips
  // are most of a capped search's fixed cost.
  const pending = absolute === normRoot ? null : settle(fs.realpath(absolute));
  realRoot ??= await fs.realpath(normRoot);
  const missing: string[] = [];
  let existing = absolute;
  let realExisting: string;
  for (let attempt = pending; ;) {
    const found = attempt === null ? { value: realRoot } : await attempt;
    if ('value' in found) {
      realExisting = found.value;
      break;
    }
    if (!isMissing(found.error) || existing === normRoot) throw found.error;
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
    attempt = existing === normRoot ? null : settle(fs.realpath(existing));
  }
  const real = path.join(realExisting, ...missing);
  if (within(realRoot, real) === null) throw outside(text, normRoot, `resolves through a symbolic link to \`${real}\``);
  if (missing.length > 0) {
    const first = path.join(realExisting, missing[0] as string);
    const dangling = await fs.lstat(first);
    if (dangling?.kind === 'symlink') {
      throw new ToolFailure(
        'outside_workspace',
        `\`${text}\` goes through \`${path.relative(realRoot, first)}\`, a symbolic link whose target does not exist; it is not followed.`,
        text,
      );
    }
  }
  const stat = missing.length > 0 ? null : await fs.lstat(real);
  return { path: { relative: relative === '' ? '.' : relative, absolute, real, stat, realRoot }, realRoot };
}

/**
 * Where `text` points, lexically: its absolute form under the workspace root and its path relative
 * to it. An absolute path may name the workspace through its real (symlink-resolved) location;
 * then that real root, already resolved, comes back too.
 */
async function locate(
  fs: FileSystem,
  normRoot: string,
  text: string,
): Promise<{ absolute: string; relative: string; realRoot: string | undefined }> {
  if (!path.isAbsolute(text)) {
    const absolute = path.join(normRoot, text);
    const relative = within(normRoot, absolute);
    if (relative === null) throw outside(text, normRoot, 'climbs out with `..`');
    return { absolute, relative, realRoot: undefined };
  }
  const norm = path.normalize(text);
  let realRoot: string | undefined;
  let relative = within(normRoot, norm);
  if (relative === null) {
    realRoot = await fs.realpath(normRoot);
    relative = within(realRoot, norm);
  }
  if (relative === null) throw outside(text, normRoot, 'is an absolute path');
  return { absolute: relative === '' ? normRoot : path.join(normRoot, relative), relative, realRoot };
}

/** A promise that never rejects, so one started early cannot go unhandled while another is awaited. */
function settle<T>(pending: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return pending.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** The workspace-relative form of an absolute path returned by a port (for display). */
export function displayPath(root: string, realRoot: string, absolute: string): string {
  const rel = within(path.normalize(root), absolute) ?? within(realRoot, absolute);
  if (rel === null) return absolute;
  return rel === '' ? '.' : rel;
}
