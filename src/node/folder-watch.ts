/**
 * Watches a few folders under a root, each of which may not exist yet, may be deleted and may be
 * created again (`.vtcode/plans`, `.vtcode/tasks`).
 *
 * Why not VS Code's FileSystemWatcher: inside the workspace it is served by the workspace's
 * recursive watcher (@parcel/watcher on Linux), which loses a folder created right after its
 * parent (`mkdir -p .vtcode/plans`, what the first plan write does): the new folder never gets an
 * inotify watch, and every later event inside it is dropped for the life of the window.
 *
 * Here every folder on the way (the root, `.vtcode`, then the targets) gets a plain non-recursive
 * `fs.watch`. A parent is watched before its child is looked for, and attaching (or losing) a
 * target reports a change, so a file written before its folder's watch started is still seen by
 * the reader's next scan.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { posix as path } from 'node:path';

export interface FolderWatch {
  dispose(): void;
}

/**
 * `folders` are relative to `root` (posix). `onChange` runs for every event inside a target folder
 * and whenever a target folder appears or disappears; it carries no detail: the caller re-reads.
 */
export function watchFolders(root: string, folders: readonly string[], onChange: () => void): FolderWatch {
  const targets = new Set(folders.map((f) => path.normalize(f)));
  // Every folder from the root down to each target, parents first.
  const chain = [...new Set(['.', ...[...targets].flatMap(ancestorsAndSelf)])].sort((a, b) => depth(a) - depth(b));
  const armed = new Map<string, FSWatcher>();
  let disposed = false;

  function isFolder(rel: string): boolean {
    try {
      return statSync(path.join(root, rel)).isDirectory();
    } catch {
      return false;
    }
  }

  function disarm(rel: string): void {
    armed.get(rel)?.close();
    armed.delete(rel);
  }

  function attach(rel: string): void {
    try {
      const watcher = watch(path.join(root, rel), { persistent: false }, (_event, name) => onEvent(rel, name));
      watcher.on('error', () => {
        if (armed.get(rel) !== watcher) return;
        disarm(rel);
        rearm(rel);
      });
      armed.set(rel, watcher);
    } catch {
      // Gone again between stat and watch, or out of inotify watches: the next event on a parent retries.
    }
  }

  /**
   * Brings the watchers in line with the folders on disk; `fresh` (and everything under it) is
   * watched anew, because a folder deleted and created again may come back with the same inode
   * while the old watch is dead. Reports when a target folder came, went or was re-watched.
   */
  function rearm(fresh: string | null): void {
    if (disposed) return;
    let targetChanged = false;
    for (const rel of chain) {
      const renew = fresh !== null && (fresh === '.' || rel === fresh || rel.startsWith(`${fresh}/`));
      const had = armed.has(rel);
      if (had && !renew && isFolder(rel)) continue;
      if (had) disarm(rel);
      if (isFolder(rel)) attach(rel);
      if (targets.has(rel) && (had || armed.has(rel))) targetChanged = true;
    }
    if (targetChanged) onChange();
  }

  function onEvent(rel: string, name: string | Buffer | null): void {
    if (disposed) return;
    if (targets.has(rel)) onChange();
    const child = name === null ? rel : path.join(rel, name.toString());
    if (chain.includes(child)) rearm(child);
  }

  rearm(null);
  return {
    dispose() {
      disposed = true;
      for (const rel of [...armed.keys()]) disarm(rel);
    },
  };
}

function ancestorsAndSelf(rel: string): string[] {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

function depth(rel: string): number {
  return rel === '.' ? 0 : rel.split('/').length;
}
