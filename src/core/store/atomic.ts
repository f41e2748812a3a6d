/**
 * The one private atomic writer for every `.vtcode/` artifact (STORE-2, TRK-7).
 *
 * A write goes: check the path (inside the workspace, no symlink on the way) → read the current
 * content → stage a temp file in the same folder (mode 0600, fsync) → re-check → rename over the
 * target. Readers therefore only ever see the old or the new content, never a partial file.
 *
 * Concurrent external edits. A caller that read the file earlier passes what it read as
 * `expected` (`null` = "it did not exist"). If the file on disk no longer matches, somebody
 * (usually the user in an editor) changed it in between: the writer keeps their edit, writes
 * nothing and reports `externalEdit`. The same check runs a second time right before the rename,
 * against the content read at the start of this write, so an edit made while the temp file was
 * being staged is kept as well. The window left is the one between that last read and the rename
 * itself; no portable file API closes it, and it is a few microseconds wide. The symlink check
 * also runs again right before the rename, for a parent swapped for a link meanwhile.
 *
 * Identical content is never rewritten, so the mtime of an unchanged artifact stays put.
 */
import { posix as path } from 'node:path';
import type { EntryKind, FileSystem } from '../ports';
import { errorMessage } from '../errors';
import { firstUnsafeComponent } from './no-symlink-walk';

export type StoreErrorCode = 'outside_root' | 'symlink' | 'not_a_file' | 'write_failed' | 'invalid_name';

/** A refused or failed write; `code` is stable, the message names the path and the reason. */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

export interface ExternalEdit {
  path: string;
  /** What is on disk now (kept), `null` when the file was deleted. */
  current: string | null;
  message: string;
}

export interface AtomicWriteRequest {
  /** Workspace root (absolute). The target must lie inside it. */
  root: string;
  /** Absolute target path. */
  path: string;
  content: string;
  /**
   * What the caller last read from `path` (`null`: it did not exist). Omit to skip the
   * external-edit check against the caller's view (the write-time re-check still runs).
   */
  expected?: string | null;
}

export interface AtomicWriteResult {
  path: string;
  /** `false` when the content was already identical or an external edit was kept. */
  written: boolean;
  externalEdit?: ExternalEdit;
}

const PRIVATE_FILE_MODE = 0o600;

let tempCounter = 0;
function tempPathFor(target: string): string {
  tempCounter += 1;
  const unique = `${Date.now().toString(36)}${tempCounter.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  // Never ends in `.md` or `.json`, so listings of plans or approval records do not pick up a stray temp file.
  // Keep ATOMIC_TEMP_NAME below in step: the start-up sweep (sweep.ts) removes only its matches.
  return path.join(path.dirname(target), `.${path.basename(target)}.${unique}.tmp`);
}

/**
 * Names tempPathFor produces for the `.md` and `.json` artifacts: a dot, the target's name, the unique part
 * (8 base-36 digits of the clock until 2059, at least one of the counter, up to six random) and
 * `.tmp`. Narrow on purpose: the sweep deletes what matches.
 */
const ATOMIC_TEMP_NAME = /^\.[A-Za-z0-9_][A-Za-z0-9_.-]*\.(?:md|json)\.[0-9a-z]{9,32}\.tmp$/;

/** Whether `name` (a bare file name) is one of this writer's temp files. */
export function isAtomicTempName(name: string): boolean {
  return ATOMIC_TEMP_NAME.test(name);
}

const KIND_NAMES: Record<EntryKind, string> = {
  file: 'a regular file',
  directory: 'a directory',
  symlink: 'a symbolic link',
  other: 'a special file (a FIFO, socket or device)',
};

/**
 * Rejects targets outside `root` and any symlink from the first component below `root` down to
 * the target itself (so `<root>/.vtcode`, `.vtcode/plans` and the file are all covered).
 */
async function assertSafeTarget(fs: FileSystem, root: string, target: string): Promise<void> {
  const normRoot = path.normalize(root);
  const normTarget = path.normalize(target);
  const rel = path.relative(normRoot, normTarget);
  if (!path.isAbsolute(target) || rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new StoreError('outside_root', `refusing to write ${target}: it is not inside the workspace ${root}`, target);
  }
  const unsafe = await firstUnsafeComponent(fs, normRoot, rel, 'file');
  if (unsafe === null || unsafe.problem === 'missing') return;
  if (unsafe.problem === 'symlink') {
    throw new StoreError(
      'symlink',
      `refusing to write ${target}: ${unsafe.last ? 'the file' : `its parent ${unsafe.at}`} is a symbolic link (a redirect out of the workspace's .vtcode folder is not followed)`,
      target,
    );
  }
  throw new StoreError(
    'not_a_file',
    `refusing to write ${target}: ${unsafe.at} is ${KIND_NAMES[unsafe.found]}, expected ${unsafe.last ? 'a regular file' : 'a directory'}`,
    target,
  );
}

