import { closeSync, constants, fstatSync, lstatSync, openSync, promises as fsp, type Stats } from 'node:fs';
import {
  NotRegularFileError,
  type AppendFileSystem,
  type DirEntry,
  type EntryKind,
  type EntryStat,
  type FileSystem,
  type SpecialFileKind,
} from '../core/ports';
import { dirname } from 'node:path';

// Absent on Windows, where FIFOs in the file system and O_NOFOLLOW do not exist either.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// Opening a FIFO without it blocks until the other end opens: the reader would hang forever.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

function kindOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'directory';
  return 'other';
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
}

function isNotFound(err: unknown): boolean {
  return errorCode(err) === 'ENOENT';
}

/**
 * The two halves of every atomic write on Node (the store's through the FileSystem port, the
 * agent's through the Writer): a temp file created exclusively and flushed, then renamed over
 * the target. Without `mode` the file gets 0666 less the process umask, as any new file.
 */
export async function writeNewFileDurable(path: string, content: string, mode?: number): Promise<void> {
  const handle = await fsp.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o666);
  try {
    await handle.writeFile(content, 'utf8');
    // The umask may have narrowed the mode open() was given.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Atomic replace within one directory, which is then fsynced so the rename survives a crash. */
export async function renameDurable(from: string, to: string): Promise<void> {
  await fsp.rename(from, to);
  let dir: fsp.FileHandle | undefined;
  try {
    dir = await fsp.open(dirname(to), constants.O_RDONLY);
    await dir.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  } finally {
    await dir?.close();
  }
}

/** What a non-regular entry is, for NotRegularFileError. */
export function specialKindOf(s: Stats): SpecialFileKind {
  if (s.isDirectory()) return 'directory';
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice()) return 'character device';
  if (s.isBlockDevice()) return 'block device';
  return 'other';
}

/**
 * Opens with `flags` plus O_NONBLOCK (and O_NOFOLLOW unless `followSymlink`), then checks what
 * was actually opened with fstat: checking first and opening after would leave a window in which
 * the file is swapped for a FIFO. Anything but a regular file is closed again and refused.
 */
function openAppendHandle(path: string, mode: number): Promise<fsp.FileHandle> {
  return openRegular(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, { followSymlink: false, mode });
}

async function openRegular(
  path: string,
  flags: number,
  options: { followSymlink: boolean; mode?: number },
): Promise<fsp.FileHandle> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, flags | O_NONBLOCK | (options.followSymlink ? 0 : O_NOFOLLOW), options.mode);
  } catch (err) {
    // O_NOFOLLOW on a symlink fails with ELOOP (EMLINK on FreeBSD).
    if (!options.followSymlink && (errorCode(err) === 'ELOOP' || errorCode(err) === 'EMLINK')) {
      const link = await fsp.lstat(path).catch(() => null);
      if (link?.isSymbolicLink()) throw new NotRegularFileError(path, 'symlink');
    }
    // A FIFO with no reader refuses a non-blocking open for writing with ENXIO.
    if (errorCode(err) === 'ENXIO') {
      const entry = await fsp.stat(path).catch(() => null);
      if (entry && !entry.isFile()) throw new NotRegularFileError(path, specialKindOf(entry));
    }
    throw err;
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) throw new NotRegularFileError(path, specialKindOf(s));
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/**
 * `openRegular` without the thread-pool round trips, for the search fallback, which opens many
 * small files one after another: the same flags, the same fstat check after the open.
 */
export function openRegularSync(path: string, flags: number, options: { followSymlink: boolean }): number {
  let fd: number;
  try {
    fd = openSync(path, flags | O_NONBLOCK | (options.followSymlink ? 0 : O_NOFOLLOW));
  } catch (err) {
    if (!options.followSymlink && (errorCode(err) === 'ELOOP' || errorCode(err) === 'EMLINK')) {
      let link: Stats | null = null;
      try {
        link = lstatSync(path);
      } catch {
        // Gone meanwhile: the open's own error stands.
      }
      if (link?.isSymbolicLink()) throw new NotRegularFileError(path, 'symlink');
    }
    throw err;
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new NotRegularFileError(path, specialKindOf(s));
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/**
 * The bytes of a regular file, `null` when nothing is at `path`. Never blocks on a FIFO or a
 * device (NotRegularFileError instead); a symlink at `path` is refused unless `followSymlink`.
 */
export async function readRegularFile(path: string, options: { followSymlink: boolean }): Promise<Buffer | null> {
  let handle: fsp.FileHandle;
  try {
    handle = await openRegular(path, constants.O_RDONLY, options);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The FileSystem port over Node's `fs`, shared by the CLI and the extension host (local folders only). */
export const nodeFileSystem: FileSystem & AppendFileSystem = {
  async readText(path) {
    const bytes = await readRegularFile(path, { followSymlink: false });
    return bytes === null ? null : bytes.toString('utf8');
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
  writeNewFileDurable: (path, content, mode) => writeNewFileDurable(path, content, mode),
  rename: renameDurable,
  async removeFile(path) {
    await fsp.rm(path, { force: true });
  },
  async appendText(path, text, mode) {
    const handle = await openAppendHandle(path, mode);
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
  },
  async openAppend(path, mode) {
    const handle = await openAppendHandle(path, mode);
    return {
      append: (text) => handle.writeFile(text, 'utf8'),
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
};
