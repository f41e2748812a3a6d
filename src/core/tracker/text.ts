/**
 * Small text rules shared by tool input, the tracker files and plan distillation: status
 * prefixes (TRK-3), `-> files:` / `-> verify:` / `-> outcome:` step suffixes (TRK-6) and the
 * `files:` lists of the tracker files.
 */
import { parseListValue, splitStepLine } from '../plan/step-line';
import type { TaskStatus } from './model';

const MARK_STATUS: Readonly<Record<string, TaskStatus>> = {
  ' ': 'pending',
  x: 'completed',
  X: 'completed',
  '~': 'in_progress',
  '/': 'in_progress',
  '!': 'blocked',
};

const PREFIX = /^(?:[-*+]\s+)?\[([ xX~/!])\](?:\s+|$)/;

/** `[x] Done` → completed; text without a mark is returned unchanged with `status` undefined. */
export function parseStatusPrefix(text: string): { status: TaskStatus | undefined; rest: string } {
  const trimmed = text.trim();
  const m = PREFIX.exec(trimmed);
  if (!m) return { status: undefined, rest: trimmed };
  return { status: MARK_STATUS[m[1] as string], rest: trimmed.slice(m[0].length).trim() };
}

export function statusMark(status: TaskStatus, inProgressMark: '~' | '/'): string {
  switch (status) {
    case 'pending':
      return '[ ]';
    case 'completed':
      return '[x]';
    case 'in_progress':
      return `[${inProgressMark}]`;
    case 'blocked':
      return '[!]';
  }
}

/**
 * True when `text` is a JSON object or array serialised into a string, e.g. an update command
 * the model wrapped in quotes. Such strings are refused instead of becoming task descriptions.
 */
export function isJsonEncoded(text: string): boolean {
  const t = text.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return false;
  try {
    const value: unknown = JSON.parse(t);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

export interface StepSuffixes {
  action: string;
  files?: string[];
  verify?: string[];
  outcome?: string;
}

/**
 * TRK-6: `Action -> files: [a] -> verify: [npm test]` copied from a plan step becomes the action
 * plus structured fields, using the plan parser's own step grammar so both agree on where a
 * suffix starts (arrows in prose and in quoted patterns stay content). `symbols:`/`target:`
 * have no tracker field and are dropped from the text.
 */
export function splitStepSuffixes(text: string): StepSuffixes {
  const { action, fields } = splitStepLine(text);
  const out: StepSuffixes = { action };
  for (const { field, value } of fields) {
    if (field === 'outcome') out.outcome = out.outcome ? `${out.outcome} ${value}` : value;
    else if (field !== 'targets') out[field] = [...(out[field] ?? []), ...parseListValue(value)];
  }
  return out;
}

/**
 * A `files:` line of the tracker files: `a, b` or `[a, b]` → `['a', 'b']`. Commas inside
 * brackets or backticks do not split; an entry wrapped in backticks loses them.
 */
export function splitList(value: string): string[] {
  let v = value.trim();
  if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
  const items: string[] = [];
  let depth = 0;
  let inCode = false;
  let current = '';
  for (const ch of v) {
    if (ch === '`') inCode = !inCode;
    else if (!inCode && (ch === '[' || ch === '(' || ch === '{')) depth += 1;
    else if (!inCode && (ch === ']' || ch === ')' || ch === '}') && depth > 0) depth -= 1;
    else if (!inCode && ch === ',' && depth === 0) {
      items.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  items.push(current);
  return items.map(unwrapEntry).filter((s) => s.length > 0);
}

function unwrapEntry(entry: string): string {
  const t = entry.trim();
  if (t.length >= 2 && t.startsWith('`') && t.endsWith('`') && !t.slice(1, -1).includes('`'))
    return t.slice(1, -1).trim();
  return t;
}

/** Whether `entries` survive being joined with `, ` and split again by splitList. */
export function listIsInlineSafe(entries: readonly string[]): boolean {
  if (entries.length === 0) return true;
  const again = splitList(entries.join(', '));
  return again.length === entries.length && again.every((e, i) => e === entries[i]);
}
