/**
 * task_tracker operations over an in-memory checklist (TRK-1..TRK-3). Pure: each call returns a
 * new checklist or throws a TrackerError before anything changes; files are store.ts's job.
 */
import {
  DEFAULT_TITLE,
  cloneChecklist,
  descriptionKey,
  formatIndexPath,
  newItem,
  oneLine,
  sameChecklist,
  walk,
  type Checklist,
  type LocatedItem,
  type TaskItem,
  type TaskStatus,
} from './model';
import { isJsonEncoded, parseStatusPrefix, splitStepSuffixes } from './text';

interface ItemInput {
  description: string;
  status?: TaskStatus;
  files?: string[];
  outcome?: string;
  verify?: string[];
}

/** One validated tool call (tools/task-tracker.ts turns raw JSON into this). */
export interface TrackerCall {
  action: 'create' | 'update' | 'list' | 'add';
  title?: string;
  items?: Array<string | ItemInput>;
  index?: number;
  index_path?: string;
  status?: TaskStatus;
  description?: string;
  files?: string[];
  outcome?: string;
  verify?: string[];
  parent_index_path?: string;
  notes?: string;
}

export type TrackerErrorCode =
  | 'mixed_shape'
  | 'json_string'
  | 'missing_field'
  | 'no_checklist'
  | 'bad_index'
  | 'empty_description'
  | 'ambiguous_metadata';

export class TrackerError extends Error {
  constructor(
    readonly code: TrackerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TrackerError';
  }
}

export type ApplyResult =
  | { kind: 'changed'; status: 'created' | 'updated'; checklist: Checklist; message: string; changed?: LocatedItem }
  | { kind: 'unchanged'; checklist: Checklist; message: string; changed?: LocatedItem }
  | { kind: 'read'; checklist: Checklist | null };

/** Applies one call to `current` (null: no checklist yet). Never mutates `current`. */
export function applyCall(current: Checklist | null, call: TrackerCall): ApplyResult {
  preflight(call);
  switch (call.action) {
    case 'list':
      return { kind: 'read', checklist: current };
    case 'create':
      return create(current, call);
    case 'add':
      return add(requireChecklist(current), call);
    case 'update':
      if (call.items !== undefined) return bulkSync(current, call);
      return updateOne(requireChecklist(current), call);
  }
}

/** Shape checks that must fail before any change (TRK-1, TRK-3). */
function preflight(call: TrackerCall): void {
  if (call.items !== undefined && (call.index !== undefined || call.index_path !== undefined)) {
    throw new TrackerError(
      'mixed_shape',
      '`items` replaces the whole checklist and cannot be combined with `index`/`index_path`; send either `items` (bulk sync) or one `index_path` with `status`.',
    );
  }
  if (call.index !== undefined && call.index_path !== undefined) {
    throw new TrackerError(
      'mixed_shape',
      'Give either `index` or `index_path`, not both (e.g. {"action":"update","index_path":"2.1","status":"completed"}).',
    );
  }
  if (call.parent_index_path !== undefined && call.action !== 'add') {
    throw new TrackerError('mixed_shape', '`parent_index_path` is only used with action "add".');
  }
  const texts: Array<[string, string | undefined]> = [
    ['title', call.title],
    ['description', call.description],
    ['notes', call.notes],
  ];
  (call.items ?? []).forEach((it, i) => texts.push([`items[${i}]`, typeof it === 'string' ? it : it.description]));
  for (const [where, text] of texts) {
    if (text !== undefined && (isJsonEncoded(text) || isJsonEncoded(parseStatusPrefix(text).rest))) {
      throw new TrackerError(
        'json_string',
        `${where} is a JSON-encoded string; send real JSON instead, e.g. items: ["[x] Review links"] or {"description":"Review links","status":"completed"}. Nothing was changed.`,
      );
    }
  }
}

function requireChecklist(current: Checklist | null): Checklist {
  if (!current) throw new TrackerError('no_checklist', 'No active checklist. Use action "create" with `items` first.');
  return current;
}

/** Fields given explicitly (or through `-> files:` suffixes) for one new item. */
interface Draft {
  depth: number;
  item: TaskItem;
  explicit: { files: boolean; outcome: boolean; verify: boolean };
}

