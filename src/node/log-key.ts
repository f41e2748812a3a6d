/**
 * Session-log keys (STORE-2), for the VS Code extension and `vtplan` alike: one random key per
 * workspace in a private file outside it, `$XDG_STATE_HOME/vtplan/log-keys/<sha256 of the
 * workspace's real path>` (default state folder `~/.local/state`). Nothing in the workspace, and
 * nothing the agent's sandboxed commands can see, holds it, so a line written into a session log
 * by anyone but the runtime does not verify. One key for both clients: each resumes the other's
 * sessions. (VS Code's SecretStorage is not used: in a browser workbench such as code-server it
 * is in memory only, so every window reload would make genuine logs look forged.) The folder is
 * 0700 and the file 0600; a symlink at the file's path, a file another user owns or one others
 * can read is refused, never followed or repaired.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { LOG_KEY_BYTES } from '../core/session/log';

// Absent on Windows (no such flag there); the checks after opening still apply.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const POSIX = process.platform !== 'win32';

/** The file's text: the key as hex digits and a newline. */
const KeyFileSchema = z
  .string()
  .regex(new RegExp(`^[0-9a-f]{${LOG_KEY_BYTES * 2}}\n?$`), `not ${LOG_KEY_BYTES * 2} hex digits`);

/** A key file's bytes, `null` when its text is not a key. */
export function parseLogKeyHex(text: string): Uint8Array | null {
  const parsed = KeyFileSchema.safeParse(text);
  return parsed.success ? Buffer.from(parsed.data.trim(), 'hex') : null;
}

export class LogKeyError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'LogKeyError';
  }
}

/** The name a workspace's key is kept under: its real path, hashed (the path itself stays private). */
export function workspaceKeyId(root: string): string {
  return createHash('sha256').update(realpathSync(root)).digest('hex');
}

/** `$XDG_STATE_HOME/vtplan/log-keys`; a relative XDG_STATE_HOME is ignored, as the XDG spec says. */
export function logKeyDir(env: Readonly<Record<string, string | undefined>>): string {
  const state =
    env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'vtplan', 'log-keys');
}

function code(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
}

/** Private to this user: owned by them, no access for group or others. */
function assertPrivate(stat: { uid: number; mode: number }, path: string, what: string): void {
  if (!POSIX) return;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new LogKeyError(
      `refusing the session-log ${what} ${path}: it belongs to another user (uid ${stat.uid})`,
      path,
    );
  if ((stat.mode & 0o077) !== 0) {
    throw new LogKeyError(
      `refusing the session-log ${what} ${path}: its mode is ${(stat.mode & 0o777).toString(8)}, others may read it; make it private (chmod ${what === 'folder' ? '700' : '600'}) or remove it`,
      path,
    );
  }
}

function readKey(file: string): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | O_NOFOLLOW);
  } catch (err) {
    if (code(err) === 'ENOENT') return null;
    if (code(err) === 'ELOOP' || code(err) === 'EMLINK')
      throw new LogKeyError(`refusing the session-log key ${file}: it is a symbolic link`, file);
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new LogKeyError(`refusing the session-log key ${file}: it is not a regular file`, file);
    assertPrivate(stat, file, 'key');
    const key = parseLogKeyHex(readFileSync(fd, 'utf8'));
    if (!key)
      throw new LogKeyError(
        `the session-log key ${file} is damaged (not ${LOG_KEY_BYTES * 2} hex digits); remove it to start a new key (earlier sessions then resume in plan mode)`,
        file,
      );
    return key;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a new key to a temp file (O_EXCL, 0600) and links it into place: the key file appears
 * with its whole content or not at all, and a key another process made first wins.
 */
function createKey(dir: string, file: string): void {
  const temp = join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      writeSync(fd, `${randomBytes(LOG_KEY_BYTES).toString('hex')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, file);
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
    }
  } finally {
    unlinkSync(temp);
  }
}

/** The workspace's log key, made on first use. Throws LogKeyError when the key store is not private. */
export function loadLogKey(root: string, env: Readonly<Record<string, string | undefined>>): Uint8Array {
  const dir = logKeyDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory())
    throw new LogKeyError(
      `refusing the session-log key folder ${dir}: it is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}`,
      dir,
    );
  assertPrivate(stat, dir, 'folder');
  const file = join(dir, workspaceKeyId(root));
  const existing = readKey(file);
  if (existing) return existing;
  createKey(dir, file);
  const created = readKey(file);
  if (!created) throw new LogKeyError(`the session-log key ${file} vanished right after it was written`, file);
  return created;
}
