/**
 * The runtime's own files (`.vtcode/...`) are written only through real folders: a symlink
 * anywhere below the workspace root could redirect a write out of the workspace. One walk
 * checks that for the store's atomic writer, the temp-file sweep and the session log.
 */
import { posix as path } from 'node:path';
import type { EntryKind, FileSystem } from '../ports';

export type UnsafeComponent =
  | { problem: 'missing'; at: string }
  | { problem: 'symlink'; at: string; last: boolean }
  | { problem: 'wrong_kind'; at: string; last: boolean; found: EntryKind };

/**
 * lstat of each component of `rel` below `root`, from the first down: the first one that is
 * missing, a symlink, or not what it must be (`lastKind` for the last, a directory before it),
 * or `null` when every component is sound.
 */
export async function firstUnsafeComponent(
  fs: FileSystem,
  root: string,
  rel: string,
  lastKind: 'file' | 'directory',
): Promise<UnsafeComponent | null> {
  const parts = rel.split('/');
  let current = root;
  for (const [i, part] of parts.entries()) {
    current = path.join(current, part);
    const stat = await fs.lstat(current);
    if (stat === null) return { problem: 'missing', at: current };
    const last = i === parts.length - 1;
    if (stat.kind === 'symlink') return { problem: 'symlink', at: current, last };
    if (stat.kind !== (last ? lastKind : 'directory'))
      return { problem: 'wrong_kind', at: current, last, found: stat.kind };
  }
  return null;
}
