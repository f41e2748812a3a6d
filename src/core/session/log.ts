/**
 * The session log `.vtcode/sessions/<id>.jsonl` (EVT-1, ADD-4): one validated event per line,
 * appended as events happen, fsync'd at turn boundaries and whenever an approval changes, so a
 * window reload or `vtplan resume` rebuilds the session from it. Secrets never reach the file:
 * every line passes through the same redaction as provider failures.
 *
 * The log is read back as authority (mode, approvals, budgets), and the workspace is writable by
 * the agent and by anything the user runs, so a line counts only when the runtime wrote it
 * (STORE-2, MODE-1, GATE-5). Each line ends in `"mac":"<hex>"`: HMAC-SHA256 under a per-workspace
 * key the host keeps outside the workspace, over the line without that field, chained to the tag
 * of the line before (and to the lines the writer knowingly passed over, see `ChainHead`). A
 * line added, changed, moved or removed breaks the chain from that point on; such lines are
 * reported (`unverified`) and never applied. Only a cut-off tail is undetectable: that is a
 * rollback to a state the runtime did write.
 *
 * Streamed deltas are coalesced: consecutive `message.delta` / `plan.delta` / `reasoning.delta`
 * events of one kind become one line carrying the concatenated text under the envelope of the
 * last of them. Listeners still see every delta; the log holds the same text in a few lines.
 */
import { createHash, createHmac, timingSafeEqual, type Hash } from 'node:crypto';
import { posix as path } from 'node:path';
import { z } from 'zod';
import { redactSecrets } from '../llm/redact';
import type { AppendFileSystem, AppendHandle, FileSystem } from '../ports';
import { ensureRuntimeGitignore } from '../store/runtime-gitignore';
import { SessionEventSchema, type EventOf, type SessionEvent, type SessionEventType } from './events';
import { errorMessage } from '../errors';
import { firstUnsafeComponent } from '../store/no-symlink-walk';

const SESSIONS_DIR = '.vtcode/sessions';
const LOG_FILE_MODE = 0o600;

const SessionIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    'a session id is 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit',
  )
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
    throw new SessionLogError(
      `invalid session id ${JSON.stringify(sessionId)}: ${id.error.issues[0]?.message ?? 'rejected'}`,
      root,
    );
  }
  return path.join(root, SESSIONS_DIR, `${id.data}.jsonl`);
}

/** `.vtcode`, `.vtcode/sessions` and the log itself must not be symlinks (a redirect out of the workspace). */
async function assertNoSymlink(fs: FileSystem, root: string, file: string): Promise<void> {
  const unsafe = await firstUnsafeComponent(fs, root, path.relative(root, file), 'file');
  if (unsafe === null || unsafe.problem === 'missing') return;
  if (unsafe.problem === 'symlink')
    throw new SessionLogError(`refusing to write the session log: ${unsafe.at} is a symbolic link`, file);
  throw new SessionLogError(`refusing to write the session log: ${unsafe.at} is a ${unsafe.found}`, file);
}

/** Bytes in a log key; the host makes it with a CSPRNG and keeps it outside the workspace. */
export const LOG_KEY_BYTES = 32;

/** What verifies a session's lines: the workspace's log key and the session the lines belong to. */
export interface LogIntegrity {
  key: Uint8Array;
  sessionId: string;
}

/**
 * Where the next line chains on: `prev` is the tag of the last line that verified (the session's
 * seed before the first), `skipped` the digest of the raw lines after it that did not ('' when
 * none). A writer appending past such lines covers them in its next tag: the session that
 * reopened the log has reported them, so a later resume does not count them as fresh tampering,
 * while any further change to them breaks the chain again.
 */
export interface ChainHead {
  prev: string;
  skipped: string;
}

const TAGGED = /,"mac":"([0-9a-f]{64})"\}$/;

export function initialHead(sessionId: string): ChainHead {
  // The seed binds the chain to the session: a genuine log copied over another session's fails.
  return { prev: `vtplan-session-log/1 ${sessionId}`, skipped: '' };
}

function assertKey(key: Uint8Array, file: string): void {
  if (key.length < LOG_KEY_BYTES)
    throw new SessionLogError(
      `the session-log key has ${key.length} bytes; at least ${LOG_KEY_BYTES} are needed`,
      file,
    );
}