function draftFrom(input: string | ItemInput, where: string): Draft {
  const raw = typeof input === 'string' ? input : input.description;
  const depth = Math.floor((/^ */.exec(raw.replace(/\t/g, '  '))?.[0].length ?? 0) / 2);
  const prefixed = parseStatusPrefix(raw);
  const parts = splitStepSuffixes(prefixed.rest);
  const description = oneLine(parts.action);
  if (description === '') throw new TrackerError('empty_description', `${where} has an empty description.`);
  const obj = typeof input === 'string' ? undefined : input;
  const files = obj?.files ?? parts.files;
  const outcome = obj?.outcome ?? parts.outcome;
  const verify = obj?.verify ?? parts.verify;
  const item = newItem(description, obj?.status ?? prefixed.status ?? 'pending');
  if (files) item.files = cleanList(files);
  if (outcome !== undefined) item.outcome = oneLine(outcome) || null;
  if (verify) item.verify = cleanList(verify);
  return {
    depth,
    item,
    explicit: { files: files !== undefined, outcome: outcome !== undefined, verify: verify !== undefined },
  };
}

function cleanList(values: readonly string[]): string[] {
  return values.map(oneLine).filter((v) => v.length > 0);
}

/** Indentation (two spaces a level) nests an item under the one before it. */
function treeOf(drafts: readonly Draft[]): TaskItem[] {
  const roots: TaskItem[] = [];
  const stack: TaskItem[] = [];
  for (const d of drafts) {
    const depth = Math.min(d.depth, stack.length);
    stack.length = depth;
    const parent = stack[depth - 1];
    (parent ? parent.children : roots).push(d.item);
    stack.push(d.item);
  }
  return roots;
}

function hasMetadata(i: TaskItem): boolean {
  return i.files.length > 0 || i.outcome !== null || i.verify.length > 0;
}

/**
 * TRK-2: omitted metadata carries over only for descriptions that occur exactly once in both
 * the old and the new list; a repeated description whose old copies carry metadata must say
 * all three fields explicitly so checks never move to the wrong task.
 */
function carryMetadata(old: Checklist | null, drafts: readonly Draft[]): void {
  const oldByKey = new Map<string, TaskItem[]>();
  for (const { item } of walk(old?.items ?? [])) {
    const k = descriptionKey(item.description);
    oldByKey.set(k, [...(oldByKey.get(k) ?? []), item]);
  }
  const newCount = new Map<string, number>();
  for (const d of drafts) {
    const k = descriptionKey(d.item.description);
    newCount.set(k, (newCount.get(k) ?? 0) + 1);
  }
  for (const d of drafts) {
    const k = descriptionKey(d.item.description);
    const olds = oldByKey.get(k) ?? [];
    const allExplicit = d.explicit.files && d.explicit.outcome && d.explicit.verify;
    if (allExplicit || olds.length === 0) continue;
    const only = olds[0];
    if (olds.length === 1 && newCount.get(k) === 1 && only) {
      if (!d.explicit.files) d.item.files = [...only.files];
      if (!d.explicit.outcome) d.item.outcome = only.outcome;
      if (!d.explicit.verify) d.item.verify = [...only.verify];
      continue;
    }
    if (olds.some(hasMetadata)) {
      throw new TrackerError(
        'ambiguous_metadata',
        `"${d.item.description}" occurs more than once and already carries files/outcome/verify; give explicit \`files\`, \`outcome\` and \`verify\` for each copy (use [] and "" to clear). Nothing was changed.`,
      );
    }
  }
}

function draftsOf(items: ReadonlyArray<string | ItemInput>): Draft[] {
  return items.map((it, i) => draftFrom(it, `items[${i}]`));
}

function appendNotes(existing: string | null, note: string | undefined): string | null {
  const n = note?.trim();
  if (!n) return existing;
  if (existing === null || existing === '') return n;
  // Only a repeat of the last note is skipped (TRK-3): a new note that merely ends like it is appended.
  return existing === n || existing.endsWith(`\n\n${n}`) ? existing : `${existing}\n\n${n}`;
}

