/**
 * One task_tracker call against the files: read every artifact, apply, publish (TRK-1..3,
 * TRK-7, STORE-2). Lists and unchanged updates only repair a missing or stale mirror; an
 * identical artifact is never rewritten.
 */
import { NotRegularFileError, type FileSystem } from '../ports';
import { StoreError } from '../store/atomic';
import {
  formatIndexPath,
  totalsOf,
  walk,
  type Checklist,
  type LocatedItem,
  type TaskStatus,
  type Totals,
} from './model';
import { applyCall, TrackerError, type TrackerCall } from './ops';
import { renderCompact, renderExpanded } from './render';
import { loadTracker, saveTracker, type TrackerLocation } from './store';
import { distillPlan } from './distill';

export type DisplayMode = 'compact' | 'expanded';

interface ItemSummary {
  index_path: string;
  description: string;
  status: TaskStatus;
  files: string[];
  outcome: string | null;
  verify: string[];
}

interface ChecklistSummary extends Totals {
  title: string;
  /** Present for `list`, `create` and bulk sync; single-item results carry `changed` instead. */
  items?: ItemSummary[];
  notes?: string | null;
}

export interface TrackerSuccess {
  ok: true;
  status: 'created' | 'updated' | 'unchanged' | 'ok' | 'empty';
  message: string;
  checklist: ChecklistSummary | null;
  changed?: ItemSummary;
  /** The transcript rendering for the chosen display mode (TRK-5). */
  view?: string;
  /** Tracker files rewritten by this call (empty when nothing changed on disk). */
  written: string[];
}

export interface TrackerFailure {
  ok: false;
  error: { code: string; message: string };
}

export type TrackerResult = TrackerSuccess | TrackerFailure;

function summarizeItem({ item, path }: LocatedItem): ItemSummary {
  return {
    index_path: formatIndexPath(path),
    description: item.description,
    status: item.status,
    files: item.files,
    outcome: item.outcome,
    verify: item.verify,
  };
}

function summarize(checklist: Checklist, withItems: boolean): ChecklistSummary {
  const summary: ChecklistSummary = { title: checklist.title, ...totalsOf(checklist) };
  if (withItems) {
    summary.items = walk(checklist.items).map(summarizeItem);
    summary.notes = checklist.notes;
  }
  return summary;
}

function viewOf(checklist: Checklist, mode: DisplayMode): string {
  return mode === 'compact' ? renderCompact(checklist) : renderExpanded(checklist);
}

export function failure(code: string, message: string): TrackerFailure {
  return { ok: false, error: { code, message } };
}

/** Runs one validated call; every expected failure becomes a TrackerFailure, never a throw. */
export async function executeTrackerCall(
  fs: FileSystem,
  loc: TrackerLocation,
  call: TrackerCall,
  display: DisplayMode = 'compact',
): Promise<TrackerResult> {
  try {
    const snapshot = await loadTracker(fs, loc);
    const applied = applyCall(snapshot.checklist, call);
    const checklist = applied.checklist;
    if (!checklist)
      return {
        ok: true,
        status: 'empty',
        message: 'No active checklist. Use action "create" with `items` to start one.',
        checklist: null,
        written: [],
      };
    const changedFiles = applied.kind === 'changed';
    const saved = await saveTracker(fs, loc, snapshot, checklist, { mirrorsOnly: !changedFiles });
    if (saved.externalEdits.length > 0) {
      return failure(
        'external_edit',
        `${saved.externalEdits.map((e) => e.message).join('; ')}. Call {"action":"list"} to see the edited checklist, then retry.`,
      );
    }
    const withItems = call.action === 'list' || call.action === 'create' || call.items !== undefined;
    const base = {
      checklist: summarize(checklist, withItems),
      view: viewOf(checklist, display),
      written: saved.written,
    };
    if (applied.kind === 'read') return { ok: true, status: 'ok', message: 'Current checklist.', ...base };
    const changed = applied.changed ? { changed: summarizeItem(applied.changed) } : {};
    if (applied.kind === 'unchanged')
      return { ok: true, status: 'unchanged', message: applied.message, ...changed, ...base };
    return { ok: true, status: applied.status, message: applied.message, ...changed, ...base };
  } catch (err) {
    if (err instanceof TrackerError) return failure(err.code, err.message);
    if (err instanceof StoreError) return failure(`store_${err.code}`, err.message);
    // Reading is refused for the same links and special files the writer refuses (STORE-2).
    if (err instanceof NotRegularFileError)
      return failure(err.found === 'symlink' ? 'store_symlink' : 'store_not_a_file', err.message);
    throw err;
  }
}

/**
 * The approval handoff (TRK-7): distil the validated plan into the plan's sidecar and the global
 * task file. The plan's steps replace whatever checklist was there; checked steps start completed.
 */
export async function createTrackerFromPlan(
  fs: FileSystem,
  loc: TrackerLocation & { planFile: string },
  planMarkdown: string,
): Promise<TrackerResult> {
  const distilled = distillPlan(planMarkdown);
  if (distilled.items.length === 0) {
    return failure('no_steps', 'The plan has no numbered or checkbox Implementation Steps to turn into tasks.');
  }
  const items = walk(distilled.items).map(({ item, path }) => ({
    // Two spaces a level keep sub-steps under their step (see ops.ts).
    description: `${'  '.repeat(path.length - 1)}${item.description}`,
    status: item.status === 'completed' ? ('completed' as const) : undefined,
    files: item.files,
    outcome: item.outcome ?? '',
    verify: item.verify,
  }));
  return executeTrackerCall(
    fs,
    { ...loc, planActive: true },
    { action: 'create', title: distilled.title, items },
    'expanded',
  );
}