function tagOf(key: Uint8Array, head: ChainHead, body: string): string {
  return macOf(key, head, body).toString('hex');
}

function macOf(key: Uint8Array, head: ChainHead, body: string): Buffer {
  // No part contains a newline (JSON.stringify escapes them), so the joined input is unambiguous.
  return createHmac('sha256', key).update(`${head.prev}\n${head.skipped}\n`).update(body).digest();
}

/**
 * The line that stores `body` (an event serialized as one JSON object) chained on `head`: the
 * same object with a last field `"mac"`, so it stays one readable JSON object per line.
 */
export function sealLine(key: Uint8Array, head: ChainHead, body: string): { line: string; head: ChainHead } {
  if (!body.startsWith('{"') || !body.endsWith('}') || body.includes('\n'))
    throw new SessionLogError('only a one-line JSON object can be sealed', '');
  const tag = tagOf(key, head, body);
  return { line: `${body.slice(0, -1)},"mac":"${tag}"}`, head: { prev: tag, skipped: '' } };
}

type DeltaEvent = EventOf<'message.delta'> | EventOf<'plan.delta'> | EventOf<'reasoning.delta'>;

function isDelta(event: SessionEvent): event is DeltaEvent {
  return event.type === 'message.delta' || event.type === 'plan.delta' || event.type === 'reasoning.delta';
}

/**
 * Coalescing bounds: a delta line is written once this much text is pending, or this long after
 * its first delta arrived, whichever comes first, so a crash loses at most that much of a stream.
 */
const MAX_PENDING_CHARS = 64 * 1024;
const MAX_PENDING_MS = 1_000;

interface PendingDeltas {
  last: DeltaEvent;
  parts: string[];
  chars: number;
  timer: ReturnType<typeof setTimeout>;
}

/** A last line cut short by a crash gets its newline, so new events never merge into it. */
async function closeCutLine(fs: AppendFileSystem, file: string, existing: string): Promise<void> {
  if (existing !== '' && !existing.endsWith('\n')) await fs.appendText(file, '\n', LOG_FILE_MODE);
}

/** Settles when both writes did; rejects with the first failure (neither is left unobserved). */
function both(a: Promise<void> | null, b: Promise<void> | null): Promise<void> {
  if (a && b) return Promise.all([a, b]).then(() => undefined);
  return a ?? b ?? Promise.resolve();
}

export interface SessionLogOptions {
  /** The workspace's log key. */
  key: Uint8Array;
  /** API keys to mask in every line. */
  secrets?: readonly string[];
}

export class SessionLog {
  /** Appends are chained so that events land in the order they were given, even when not awaited. */
  private tail: Promise<void> = Promise.resolve();
  private pending: PendingDeltas | null = null;
  /** A write no caller was waiting for (a timed delta flush) failed: the next append or sync reports it. */
  private failure: unknown = null;
  /** Lines were appended since the last fsync. */
  private unsynced = false;
  /**
   * Opened at the first write after an fsync and closed by the next fsync (turn boundaries,
   * approval changes, sync(), close()): an open per event was most of an append's cost, and a log
   * whose session is dropped without close() holds no file open once its turn has ended.
   */
  private appender: Promise<AppendHandle> | null = null;

  private constructor(
    private readonly fs: FileSystem & AppendFileSystem,
    readonly path: string,
    private readonly key: Uint8Array,
    private readonly secrets: readonly string[],
    private head: ChainHead,
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
    options: SessionLogOptions,
  ): Promise<SessionLog> {
    const file = sessionLogPath(root, sessionId);
    assertKey(options.key, file);
    await assertNoSymlink(fs, root, file);
    await fs.mkdirp(path.dirname(file));
    await assertNoSymlink(fs, root, file);
    // Every session (extension and CLI, new and resumed) opens its log here, so this is where
    // `.vtcode/` comes into being. The ignore file is a courtesy to Source Control: a session
    // never fails over it.
    await ensureRuntimeGitignore(fs, root).catch(() => undefined);
    const existing = await fs.readText(file);
    if (existing === null)
      await fs.appendText(file, '', LOG_FILE_MODE); // created private (0600) right away
    else await closeCutLine(fs, file, existing);
    const head =
      existing === null ? initialHead(sessionId) : parseSessionLog(existing, { key: options.key, sessionId }).head;
    return new SessionLog(fs, file, options.key, options.secrets ?? [], head);
  }

