/**
 * Ports: everything the pure core needs from the outside world. The VS Code host, the CLI and
 * the tests each provide an implementation; the core never touches `fs`, `child_process` or
 * `vscode` directly. Paths given to a port are absolute, POSIX-style.
 */

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface EntryStat {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  mode: number;
}

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

export interface FileSystem {
  /** Text content, or `null` when the path does not exist. */
  readText(path: string): Promise<string | null>;
  /** lstat semantics: a symlink is reported as `symlink`, never followed. `null` when missing. */
  lstat(path: string): Promise<EntryStat | null>;
  /** Canonical path with every symlink resolved; throws when the path does not exist. */
  realpath(path: string): Promise<string>;
  readDir(path: string): Promise<DirEntry[]>;
  mkdirp(path: string): Promise<void>;
  /**
   * Create `path` exclusively (fails if it exists), write `content`, set `mode`, fsync, close.
   * Used for temp files of the atomic writer.
   */
  writeNewFileDurable(path: string, content: string, mode: number): Promise<void>;
  /** Atomic replace within one directory; fsyncs the directory afterwards where supported. */
  rename(from: string, to: string): Promise<void>;
  /** Remove a file; no error when it is already gone. */
  removeFile(path: string): Promise<void>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Append-only files (the session log). Kept apart from FileSystem so that existing FileSystem
 * implementations and fakes stay complete.
 */
export interface AppendFileSystem {
  /**
   * Appends `text` to `path`, creating it with `mode` when missing. Never follows a symlink at
   * `path` (throws instead).
   */
  appendText(path: string, text: string, mode: number): Promise<void>;
  /** Flushes the file's data to stable storage (fsync). */
  syncFile(path: string): Promise<void>;
}