function create(current: Checklist | null, call: TrackerCall): ApplyResult {
  if (!call.items || call.items.length === 0) {
    throw new TrackerError(
      'missing_field',
      'action "create" needs a non-empty `items` list, e.g. items: ["First step", "Second step"].',
    );
  }
  const drafts = draftsOf(call.items);
  const title = oneLine(call.title ?? '') || current?.title || DEFAULT_TITLE;
  if (current && restatesCurrent(current, title, drafts) && call.notes === undefined) {
    return {
      kind: 'unchanged',
      checklist: current,
      message: 'Checklist already active with these steps; current progress kept.',
    };
  }
  carryMetadata(current, drafts);
  const next: Checklist = { title, items: treeOf(drafts), notes: appendNotes(null, call.notes) };
  if (current && sameChecklist(current, next)) {
    return {
      kind: 'unchanged',
      checklist: current,
      message: 'Requested checklist already matches the current tracker.',
    };
  }
  return { kind: 'changed', status: 'created', checklist: next, message: 'Task checklist created.' };
}

/** A plain re-create of the same steps (no statuses, no metadata) must not wipe progress. */
function restatesCurrent(current: Checklist, title: string, drafts: readonly Draft[]): boolean {
  const flat = walk(current.items);
  return (
    current.title === title &&
    flat.length === drafts.length &&
    drafts.every(
      (d, i) =>
        d.item.status === 'pending' &&
        !d.explicit.files &&
        !d.explicit.outcome &&
        !d.explicit.verify &&
        d.depth === (flat[i]?.path.length ?? 0) - 1 &&
        descriptionKey(d.item.description) === descriptionKey(flat[i]?.item.description ?? ''),
    )
  );
}

function bulkSync(current: Checklist | null, call: TrackerCall): ApplyResult {
  const drafts = draftsOf(call.items ?? []);
  if (drafts.length === 0)
    throw new TrackerError('missing_field', '`items` is empty; bulk sync needs the complete checklist.');
  carryMetadata(current, drafts);
  const next: Checklist = {
    title: oneLine(call.title ?? '') || current?.title || DEFAULT_TITLE,
    items: treeOf(drafts),
    notes: appendNotes(current?.notes ?? null, call.notes),
  };
  if (current && sameChecklist(current, next)) {
    return {
      kind: 'unchanged',
      checklist: current,
      message: 'Checklist already matches these items; nothing to change.',
    };
  }
  return {
    kind: 'changed',
    status: current ? 'updated' : 'created',
    checklist: next,
    message: 'Checklist synchronized from `items`.',
  };
}

function parseIndexPath(text: string, field: string): number[] {
  const t = text.trim();
  if (!/^\d+(\.\d+)*$/.test(t))
    throw new TrackerError('bad_index', `${field} "${text}" is not a path like "2" or "2.1".`);
  const path = t.split('.').map(Number);
  if (path.some((n) => n < 1))
    throw new TrackerError('bad_index', `${field} "${text}" must use positive 1-based numbers.`);
  return path;
}

function locate(items: TaskItem[], path: readonly number[], field: string): TaskItem {
  let level = items;
  let found: TaskItem | undefined;
  const walked: number[] = [];
  for (const n of path) {
    found = level[n - 1];
    if (!found) {
      const where = walked.length === 0 ? 'the checklist has' : `item ${formatIndexPath(walked)} has`;
      throw new TrackerError(
        'bad_index',
        `No item at ${field} ${formatIndexPath(path)}: ${where} ${level.length} item(s).`,
      );
    }
    walked.push(n);
    level = found.children;
  }
  if (!found) throw new TrackerError('bad_index', `${field} is empty.`);
  return found;
}