  /**
   * Opens the existing log of `sessionId` to go on appending, and returns what it holds, read
   * once (a resume used to read a long log twice: once to verify it, once to open it). `null`
   * when there is no log; nothing is created then.
   */
  static async reopen(
    fs: FileSystem & AppendFileSystem,
    root: string,
    sessionId: string,
    options: SessionLogOptions,
  ): Promise<{ log: SessionLog; contents: SessionLogContents } | null> {
    const file = sessionLogPath(root, sessionId);
    assertKey(options.key, file);
    await assertNoSymlink(fs, root, file);
    const existing = await fs.readText(file);
    if (existing === null) return null;
    await ensureRuntimeGitignore(fs, root).catch(() => undefined);
    await closeCutLine(fs, file, existing);
    const contents = parseSessionLog(existing, { key: options.key, sessionId });
    return { log: new SessionLog(fs, file, options.key, options.secrets ?? [], contents.head), contents };
  }

  /**
   * Validates, redacts, seals and appends one event; fsyncs after turn boundaries and approval
   * changes. A delta is held back to be coalesced with the deltas of its kind that follow; any
   * other event writes the held deltas first.
   */
  append(event: SessionEvent): Promise<void> {
    const valid = SessionEventSchema.parse(event);
    const earlier = this.takeFailure();
    const write = isDelta(valid) ? this.hold(valid) : both(this.flush(), this.enqueue(valid));
    return both(earlier, write);
  }

  /** Writes the held deltas, waits for pending appends and fsyncs the file. */
  async sync(): Promise<void> {
    await this.settle();
    await this.serial(() => this.syncAndRelease());
  }

  /**
   * The session is ending: the held deltas and every queued append are written, and the file is
   * fsync'd unless nothing reached it since the last fsync (a log removed meanwhile by the user
   * is then no error).
   */
  async close(): Promise<void> {
    await this.settle();
    if (this.unsynced) await this.sync();
  }

  /** Runs `work` after every write queued before it; a failure goes to its caller, later work still runs. */
  private serial(work: () => Promise<void>): Promise<void> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async syncAndRelease(): Promise<void> {
    const handle = await this.handle();
    await handle.sync();
    this.unsynced = false;
    this.appender = null;
    await handle.close();
  }

  private handle(): Promise<AppendHandle> {
    this.appender ??= this.fs.openAppend(this.path, LOG_FILE_MODE).catch((err: unknown) => {
      this.appender = null; // the next write tries again
      throw err;
    });
    return this.appender;
  }

  private async settle(): Promise<void> {
    await this.flush();
    await this.tail;
    const failed = this.takeFailure();
    if (failed) await failed;
  }

  private takeFailure(): Promise<never> | null {
    if (this.failure === null) return null;
    const err = this.failure;
    this.failure = null;
    return Promise.reject(err instanceof Error ? err : new SessionLogError(String(err), this.path));
  }

  private hold(delta: DeltaEvent): Promise<void> {
    const held = this.pending;
    let flushed: Promise<void> | null = null;
    if (held && held.last.type === delta.type && held.last.turn === delta.turn) {
      held.parts.push(delta.text);
      held.chars += delta.text.length;
      held.last = delta;
    } else {
      flushed = this.flush();
      const timer = setTimeout(() => {
        this.flush()?.catch((err: unknown) => {
          this.failure ??= err;
        });
      }, MAX_PENDING_MS);
      // A pending flush must not keep a finished CLI process alive; sync() at turn end writes it anyway.
      if (typeof timer === 'object' && 'unref' in timer) timer.unref();
      this.pending = { last: delta, parts: [delta.text], chars: delta.text.length, timer };
    }
    const full = this.pending && this.pending.chars >= MAX_PENDING_CHARS ? this.flush() : null;
    return both(flushed, full);
  }

  /** Queues the held deltas as one event (the last delta's envelope, the whole text); null when none are held. */
  private flush(): Promise<void> | null {
    const held = this.pending;
    if (!held) return null;
    this.pending = null;
    clearTimeout(held.timer);
    return this.enqueue({ ...held.last, text: held.parts.join('') });
  }

