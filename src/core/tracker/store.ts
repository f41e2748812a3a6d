/**
 * Where the checklist lives on disk and which copy wins (file-formats.md, STORE-2, TRK-7).
 * While a plan is active its sidecar wins over the global task file; otherwise the newer of the
 * two (by mtime) wins. The loser is mirrored from the winner. Every write goes through the
 * shared private atomic writer as one publication, so a failure rolls earlier files back and a
 * concurrent hand edit is kept.
 */
import { posix as path } from 'node:path';
import type { FileSystem } from '../ports';
import { publishAtomic, type ExternalEdit } from '../store/atomic';
import { sameChecklist, type Checklist } from './model';
import { parseTrackerMarkdown, renderTrackerMarkdown, type TrackerFileKind } from './markdown';

export const PLANS_DIR = '.vtcode/plans';
export const GLOBAL_TRACKER_FILE = '.vtcode/tasks/current_task.md';

export interface TrackerLocation {
  /** Workspace root, absolute. */
  root: string;
  /** The plan file (`.vtcode/plans/<slug>.md`), absolute or relative to `root`. */
  planFile?: string;
  /** Plan mode with this plan: its sidecar wins regardless of mtimes. */
  planActive?: boolean;
}

/** `.vtcode/plans/x.md` → `.vtcode/plans/x.tasks.md`. */
export function sidecarPathFor(planFile: string): string {
  const dir = path.dirname(planFile);
  const base = path.basename(planFile).replace(/\.md$/i, '');
  return path.join(dir, `${base}.tasks.md`);
}

function globalTrackerPath(root: string): string {
  return path.join(root, GLOBAL_TRACKER_FILE);
}

interface TrackerFileState {
  kind: TrackerFileKind;
  path: string;
  /** Raw text, `null` when missing. */
  content: string | null;
  mtimeMs: number | null;
  checklist: Checklist | null;
}

export interface TrackerSnapshot {
  checklist: Checklist | null;
  source: TrackerFileKind | null;
  sidecar: TrackerFileState | null;
  global: TrackerFileState;
}

async function readState(fs: FileSystem, kind: TrackerFileKind, file: string): Promise<TrackerFileState> {
  const content = await fs.readText(file);
  const stat = content === null ? null : await fs.lstat(file);
  return {
    kind,
    path: file,
    content,
    mtimeMs: stat?.mtimeMs ?? null,
    checklist: content === null ? null : parseTrackerMarkdown(content),
  };
}

function resolvePlanFile(loc: TrackerLocation): string | null {
  if (loc.planFile === undefined) return null;
  return path.isAbsolute(loc.planFile) ? path.normalize(loc.planFile) : path.join(loc.root, loc.planFile);
}

/** Picks the winning copy by the precedence rules above. */
function chooseSource(
  sidecar: TrackerFileState | null,
  global: TrackerFileState,
  planActive: boolean,
): TrackerFileKind | null {
  const s = sidecar?.checklist ? sidecar : null;
  const g = global.checklist ? global : null;
  if (s && (planActive || !g)) return 'sidecar';
  if (!g) return null;
  if (!s) return 'global';
  return (s.mtimeMs ?? 0) > (g.mtimeMs ?? 0) ? 'sidecar' : 'global';
}

/** Reads every tracker artifact first (STORE-2) and decides which one is the checklist. */
export async function loadTracker(fs: FileSystem, loc: TrackerLocation): Promise<TrackerSnapshot> {
  const planFile = resolvePlanFile(loc);
  const sidecar = planFile ? await readState(fs, 'sidecar', sidecarPathFor(planFile)) : null;
  const global = await readState(fs, 'global', globalTrackerPath(loc.root));
  const source = chooseSource(sidecar, global, loc.planActive === true);
  const checklist = source === 'sidecar' ? (sidecar?.checklist ?? null) : source === 'global' ? global.checklist : null;
  return { checklist, source, sidecar, global };
}

export interface SaveOutcome {
  /** Files actually rewritten. */
  written: string[];
  /** Hand edits found on disk and kept; nothing was written when this is non-empty. */
  externalEdits: ExternalEdit[];
}

/**
 * Publishes `checklist`. With `mirrorsOnly` (reads and unchanged updates) only a copy that is
 * missing or says something else is rewritten, so an identical artifact keeps its bytes and mtime.
 */
export async function saveTracker(
  fs: FileSystem,
  loc: TrackerLocation,
  snapshot: TrackerSnapshot,
  checklist: Checklist,
  options: { mirrorsOnly?: boolean } = {},
): Promise<SaveOutcome> {
  const targets = [snapshot.sidecar, snapshot.global].filter((s): s is TrackerFileState => s !== null);
  const files = targets
    .filter((t) => !options.mirrorsOnly || !t.checklist || !sameChecklist(t.checklist, checklist))
    .map((t) => ({ path: t.path, content: renderTrackerMarkdown(checklist, t.kind), expected: t.content }));
  if (files.length === 0) return { written: [], externalEdits: [] };
  const result = await publishAtomic(fs, { root: loc.root, files });
  return {
    written: result.published ? result.results.filter((r) => r.written).map((r) => r.path) : [],
    externalEdits: result.externalEdits,
  };
}

/** `.vtcode/plans/x.tasks.md` → `.vtcode/plans/x.md`. */
function planPathForSidecar(sidecar: string): string {
  return sidecar.replace(/\.tasks\.md$/i, '.md');
}

/**
 * Where a reader with no plan of its own (the Tasks view) finds the checklist: the newest plan
 * sidecar, weighed against the global task file by loadTracker's precedence rules.
 */
export async function locateNewestTracker(fs: FileSystem, root: string): Promise<TrackerLocation> {
  const dir = path.join(root, PLANS_DIR);
  const dirStat = await fs.lstat(dir);
  if (dirStat?.kind !== 'directory') return { root };
  let newest: { file: string; mtimeMs: number } | null = null;
  for (const entry of await fs.readDir(dir)) {
    if (entry.kind !== 'file' || !/\.tasks\.md$/i.test(entry.name)) continue;
    const file = path.join(dir, entry.name);
    const stat = await fs.lstat(file);
    if (stat && (newest === null || stat.mtimeMs > newest.mtimeMs)) newest = { file, mtimeMs: stat.mtimeMs };
  }
  return newest ? { root, planFile: planPathForSidecar(newest.file), planActive: false } : { root };
}
