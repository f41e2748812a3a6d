/**
 * The session log `.vtcode/sessions/<id>.jsonl` (EVT-1, ADD-4): one validated event per line,
 * appended as events happen, fsync'd at turn boundaries and whenever an approval changes, so a
 * window reload or `vtplan resume` rebuilds the session from it. Secrets never reach the file:
 * every line passes through the same redaction as provider failures.
 */
import { posix as path } from 'node:path';
import { z } from 'zod';
import { redactSecrets } from '../llm/redact';
import type { AppendFileSystem, FileSystem } from '../ports';
import { SessionEventSchema, type SessionEvent, type SessionEventType } from './events';

export const SESSIONS_DIR = '.vtcode/sessions';
const LOG_FILE_MODE = 0o600;

export const SessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a session id is 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .refine((id) => !id.includes('..'), 'a session id cannot contain ".."');

/** Events after which the log is fsync'd: a turn ended, or approval state a reload must restore changed. */
const DURABLE: ReadonlySet<SessionEventType> = new Set<SessionEventType>([
  'session.started',
  'turn.completed',
  'plan.persisted',
  'plan.approval.requested',
  'plan.approval.resolved',
  'context.reset',
]);

export class SessionLogError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'SessionLogError';
  }
}

export function sessionLogPath(root: string, sessionId: string): string {
  const id = SessionIdSchema.safeParse(sessionId);
  if (!id.success) {
    throw new SessionLogError(`invalid session id ${JSON.stringify(sessionId)}: ${id.error.issues[0]?.message ?? 'rejected'}`, root);
  }
  return path.join(root, SESSIONS_DIR, `${id.data}.jsonl`);
}

/** `.vtcode`, `.vtcode/sessions` and the log itself must not be symlinks (a redirect out of the workspace). */
async function assertNoSymlink(fs: FileSystem, root: string, file: string): Promise<void> {
  const parts = path.relative(root, file).split('/');
  let current = root;
  for (const [i, part] of parts.entries()) {
    current = path.join(current, part);
    const stat = await fs.lstat(current);
    if (stat === null) return;
    const isFile = i === parts.length - 1;
    if (stat.kind === 'symlink') {
      throw new SessionLogError(`refusing to write the session log: ${current} is a symbolic link`, file);
    }
    if (isFile ? stat.kind !== 'file' : stat.kind !== 'directory') {
      throw new SessionLogError(`refusing to write the session log: ${current} is a ${stat.kind}`, file);
    }
  }
}

export class SessionLog {
  /** Appends are chained so that events land in the order they were given, even when not awaited. */
  private tail: Promise<void> = Promise.resolve();

  private constructor(
    private readonly fs: FileSystem & AppendFileSystem,
    readonly path: string,
    private readonly secrets: readonly string[],
  ) {}

  /**
   * Opens (creating when missing) the log of `sessionId` under `root`. `secrets` (API keys) are
   * masked in every line. A last line cut short by a crash is closed with a newline first, so new
   * events never merge into it; the reader then reports it by line number.
   */
  static async open(
    fs: FileSystem & AppendFileSystem,
    root: string,
    sessionId: string,
    options: { secrets?: readonly string[] } = {},
  ): Promise<SessionLog> {
    const file = sessionLogPath(root, sessionId);
    await assertNoSymlink(fs, root, file);
    await fs.mkdirp(path.dirname(file));
    await assertNoSymlink(fs, root, file);
    const existing = await fs.readText(file);
    if (existing === null) await fs.appendText(file, '', LOG_FILE_MODE); // created private (0600) right away
    else if (existing !== '' && !existing.endsWith('\n')) await fs.appendText(file, '\n', LOG_FILE_MODE);
    return new SessionLog(fs, file, options.secrets ?? []);
  }

  /** Validates, redacts and appends one event; fsyncs after turn boundaries and approval changes. */
  append(event: SessionEvent): Promise<void> {
    const valid = SessionEventSchema.parse(event);
    const line = `${redactSecrets(JSON.stringify(valid), this.secrets)}\n`;
    const write = this.tail.then(async () => {
      await this.fs.appendText(this.path, line, LOG_FILE_MODE);
      if (DURABLE.has(valid.type)) await this.fs.syncFile(this.path);
    });
    // A failed write is reported to its caller; later appends still run.
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Waits for pending appends and fsyncs the file. */
  async sync(): Promise<void> {
    await this.tail;
    await this.fs.syncFile(this.path);
  }
}

export type LogProblemKind =
  /** The last line has no newline and does not parse: a write cut short (tolerated, reported). */
  | 'truncated'
  | 'invalid_json'
  /** Parses as JSON but is not a known, well-formed event. */
  | 'invalid_event'
  /** `seq` did not increase: lines were reordered or two writers shared the file. */
  | 'out_of_order';

export interface LogProblem {
  /** 1-based line number in the file. */
  line: number;
  kind: LogProblemKind;
  message: string;
}

export interface SessionLogContents {
  events: SessionEvent[];
  problems: LogProblem[];
}

/** Parses a whole log. Nothing is dropped silently: every line that is not an event is a problem. */
export function parseSessionLog(text: string): SessionLogContents {
  const events: SessionEvent[] = [];
  const problems: LogProblem[] = [];
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  let lastSeq = -1;
  for (const [i, raw] of lines.entries()) {
    const isLast = i === lines.length - 1;
    if (isLast && raw === '') break; // the empty string after the final newline
    const line = i + 1;
    if (raw.trim() === '') {
      problems.push({ line, kind: 'invalid_json', message: 'empty line' });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      problems.push(
        isLast && !complete
          ? { line, kind: 'truncated', message: `last line is incomplete (a write was cut short): ${reason}` }
          : { line, kind: 'invalid_json', message: reason },
      );
      continue;
    }
    const parsed = SessionEventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      problems.push({ line, kind: 'invalid_event', message: `${where}${issue?.message ?? 'not an event'}` });
      continue;
    }
    if (parsed.data.seq <= lastSeq) {
      problems.push({ line, kind: 'out_of_order', message: `seq ${parsed.data.seq} after seq ${lastSeq}` });
    }
    lastSeq = Math.max(lastSeq, parsed.data.seq);
    events.push(parsed.data);
  }
  return { events, problems };
}

/** Reads the log of `sessionId`; `null` when there is none. */
export async function readSessionLog(fs: FileSystem, root: string, sessionId: string): Promise<SessionLogContents | null> {
  const text = await fs.readText(sessionLogPath(root, sessionId));
  return text === null ? null : parseSessionLog(text);
}

/** Where an EventSequencer resumes: after the highest seq, in the last turn seen. */
export function resumePoint(events: readonly SessionEvent[]): { seq: number; turn: number } | undefined {
  if (events.length === 0) return undefined;
  // reduce, not Math.max(...): a long session would overflow the argument list.
  return events.reduce((acc, e) => ({ seq: Math.max(acc.seq, e.seq), turn: Math.max(acc.turn, e.turn) }), { seq: 0, turn: 0 });
}