function externalEditOf(target: string, current: string | null): ExternalEdit {
  return {
    path: target,
    current,
    message:
      current === null
        ? `${target} was deleted by someone else while it was being updated; the deletion was kept and nothing was written`
        : `${target} was changed by someone else while it was being updated; their edit was kept and nothing was written`,
  };
}

/** One target, checked and read, ready to be staged. */
interface Prepared {
  path: string;
  content: string;
  /** Content on disk when the write began. */
  before: string | null;
}

async function prepare(
  fs: FileSystem,
  req: AtomicWriteRequest,
): Promise<{ prepared?: Prepared; result?: AtomicWriteResult }> {
  const target = path.normalize(req.path);
  await assertSafeTarget(fs, req.root, target);
  const before = await fs.readText(target);
  if (before === req.content) return { result: { path: target, written: false } };
  if (req.expected !== undefined && before !== req.expected) {
    return { result: { path: target, written: false, externalEdit: externalEditOf(target, before) } };
  }
  return { prepared: { path: target, content: req.content, before } };
}

async function stage(fs: FileSystem, root: string, p: Prepared): Promise<string> {
  const dir = path.dirname(p.path);
  await fs.mkdirp(dir);
  // mkdirp follows symlinks; check again now that every parent exists.
  await assertSafeTarget(fs, root, p.path);
  const temp = tempPathFor(p.path);
  try {
    await fs.writeNewFileDurable(temp, p.content, PRIVATE_FILE_MODE);
  } catch (err) {
    await fs.removeFile(temp).catch(() => undefined);
    throw new StoreError('write_failed', `could not write ${p.path}: ${errorMessage(err)}`, p.path, { cause: err });
  }
  return temp;
}

/** Writes one private file atomically. Throws StoreError when the write is refused or fails. */
export async function writePrivateAtomic(fs: FileSystem, req: AtomicWriteRequest): Promise<AtomicWriteResult> {
  const outcome = await publishAtomic(fs, { root: req.root, files: [req] });
  const result = outcome.results[0];
  if (!result) throw new Error('publishAtomic returned no result for a single file');
  return result;
}

export interface PublishRequest {
  root: string;
  files: ReadonlyArray<Omit<AtomicWriteRequest, 'root'>>;
}

export interface PublishResult {
  /** `true` when every changed file was written; `false` when an external edit stopped the publication. */
  published: boolean;
  /** One entry per requested file, in order. */
  results: AtomicWriteResult[];
  externalEdits: ExternalEdit[];
}

/** Thrown when a publication fails part-way; earlier writes were rolled back where possible. */
export class PublishError extends StoreError {
  constructor(
    message: string,
    path: string,
    readonly rollbackFailures: readonly string[],
    options?: { cause?: unknown },
  ) {
    // A refusal found at the last moment (e.g. a parent swapped for a symlink) keeps its code.
    super(options?.cause instanceof StoreError ? options.cause.code : 'write_failed', message, path, options);
    this.name = 'PublishError';
  }
}

/**
 * Publishes several artifacts as one unit (plan + tracker sidecar + global task file).
 * Everything is checked and read first; an external edit found then stops the publication
 * before anything is written. All temp files are staged before the first rename, so the
 * only step that can fail between renames is a rename. When a later rename fails or finds an
 * external edit, earlier renames are undone (previous content restored, or the new file removed
 * when there was none) — unless that earlier file was itself edited meanwhile, which is kept.
 * Rollback failures are listed in the thrown PublishError's message.
 */
export async function publishAtomic(fs: FileSystem, req: PublishRequest): Promise<PublishResult> {
  const { results, pending } = await prepareAll(fs, req);
  const earlyEdits = results.flatMap((r) => (r?.externalEdit ? [r.externalEdit] : []));
  if (earlyEdits.length > 0) {
    for (const { index, prepared } of pending) results[index] = { path: prepared.path, written: false };
    return { published: false, results, externalEdits: earlyEdits };
  }
  const temps = await stageAll(fs, req.root, pending);
  const committed: PendingFile[] = [];
  for (const [i, current] of pending.entries()) {
    const { failure, edit } = await renameUnlessEdited(fs, req.root, current.prepared, temps[i] as string);
    if (failure === undefined && edit === undefined) {
      committed.push(current);
      results[current.index] = { path: current.prepared.path, written: true };
      continue;
    }
    await removeTemps(fs, temps.slice(i));
    const rollback = await rollBack(
      fs,
      committed.map((c) => c.prepared),
    );
    if (edit)
      return stoppedByExternalEdit(results, { committed, current, later: pending.slice(i + 1), edit, rollback });
    throw publishFailure(current.prepared.path, failure, rollback);
  }
  return { published: true, results, externalEdits: [] };
}

