/**
 * Transcript views of the checklist (TRK-5). Compact: the header plus the single current task
 * (`» …`), header only when all done. Expanded: the header plus the tree, at most 30 rows and
 * then `… N more`. `rowsOf` gives the same rows as data for surfaces that style them (TRK-6).
 */
import { currentItem, formatIndexPath, totalsOf, type Checklist, type TaskStatus } from './model';

const EXPANDED_MAX_ROWS = 30;

export interface TaskRow {
  indexPath: string;
  depth: number;
  description: string;
  status: TaskStatus;
  current: boolean;
  /** Tree prefix drawn before the status symbol, e.g. `│  └ `. */
  branch: string;
}

const SYMBOL: Readonly<Record<TaskStatus, string>> = {
  completed: '✔',
  in_progress: '◐',
  pending: '○',
  blocked: '⚠',
};

function renderHeader(checklist: Checklist): string {
  const t = totalsOf(checklist);
  return `${checklist.title} — ${t.completed}/${t.total} done`;
}

export function rowsOf(checklist: Checklist): TaskRow[] {
  const current = currentItem(checklist);
  const currentPath = current ? formatIndexPath(current.path) : null;
  const rows: TaskRow[] = [];
  const visit = (items: Checklist['items'], prefix: string, path: number[]): void => {
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      const p = [...path, i + 1];
      const indexPath = formatIndexPath(p);
      rows.push({
        indexPath,
        depth: p.length - 1,
        description: item.description,
        status: item.status,
        current: indexPath === currentPath,
        branch: `${prefix}${last ? '└' : '├'} `,
      });
      visit(item.children, `${prefix}${last ? '   ' : '│  '}`, p);
    });
  };
  visit(checklist.items, '', []);
  return rows;
}

export function renderCompact(checklist: Checklist): string {
  const header = renderHeader(checklist);
  const current = currentItem(checklist);
  return current ? `${header}\n» ${current.item.description}` : header;
}

export function renderExpanded(checklist: Checklist, maxRows = EXPANDED_MAX_ROWS): string {
  const rows = rowsOf(checklist);
  const shown = rows
    .slice(0, maxRows)
    .map((r) => `${r.branch}${r.current ? '» ' : ''}${SYMBOL[r.status]} ${r.description}`);
  const hidden = rows.length - shown.length;
  if (hidden > 0) shown.push(`… ${hidden} more`);
  return [renderHeader(checklist), ...shown].join('\n');
}
