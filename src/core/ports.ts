/**
 * Ports: everything the pure core needs from the outside world. The VS Code host, the CLI and
 * the tests each provide an implementation; the core never touches `fs`, `child_process` or
 * `vscode` directly. Paths given to a port are absolute, POSIX-style.
 */
import type { AgentMode } from './vocabulary';

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

/** What a path that should hold a regular file turned out to be. */
export type SpecialFileKind =
  'directory' | 'symlink' | 'fifo' | 'socket' | 'character device' | 'block device' | 'other';

/** "a FIFO (named pipe)", "a directory", … for messages. */
export const SPECIAL_FILE_NAMES: Readonly<Record<SpecialFileKind, string>> = {
  directory: 'a directory',
  symlink: 'a symbolic link',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  'character device': 'a character device',
  'block device': 'a block device',
  other: 'a special file',
};

/**
 * Thrown by a port asked to read or write a regular file when the path names something else.
 * Opening a FIFO for reading blocks until a writer appears, and a device can stream forever, so
 * these are refused before any content is read rather than treated as odd text files.
 */
export class NotRegularFileError extends Error {
  readonly code = 'not_a_file';
  constructor(
    readonly path: string,
    readonly found: SpecialFileKind,
  ) {
    super(`refusing to open ${path}: it is ${SPECIAL_FILE_NAMES[found]}, not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

export interface FileSystem {
  /**
   * Text content, or `null` when the path does not exist. Never follows a symlink at `path` and
   * never blocks on a FIFO: anything but a regular file throws NotRegularFileError.
   */
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
   * `path` (throws instead) and refuses anything but a regular file (NotRegularFileError).
   */
  appendText(path: string, text: string, mode: number): Promise<void>;
  /**
   * Opens `path` for a writer that appends many times, with appendText's checks (created with
   * `mode`, never through a symlink, a regular file only), paid once. The handle goes on writing
   * to the file it opened, whatever later becomes of the path.
   */
  openAppend(path: string, mode: number): Promise<AppendHandle>;
}

export interface AppendHandle {
  append(text: string): Promise<void>;
  /** Flushes the file's data to stable storage (fsync). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** One shell command run by an agent (`run_command`). */
export interface ShellRequest {
  /** Passed to `/bin/sh -c` as one string. */
  command: string;
  /** Absolute working directory, inside `root`. */
  cwd: string;
  /**
   * The workspace root. Inside the sandbox it is the only part of the user's files that exists:
   * read-only in plan mode, writable in build/auto except `.vtcode/` (the runtime's own files).
   */
  root: string;
  /** The agent that runs the command: decides what the sandbox lets it write. */
  mode: AgentMode;
  /** Whether the command may reach the network (the sandbox's own network namespace otherwise). */
  network: boolean;
  /** The command (and everything it started) is killed after this many milliseconds. */
  timeoutMs: number;
  /** Aborting kills the command the same way a timeout does. */
  signal?: AbortSignal;
  /**
   * Bytes kept per stream. Past it the first and the last half are kept and the middle is
   * dropped (errors tend to be at the end, context at the start).
   */
  maxOutputBytes: number;
}

/**
 * How agent commands are contained on this machine. Without an OS sandbox only the string
 * policy stands between a command and the machine, so plan mode runs inspection commands only.
 */
export type Isolation = { sandboxed: true; summary: string } | { sandboxed: false; summary: string; remedy: string };

export interface CapturedStream {
  text: string;
  /** Bytes the command wrote to this stream in total. */
  totalBytes: number;
  /** Bytes dropped from the middle to stay within `maxOutputBytes`. */
  omittedBytes: number;
}

export interface ShellResult {
  /** `null` when the command was ended by a signal. */
  exitCode: number | null;
  /** Name of the signal that ended it (`SIGKILL` …), `null` otherwise. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: CapturedStream;
  stderr: CapturedStream;
  durationMs: number;
}

export interface Shell {
  /** Never rejects because the command failed; rejects only when it could not be started. */
  run(request: ShellRequest): Promise<ShellResult>;
  /** Resolved once per process (a probe of the sandbox); never rejects. */
  isolation(): Promise<Isolation>;
}

/** Content search over the workspace (`grep`, `find_files`). Paths in and out are absolute. */
export interface GrepRequest {
  /** A directory to search below, or a single file. */
  root: string;
  pattern: string;
  /** `true`: the pattern is a literal string, not a regular expression. */
  fixed: boolean;
  caseInsensitive: boolean;
  /** Globs a file must match (any of them); relative to `root`, `*.ts` matches at any depth. */
  include?: readonly string[];
  /** Globs that exclude files or directories. */
  exclude?: readonly string[];
  maxResults: number;
  /** A longer matching line comes back cut to this many characters around its first match. */
  maxLineChars: number;
  signal?: AbortSignal;
}

export interface GrepMatch {
  path: string;
  /** 1-based. */
  line: number;
  /** The matching line without its line break, or the part of it around the first match (`…` marks a cut). */
  text: string;
}

export interface GrepResult {
  matches: GrepMatch[];
  /** More matches existed than `maxResults`. */
  limitReached: boolean;
}

export interface FindFilesRequest {
  root: string;
  /** Relative to `root`; `*.ts` matches at any depth, `src/**\/*.ts` is anchored at `root`. */
  glob: string;
  maxResults: number;
  signal?: AbortSignal;
}

export interface FindFilesResult {
  files: string[];
  limitReached: boolean;
}

/**
 * Both methods skip `.git`, `node_modules` and `.vtcode` (the agent's own logs and plans) and
 * honour `.gitignore`; they reject with a plain message when the pattern is invalid. Results
 * come sorted by path (grep: then by line); when more than `maxResults` exist, which of them are
 * returned is up to the implementation (a parallel search returns the first it found).
 */
export interface Search {
  grep(request: GrepRequest): Promise<GrepResult>;
  findFiles(request: FindFilesRequest): Promise<FindFilesResult>;
}

/**
 * Writes files the agent edits (`write_file`, `edit_file`) so a host can route them through its
 * editor model (VS Code: WorkspaceEdit) instead of the disk. The path is absolute and already
 * confined to the workspace; missing parent directories are created.
 */
export interface Writer {
  writeText(path: string, content: string): Promise<void>;
}