interface PendingFile {
  /** Position in the publication request, and so in its results. */
  index: number;
  prepared: Prepared;
}

type Rollback = Awaited<ReturnType<typeof rollBack>>;

/** Checks and reads every file; those already settled (unchanged, or edited externally) get their result now. */
async function prepareAll(
  fs: FileSystem,
  req: PublishRequest,
): Promise<{ results: AtomicWriteResult[]; pending: PendingFile[] }> {
  const results: AtomicWriteResult[] = [];
  const pending: PendingFile[] = [];
  for (const [index, file] of req.files.entries()) {
    const { prepared, result } = await prepare(fs, { ...file, root: req.root });
    if (result) results[index] = result;
    if (prepared) pending.push({ index, prepared });
  }
  return { results, pending };
}

/** Stages a temp file for each pending file, before any rename; on a failure no temp file is left. */
async function stageAll(fs: FileSystem, root: string, pending: readonly PendingFile[]): Promise<string[]> {
  const temps: string[] = [];
  try {
    for (const { prepared } of pending) temps.push(await stage(fs, root, prepared));
  } catch (err) {
    await removeTemps(fs, temps);
    throw err;
  }
  return temps;
}

async function removeTemps(fs: FileSystem, temps: readonly string[]): Promise<void> {
  await Promise.all(temps.map((t) => fs.removeFile(t).catch(() => undefined)));
}

/** The last-moment checks, then the rename; a target edited since it was read is left alone. */
async function renameUnlessEdited(
  fs: FileSystem,
  root: string,
  prepared: Prepared,
  temp: string,
): Promise<{ failure?: unknown; edit?: ExternalEdit }> {
  try {
    await assertSafeTarget(fs, root, prepared.path);
    const now = await fs.readText(prepared.path);
    if (now !== prepared.before) return { edit: externalEditOf(prepared.path, now) };
    await fs.rename(temp, prepared.path);
    return {};
  } catch (err) {
    return { failure: err };
  }
}

/** An external edit found right before a rename: nothing of the publication stays written. */
function stoppedByExternalEdit(
  results: AtomicWriteResult[],
  stop: {
    committed: readonly PendingFile[];
    current: PendingFile;
    later: readonly PendingFile[];
    edit: ExternalEdit;
    rollback: Rollback;
  },
): PublishResult {
  const { committed, current, later, edit, rollback } = stop;
  for (const c of committed) results[c.index] = { path: c.prepared.path, written: false };
  for (const { index, prepared } of later) results[index] = { path: prepared.path, written: false };
  results[current.index] = { path: current.prepared.path, written: false, externalEdit: edit };
  if (rollback.failures.length > 0) {
    throw new PublishError(
      `${edit.message}; rolling back the files already written failed: ${rollback.failures.join('; ')}`,
      current.prepared.path,
      rollback.failures,
    );
  }
  return { published: false, results, externalEdits: [edit, ...rollback.keptEdits] };
}

function publishFailure(target: string, failure: unknown, rollback: Rollback): PublishError {
  const notes = [
    rollback.restored > 0 ? `${rollback.restored} earlier file(s) of this publication were restored` : '',
    rollback.failures.length > 0 ? `rollback failed: ${rollback.failures.join('; ')}` : '',
    rollback.keptEdits.length > 0 ? `kept external edits: ${rollback.keptEdits.map((e) => e.path).join(', ')}` : '',
  ].filter((note) => note !== '');
  return new PublishError(
    [`could not write ${target}: ${errorMessage(failure)}`, ...notes].join('; '),
    target,
    rollback.failures,
    { cause: failure },
  );
}

async function rollBack(
  fs: FileSystem,
  committed: readonly Prepared[],
): Promise<{ restored: number; failures: string[]; keptEdits: ExternalEdit[] }> {
  let restored = 0;
  const failures: string[] = [];
  const keptEdits: ExternalEdit[] = [];
  for (const p of [...committed].reverse()) {
    try {
      const now = await fs.readText(p.path);
      if (now !== p.content) {
        keptEdits.push(externalEditOf(p.path, now));
        continue;
      }
      if (p.before === null) {
        await fs.removeFile(p.path);
        restored += 1;
        continue;
      }
      const temp = tempPathFor(p.path);
      try {
        await fs.writeNewFileDurable(temp, p.before, PRIVATE_FILE_MODE);
        await fs.rename(temp, p.path);
        restored += 1;
      } finally {
        await fs.removeFile(temp).catch(() => undefined);
      }
    } catch (err) {
      failures.push(`${p.path}: ${errorMessage(err)}`);
    }
  }
  return { restored, failures, keptEdits };
}
