/**
 * `.vtcode/.gitignore`: session logs, the global task mirror and the approval records of plans
 * other agents saved (approvals/) are one machine's runtime state
 * and would otherwise show up in Source Control from the first message; plans and their tracker
 * sidecars stay visible, so a team can review a plan in a pull request (file-formats.md).
 *
 * The file is the user's once it exists: it is created exclusively and never rewritten, so a
 * team that wants session logs committed keeps its own version (even an empty one). Whatever
 * sits at the path already (a file, a symlink, a folder) is left alone, and a symlink is never
 * followed: the exclusive create fails on it instead of writing through it.
 */
import { posix as path } from 'node:path';
import { RUNTIME_FOLDER } from '../policy/runtime-folder';
import type { EntryKind, FileSystem } from '../ports';

export const RUNTIME_GITIGNORE = `${RUNTIME_FOLDER}/.gitignore`;

export const RUNTIME_GITIGNORE_CONTENT = [
  '# Written by VT Code Planning when it first used this folder; yours to edit, it is never rewritten.',
  '# Session logs, the global task mirror and plans waiting for approval are local runtime',
  '# state. Plans and their checklists (plans/) stay visible so that a team can review them in',
  '# pull requests.',
  'sessions/',
  'tasks/',
  'approvals/',
  '',
].join('\n');

/** Readable by everyone: it is meant to be committed, and git only keeps the executable bit anyway. */
const GITIGNORE_MODE = 0o644;

export type RuntimeGitignoreResult =
  | { status: 'created'; path: string }
  /** A file of the user's (or an earlier run's) is there: kept as it is. */
  | { status: 'kept'; path: string }
  /** Something that is not a regular file (or not a folder for `.vtcode`) is in the way: not written through. */
  | { status: 'refused'; path: string; found: EntryKind };

/**
 * Creates `<root>/.vtcode/.gitignore` unless something is already at that path. `.vtcode` itself
 * must be a real folder (it is created when missing); a symlinked `.vtcode` is refused, as every
 * writer of the runtime refuses it.
 */
export async function ensureRuntimeGitignore(fs: FileSystem, root: string): Promise<RuntimeGitignoreResult> {
  const folder = path.join(root, RUNTIME_FOLDER);
  const file = path.join(root, RUNTIME_GITIGNORE);
  const dir = await fs.lstat(folder);
  if (dir !== null && dir.kind !== 'directory') return { status: 'refused', path: folder, found: dir.kind };
  if (dir === null) await fs.mkdirp(folder);
  const existing = await fs.lstat(file);
  if (existing !== null)
    return existing.kind === 'file'
      ? { status: 'kept', path: file }
      : { status: 'refused', path: file, found: existing.kind };
  try {
    await fs.writeNewFileDurable(file, RUNTIME_GITIGNORE_CONTENT, GITIGNORE_MODE);
  } catch (err) {
    // Another window or CLI run created it between the look and the write: theirs stands.
    const now = await fs.lstat(file);
    if (now === null) throw err;
    return now.kind === 'file' ? { status: 'kept', path: file } : { status: 'refused', path: file, found: now.kind };
  }
  return { status: 'created', path: file };
}