  private enqueue(event: SessionEvent): Promise<void> {
    return this.serial(async () => {
      const body = redactSecrets(JSON.stringify(event), this.secrets);
      const sealed = sealLine(this.key, this.head, body);
      await (await this.handle()).append(`${sealed.line}\n`);
      // Only a line that reached the file moves the chain on.
      this.head = sealed.head;
      this.unsynced = true;
      if (DURABLE.has(event.type)) await this.syncAndRelease();
    });
  }
}

type LogProblemKind =
  /** The last line has no newline and does not parse: a write cut short (tolerated, reported). */
  | 'truncated'
  | 'invalid_json'
  /** Parses as JSON but is not a known, well-formed event. */
  | 'invalid_event'
  /** `seq` did not increase: lines were reordered or two writers shared the file. */
  | 'out_of_order'
  /** No integrity tag, or one that does not verify: the runtime did not write this line here. */
  | 'unverified';

interface LogProblem {
  /** 1-based line number in the file. */
  line: number;
  kind: LogProblemKind;
  message: string;
  /** For `unverified`: the line has no tag at all, or a tag that does not match. */
  tag?: 'missing' | 'mismatch';
  /**
   * A later line the runtime wrote covers this one: it was there when the session was last
   * reopened, which reported it. Still never applied.
   */
  acknowledged?: boolean;
}

export interface SessionLogContents {
  /** The events of the lines that verified, in order: the only ones a session is rebuilt from. */
  events: SessionEvent[];
  problems: LogProblem[];
  /** Where a writer appending to this log chains on. */
  head: ChainHead;
}

/** A line without an integrity tag: a cut-short last write, broken JSON, or a line the runtime did not write. */
function untaggedProblem(raw: string, line: number, cutShort: boolean): LogProblem {
  try {
    JSON.parse(raw);
  } catch (err) {
    const reason = errorMessage(err);
    return cutShort
      ? { line, kind: 'truncated', message: `last line is incomplete (a write was cut short): ${reason}` }
      : { line, kind: 'invalid_json', message: reason };
  }
  return {
    line,
    kind: 'unverified',
    tag: 'missing',
    message:
      'no integrity tag: the line was not written by VT Code Planning (or by a version before it signed its logs)',
  };
}

/** The event of a verified line, or why it is not one (a verified line can still be malformed or out of place). */
function verifiedEvent(
  body: string,
  line: number,
  sessionId: string,
  lastSeq: number,
): { event: SessionEvent } | { problem: LogProblem } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    return { problem: { line, kind: 'invalid_json', message: errorMessage(err) } };
  }
  const parsed = SessionEventSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { problem: { line, kind: 'invalid_event', message: `${where}${issue?.message ?? 'not an event'}` } };
  }
  if (parsed.data.session !== sessionId) {
    return {
      problem: {
        line,
        kind: 'invalid_event',
        message: `the event belongs to session ${JSON.stringify(parsed.data.session)}`,
      },
    };
  }
  if (parsed.data.seq <= lastSeq)
    return { problem: { line, kind: 'out_of_order', message: `seq ${parsed.data.seq} after seq ${lastSeq}` } };
  return { event: parsed.data };
}

/** The chain a reader walks: the last verified tag, and the lines skipped since (their problems and a running digest). */
class ChainWalk {
  private prev: string;
  private skippedProblems: LogProblem[] = [];
  /** Created by the first skipped line: a log without problems never needs one. */
  private skippedDigest: Hash | null = null;

  constructor(sessionId: string) {
    this.prev = initialHead(sessionId).prev;
  }

  skip(raw: string, problem: LogProblem): void {
    this.skippedProblems.push(problem);
    (this.skippedDigest ??= createHash('sha256')).update(`${raw}\n`);
  }

  /** A verified line covers the ones skipped before it: they were reported when it was written. */
  advance(tag: string): void {
    for (const p of this.skippedProblems) p.acknowledged = true;
    this.prev = tag;
    this.skippedProblems = [];
    this.skippedDigest = null;
  }

  head(): ChainHead {
    return {
      prev: this.prev,
      skipped: this.skippedDigest === null ? '' : this.skippedDigest.copy().digest('hex'),
    };
  }
}

/**
 * Parses and verifies a whole log. Nothing is dropped silently: every line that is not a verified
 * event is a problem, and only verified events are returned.
 */
