import { promises as fsp, constants } from 'node:fs';
import type { AppendFileSystem, DirEntry, EntryKind, EntryStat, FileSystem } from '../core/ports';
import { dirname } from 'node:path';

function kindOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'directory';
  return 'other';
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'ENOENT';
}

/** The FileSystem port over Node's `fs`, shared by the CLI and the extension host (local folders only). */
export const nodeFileSystem: FileSystem & AppendFileSystem = {
  async readText(path) {
    try {
      return await fsp.readFile(path, 'utf8');
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  },
  async lstat(path): Promise<EntryStat | null> {
    try {
      const s = await fsp.lstat(path);
      return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs, mode: s.mode & 0o777 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  },
  realpath: (path) => fsp.realpath(path),
  async readDir(path): Promise<DirEntry[]> {
    const entries = await fsp.readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
  },
  async mkdirp(path) {
    await fsp.mkdir(path, { recursive: true, mode: 0o700 });
  },
  async writeNewFileDurable(path, content, mode) {
    const handle = await fsp.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async rename(from, to) {
    await fsp.rename(from, to);
    // fsync the directory so the rename itself survives a crash.
    let dir: fsp.FileHandle | undefined;
    try {
      dir = await fsp.open(dirname(to), constants.O_RDONLY);
      await dir.sync();
    } catch {
      // Some file systems refuse fsync on directories; the rename is still atomic.
    } finally {
      await dir?.close();
    }
  },
  async removeFile(path) {
    await fsp.rm(path, { force: true });
  },
  async appendText(path, text, mode) {
    const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
    const handle = await fsp.open(path, flags, mode);
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
  },
  async syncFile(path) {
    const handle = await fsp.open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};
