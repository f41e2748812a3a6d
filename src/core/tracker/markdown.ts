/**
 * The two tracker files (file-formats.md): the plan sidecar `.vtcode/plans/<slug>.tasks.md`
 * (`## Plan of Work`, in progress written `[~]`) and the global `.vtcode/tasks/current_task.md`
 * (no section heading, in progress written `[/]`). Both nest children two spaces deeper and put
 * metadata lines two spaces under their item. As in VT Code, an inline `verify:` is one command
 * (commas and all) and several commands are an indented block (`verify:` then `- command`
 * lines); `files:` is a comma list, written as a block only when a path would not survive that.
 */
import { DEFAULT_TITLE, newItem, oneLine, type Checklist, type TaskItem } from './model';
import { listIsInlineSafe, parseStatusPrefix, splitList, statusMark } from './text';

export type TrackerFileKind = 'sidecar' | 'global';

export function renderTrackerMarkdown(checklist: Checklist, kind: TrackerFileKind): string {
  const lines = [`# ${oneLine(checklist.title) || DEFAULT_TITLE}`, ''];
  if (kind === 'sidecar') lines.push('## Plan of Work', '');
  const mark = kind === 'sidecar' ? '~' : '/';
  const emit = (item: TaskItem, depth: number): void => {
    const pad = '  '.repeat(depth);
    lines.push(`${pad}- ${statusMark(item.status, mark)} ${item.description}`);
    pushList(lines, `${pad}  `, 'files', item.files, listIsInlineSafe(item.files));
    if (item.outcome !== null) lines.push(`${pad}  outcome: ${item.outcome}`);
    pushList(lines, `${pad}  `, 'verify', item.verify, item.verify.length === 1);
    for (const child of item.children) emit(child, depth + 1);
  };
  for (const item of checklist.items) emit(item, 0);
  const notes = checklist.notes?.trim();
  if (notes) lines.push('', '## Notes', '', notes);
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

function pushList(lines: string[], pad: string, key: string, entries: readonly string[], inline: boolean): void {
  if (entries.length === 0) return;
  if (inline) {
    lines.push(`${pad}${key}: ${entries.join(', ')}`);
    return;
  }
  lines.push(`${pad}${key}:`);
  for (const e of entries) lines.push(`${pad}  - ${e}`);
}

const ITEM = /^[-*+] \[[ xX~/!]\](?:\s|$)/;
const META = /^(files|outcome|verify)\s*:\s*(.*)$/i;
/** The Notes heading as written (`## Notes`) and as people often type it by hand (`## Notes:`). */
const NOTES_HEADING = /^##\s+notes\s*:?$/i;

/**
 * Reads either tracker file (and VT Code's own). Lines it does not understand are skipped;
 * `null` when the text holds neither a title nor an item.
 */
export function parseTrackerMarkdown(text: string): Checklist | null {
  let title: string | null = null;
  const roots: TaskItem[] = [];
  const stack: Array<{ item: TaskItem; indent: number }> = [];
  const notes: string[] = [];
  let inNotes = false;
  let block: { key: 'files' | 'verify'; indent: number } | null = null;

  for (const rawLine of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.replace(/^\t+/, (tabs) => '  '.repeat(tabs.length));
    const trimmed = line.trim();
    const indent = line.length - line.trimStart().length;
    if (indent === 0 && /^##\s/.test(trimmed)) {
      inNotes = NOTES_HEADING.test(trimmed);
      block = null;
      continue;
    }
    if (inNotes) {
      notes.push(rawLine);
      continue;
    }
    if (title === null && indent === 0 && /^#\s/.test(trimmed)) {
      title = oneLine(trimmed.slice(1));
      continue;
    }
    const owner = stack[stack.length - 1];
    if (block && owner && indent > block.indent && /^[-*+]\s/.test(trimmed) && !ITEM.test(trimmed)) {
      const entry = oneLine(trimmed.slice(2));
      if (entry) owner.item[block.key].push(entry);
      continue;
    }
    block = null;
    if (ITEM.test(trimmed)) {
      const { status, rest } = parseStatusPrefix(trimmed);
      const description = oneLine(rest);
      if (!description) continue;
      const item = newItem(description, status ?? 'pending');
      while (stack.length > 0 && (stack[stack.length - 1] as { indent: number }).indent >= indent) stack.pop();
      const parent = stack[stack.length - 1];
      (parent ? parent.item.children : roots).push(item);
      stack.push({ item, indent });
      continue;
    }
    const meta = META.exec(trimmed);
    if (meta && owner && indent > owner.indent) {
      const key = (meta[1] as string).toLowerCase() as 'files' | 'outcome' | 'verify';
      const value = (meta[2] as string).trim();
      if (key === 'outcome') owner.item.outcome = oneLine(value) || null;
      else if (value === '') {
        owner.item[key] = [];
        block = { key, indent };
      } else owner.item[key] = key === 'verify' ? [oneLine(value)] : splitList(value).map(oneLine).filter(Boolean);
    }
  }
  if (title === null && roots.length === 0) return null;
  const noteText = notes.join('\n').trim();
  return { title: title || DEFAULT_TITLE, items: roots, notes: noteText === '' ? null : noteText };
}