export function parseSessionLog(text: string, integrity: LogIntegrity): SessionLogContents {
  assertKey(integrity.key, '');
  const events: SessionEvent[] = [];
  const problems: LogProblem[] = [];
  const chain = new ChainWalk(integrity.sessionId);
  const skip = (raw: string, problem: LogProblem): void => {
    problems.push(problem);
    chain.skip(raw, problem);
  };
  const lines = text.split('\n');
  let lastSeq = -1;
  for (const [i, raw] of lines.entries()) {
    const isLast = i === lines.length - 1;
    if (isLast && raw === '') break; // the empty string after the final newline
    const line = i + 1;
    if (raw.trim() === '') {
      skip(raw, { line, kind: 'invalid_json', message: 'empty line' });
      continue;
    }
    const tagged = TAGGED.exec(raw);
    if (!tagged) {
      skip(raw, untaggedProblem(raw, line, isLast && !text.endsWith('\n')));
      continue;
    }
    const body = `${raw.slice(0, tagged.index)}}`;
    if (!timingSafeEqual(Buffer.from(tagged[1] as string, 'hex'), macOf(integrity.key, chain.head(), body))) {
      skip(raw, {
        line,
        kind: 'unverified',
        tag: 'mismatch',
        message:
          'the integrity tag does not match: this line, or one before it, was changed, added, moved or removed outside VT Code, or the log was signed with another key',
      });
      continue;
    }
    chain.advance(tagged[1] as string);
    const verified = verifiedEvent(body, line, integrity.sessionId, lastSeq);
    if ('problem' in verified) {
      problems.push(verified.problem);
      continue;
    }
    lastSeq = verified.event.seq;
    events.push(verified.event);
  }
  return { events, problems, head: chain.head() };
}

/** Reads and verifies the log of `sessionId`; `null` when there is none. */
export async function readSessionLog(
  fs: FileSystem,
  root: string,
  sessionId: string,
  key: Uint8Array,
): Promise<SessionLogContents | null> {
  const text = await fs.readText(sessionLogPath(root, sessionId));
  return text === null ? null : parseSessionLog(text, { key, sessionId });
}

/**
 * The lines a resumed session must not take on trust: every problem the runtime has not accounted
 * for yet (see `LogProblem.acknowledged`), apart from a last line a crash cut short. When there is
 * any, the verified events may still be missing what came after them, so the session resumes
 * without authority: in plan mode, with no pending approval (MODE-1, GATE-5).
 */
export function untrustedLines(contents: SessionLogContents): number[] {
  return contents.problems.filter((p) => !p.acknowledged && p.kind !== 'truncated').map((p) => p.line);
}

function lineList(lines: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j += 1;
    if (j - i >= 2) parts.push(`${lines[i]}\u2013${lines[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(lines[k]));
    i = j + 1;
  }
  return `${lines.length === 1 ? 'line' : 'lines'} ${parts.join(', ')}`;
}

/** What the user is told when a session resumes without authority (see `untrustedLines`). */
export function integrityNotice(contents: SessionLogContents, lines: readonly number[]): string {
  const ignored = `${lineList(lines)} ${lines.length === 1 ? 'was' : 'were'} ignored; resuming in plan mode.`;
  const flagged = contents.problems.filter((p) => lines.includes(p.line));
  if (contents.events.length === 0 && flagged.every((p) => p.tag === 'missing')) {
    return `The session log has no integrity tags (it was written before VT Code Planning signed its logs, or not by VT Code): ${ignored}`;
  }
  if (contents.events.length === 0 && flagged.every((p) => p.kind === 'unverified')) {
    return `The session log could not be verified: ${ignored} It was changed outside VT Code, or signed with a key this computer does not have for this folder (a log copied from another machine or folder, or a replaced key).`;
  }
  return `The session log was changed outside VT Code: ${ignored}`;
}

/** Where an EventSequencer resumes: after the highest seq, in the last turn seen. */
export function resumePoint(events: readonly SessionEvent[]): { seq: number; turn: number } | undefined {
  if (events.length === 0) return undefined;
  // reduce, not Math.max(...): a long session would overflow the argument list.
  return events.reduce((acc, e) => ({ seq: Math.max(acc.seq, e.seq), turn: Math.max(acc.turn, e.turn) }), {
    seq: 0,
    turn: 0,
  });
}
