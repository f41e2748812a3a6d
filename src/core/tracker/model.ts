/**
 * The task_tracker checklist (TRK-1): a titled tree of items, each with a status and the
 * structured step metadata copied from the plan (files, outcome, verify). Everything here is
 * plain data; operations live in ops.ts, files in markdown.ts / store.ts.
 */

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'blocked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskItem {
  description: string;
  status: TaskStatus;
  files: string[];
  /** `null` when the step names no observable outcome. */
  outcome: string | null;
  verify: string[];
  children: TaskItem[];
}

export interface Checklist {
  title: string;
  items: TaskItem[];
  /** Free text under `## Notes`, `null` when there is none. */
  notes: string | null;
}

export const DEFAULT_TITLE = 'Task Checklist';

export function newItem(description: string, status: TaskStatus = 'pending'): TaskItem {
  return { description, status, files: [], outcome: null, verify: [], children: [] };
}

/** One item with its position in the tree; `path` is 1-based (`[2, 1]` is index_path `2.1`). */
export interface LocatedItem {
  item: TaskItem;
  path: number[];
}

/** Depth-first, parents before children: the order of rows in every view and file. */
export function walk(items: readonly TaskItem[], prefix: number[] = []): LocatedItem[] {
  const out: LocatedItem[] = [];
  items.forEach((item, i) => {
    const path = [...prefix, i + 1];
    out.push({ item, path });
    out.push(...walk(item.children, path));
  });
  return out;
}

export function formatIndexPath(path: readonly number[]): string {
  return path.join('.');
}

export interface Totals {
  total: number;
  completed: number;
  in_progress: number;
  pending: number;
  blocked: number;
  /** completed / total, as a whole percentage (0 for an empty checklist). */
  progress_percent: number;
}

/** Counts every item of the tree, parents and children alike. */
export function totalsOf(checklist: Checklist): Totals {
  const t: Totals = { total: 0, completed: 0, in_progress: 0, pending: 0, blocked: 0, progress_percent: 0 };
  for (const { item } of walk(checklist.items)) {
    t.total += 1;
    t[item.status] += 1;
  }
  t.progress_percent = t.total === 0 ? 0 : Math.floor((t.completed * 100) / t.total);
  return t;
}

/**
 * The task to show as current (TRK-5): the first in_progress leaf, otherwise the first
 * pending or blocked item; `undefined` when everything is done.
 */
export function currentItem(checklist: Checklist): LocatedItem | undefined {
  const all = walk(checklist.items);
  return (
    all.find(({ item }) => item.status === 'in_progress' && item.children.length === 0) ??
    all.find(({ item }) => item.status === 'pending' || item.status === 'blocked')
  );
}

export function cloneChecklist(c: Checklist): Checklist {
  return { title: c.title, notes: c.notes, items: c.items.map(cloneItem) };
}

function cloneItem(i: TaskItem): TaskItem {
  return { ...i, files: [...i.files], verify: [...i.verify], children: i.children.map(cloneItem) };
}

export function sameChecklist(a: Checklist, b: Checklist): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(c: Checklist): unknown {
  const item = (i: TaskItem): unknown => [i.description, i.status, i.files, i.outcome, i.verify, i.children.map(item)];
  return [c.title, c.notes, c.items.map(item)];
}

/** Whitespace-insensitive key for matching descriptions (TRK-2). */
export function descriptionKey(description: string): string {
  return description.trim().replace(/\s+/g, ' ');
}

/** Single-line text: descriptions, titles and outcomes never span lines in the tracker files. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