function updateOne(current: Checklist, call: TrackerCall): ApplyResult {
  if (call.index === undefined && call.index_path === undefined) {
    throw new TrackerError(
      'missing_field',
      'action "update" needs `index_path` (or `index`) with `status`, or `items` for a bulk sync.',
    );
  }
  if (call.index === 0) return completeAll(current, call);
  const { path, field } = updateTarget(call);
  const next = cloneChecklist(current);
  const item = locate(next.items, path, field);
  const before = item.status;
  applyUpdate(item, call);
  next.notes = appendNotes(next.notes, call.notes);
  const label = formatIndexPath(path);
  if (sameChecklist(current, next)) {
    return {
      kind: 'unchanged',
      checklist: current,
      changed: { item: locate(current.items, path, field), path },
      message: `Item ${label} already has that state; nothing to change.`,
    };
  }
  const message =
    before === item.status ? `Item ${label} updated.` : `Item ${label} status changed: ${before} → ${item.status}.`;
  return { kind: 'changed', status: 'updated', checklist: next, message, changed: { item, path } };
}

/** `index: 0` completes the whole checklist. */
function completeAll(current: Checklist, call: TrackerCall): ApplyResult {
  if (call.status !== 'completed') {
    throw new TrackerError(
      'bad_index',
      '`index: 0` is reserved for completing the whole checklist and needs status "completed"; items are numbered from 1.',
    );
  }
  const next = cloneChecklist(current);
  for (const { item } of walk(next.items)) item.status = 'completed';
  next.notes = appendNotes(next.notes, call.notes);
  if (sameChecklist(current, next))
    return { kind: 'unchanged', checklist: current, message: 'Every item is already completed.' };
  return { kind: 'changed', status: 'updated', checklist: next, message: 'Whole checklist marked completed.' };
}

/** The item an update names, and the field it was named by; refuses an update that changes nothing. */
function updateTarget(call: TrackerCall): { path: number[]; field: string } {
  const field = call.index_path !== undefined ? 'index_path' : 'index';
  const path = call.index_path !== undefined ? parseIndexPath(call.index_path, field) : [call.index as number];
  if (path.some((n) => !Number.isInteger(n) || n < 1))
    throw new TrackerError('bad_index', 'index must be a positive 1-based integer.');
  const touches = [call.status, call.description, call.files, call.outcome, call.verify, call.notes].some(
    (v) => v !== undefined,
  );
  if (!touches)
    throw new TrackerError(
      'missing_field',
      'Nothing to update: give `status` (pending, in_progress, completed, blocked) or new metadata.',
    );
  return { path, field };
}

/** A new description may carry a status prefix and metadata; explicit fields of the call win over both. */
function applyUpdate(item: TaskItem, call: TrackerCall): void {
  if (call.description !== undefined) {
    const d = draftFrom(call.description, 'description');
    item.description = d.item.description;
    if (call.status === undefined && parseStatusPrefix(call.description).status !== undefined)
      item.status = d.item.status;
    if (d.explicit.files) item.files = d.item.files;
    if (d.explicit.outcome) item.outcome = d.item.outcome;
    if (d.explicit.verify) item.verify = d.item.verify;
  }
  if (call.status !== undefined) item.status = call.status;
  if (call.files !== undefined) item.files = cleanList(call.files);
  if (call.outcome !== undefined) item.outcome = oneLine(call.outcome) || null;
  if (call.verify !== undefined) item.verify = cleanList(call.verify);
}

function add(current: Checklist, call: TrackerCall): ApplyResult {
  if (call.description === undefined) throw new TrackerError('missing_field', 'action "add" needs `description`.');
  const next = cloneChecklist(current);
  const d = draftFrom(call.description.trim(), 'description');
  const item = d.item;
  if (call.status !== undefined) item.status = call.status;
  if (call.files !== undefined) item.files = cleanList(call.files);
  if (call.outcome !== undefined) item.outcome = oneLine(call.outcome) || null;
  if (call.verify !== undefined) item.verify = cleanList(call.verify);
  let siblings = next.items;
  let prefix: number[] = [];
  if (call.parent_index_path !== undefined) {
    prefix = parseIndexPath(call.parent_index_path, 'parent_index_path');
    siblings = locate(next.items, prefix, 'parent_index_path').children;
  }
  siblings.push(item);
  next.notes = appendNotes(next.notes, call.notes);
  const path = [...prefix, siblings.length];
  return {
    kind: 'changed',
    status: 'updated',
    checklist: next,
    message: `Added item ${formatIndexPath(path)}.`,
    changed: { item, path },
  };
}
