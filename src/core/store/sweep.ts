/**
 * Start-up sweep of temp files the private atomic writer (atomic.ts, STORE-2) staged but never
 * renamed: a process killed between staging and rename (SIGKILL, a crash, a power cut) leaves its
 * `.<name>.md.<unique>.tmp` (`.json` for an approval record) behind, and nothing else ever removes
 * it. Each holds a full copy of a plan or checklist, so they pile up.
 *
 * Only the folders the writer writes into are looked at, only names of its own temp pattern are
 * removed, and only once they are older than a grace period: another window or CLI run on the same
 * workspace may be writing right now, and its temp file lives for milliseconds. A folder reached
 * through a symlink is not looked into at all (the writer refuses those folders as well).
 */
import { posix as path } from 'node:path';
import type { FileSystem } from '../ports';
import { GLOBAL_TRACKER_FILE, PLANS_DIR } from '../tracker/store';
import { APPROVALS_DIR } from '../plan/files';
import { isAtomicTempName } from './atomic';
import { errorMessage } from '../errors';
import { firstUnsafeComponent } from './no-symlink-walk';

/** Every folder (relative to the workspace root) the atomic writer puts files in. */
const ATOMIC_WRITE_DIRS: readonly string[] = [PLANS_DIR, path.dirname(GLOBAL_TRACKER_FILE), APPROVALS_DIR];

/**
 * A write stages, fsyncs and renames within well under a second even for large plans on slow
 * disks; a minute leaves ample room for a concurrent writer without keeping leftovers for long.
 */
export const STALE_TEMP_GRACE_MS = 60_000;

interface SweepProblem {
  path: string;
  message: string;
}

export interface SweepReport {
  /** Absolute paths of the temp files removed. */
  removed: string[];
  /** Folders not looked into and files not removed, with why. The sweep itself never throws. */
  problems: SweepProblem[];
}

export interface SweepOptions {
  /** Current time (ms since the epoch), compared with each temp file's mtime. */
  now: number;
  graceMs?: number;
}

/**
 * `null` when every component of `rel` below `root` is a real directory; `'missing'` when one
 * does not exist (nothing to sweep); otherwise why the folder is not entered.
 */
async function folderState(fs: FileSystem, root: string, rel: string): Promise<null | 'missing' | string> {
  const unsafe = await firstUnsafeComponent(fs, root, rel, 'directory');
  if (unsafe === null) return null;
  if (unsafe.problem === 'missing') return 'missing';
  if (unsafe.problem === 'symlink')
    return `${unsafe.at} is a symbolic link; stale temp files are not looked for through it`;
  return `${unsafe.at} is not a folder (${unsafe.found}); stale temp files are not looked for in it`;
}

/**
 * Removes the atomic writer's temp files older than the grace period from ATOMIC_WRITE_DIRS.
 * Problems (an unreadable folder, a failed removal, a symlinked folder) are reported, not thrown:
 * a leftover temp file must never keep a session from starting.
 */
export async function sweepStaleTempFiles(fs: FileSystem, root: string, options: SweepOptions): Promise<SweepReport> {
  const graceMs = options.graceMs ?? STALE_TEMP_GRACE_MS;
  const report: SweepReport = { removed: [], problems: [] };
  for (const rel of ATOMIC_WRITE_DIRS) {
    const dir = path.join(root, rel);
    try {
      const state = await folderState(fs, root, rel);
      if (state === 'missing') continue;
      if (state !== null) {
        // A symlinked `.vtcode` blocks both folders: say it once.
        if (!report.problems.some((p) => p.message === state)) report.problems.push({ path: dir, message: state });
        continue;
      }
      for (const entry of await fs.readDir(dir)) {
        // readDir reports a symlink as such: a link named like a temp file is not ours and stays.
        if (entry.kind !== 'file' || !isAtomicTempName(entry.name)) continue;
        const file = path.join(dir, entry.name);
        try {
          const stat = await fs.lstat(file);
          if (stat === null || stat.kind !== 'file' || options.now - stat.mtimeMs < graceMs) continue;
          // The folder could have been swapped for a symlink since it was listed.
          const again = await folderState(fs, root, rel);
          if (again === 'missing') break;
          if (again !== null) {
            report.problems.push({ path: file, message: `not removed: ${again}` });
            break;
          }
          await fs.removeFile(file);
          report.removed.push(file);
        } catch (err) {
          report.problems.push({
            path: file,
            message: `could not remove the stale temp file ${file}: ${errorMessage(err)}`,
          });
        }
      }
    } catch (err) {
      report.problems.push({
        path: dir,
        message: `could not look for stale temp files in ${dir}: ${errorMessage(err)}`,
      });
    }
  }
  return report;
}
