/**
 * The step grammar on a step's text (PLAN-3, file-formats.md): `Action -> files: [...] ->
 * verify: [...] -> outcome: ...` on the step line, and labeled lines under a step (`files:`,
 * `- **Files/symbols:** ...`, `- **Verify:** ...`, `- **Action:** ...`). Pure string rules, shared
 * with the tracker (TRK-6); the block structure around them comes from the markdown model.
 */
import { matchingBracket, scanTopLevel, splitTopLevel, unwrapCode } from './scan';

/** Fields a step line carries after an arrow. */
export type StepField = 'files' | 'targets' | 'verify' | 'outcome';
/** Fields a labeled line under a step may carry: the arrow fields and the action itself. */
export type StepLabelField = StepField | 'action';

const NAMES = String.raw`files?\s*(?:\/|,|and|&)\s*symbols?|files?|symbols?|targets?|behaviou?r|verify|verification|outcome`;
const META_AFTER_ARROW = new RegExp(String.raw`^\s*(?:\*\*|__)?(${NAMES})(?:\*\*|__)?\s*:(?:\*\*|__)?`, 'i');
const LABELED_LINE = new RegExp(
  String.raw`^\s*(?:>\s*)*(?:[-*+•]\s+)?(?:(?:->|→)\s*)?(?:\*\*|__)?(${NAMES}|action)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$`,
  'is',
);

function fieldOf(key: string): StepLabelField {
  const k = key.toLowerCase();
  if (k === 'action') return 'action';
  if (k.startsWith('file')) return 'files';
  if (k.startsWith('symbol') || k.startsWith('target') || k.startsWith('behavio')) return 'targets';
  if (k === 'outcome') return 'outcome';
  return 'verify';
}

/** `[a, b]`, `a, b` or `` `a`, `b` `` → items (quote-aware); trailing prose after `]` is ignored. */
export function parseListValue(raw: string): string[] {
  const value = raw.trim();
  if (value.startsWith('[')) {
    const close = matchingBracket(value, 0);
    const inner = close === -1 ? value.slice(1) : value.slice(1, close);
    return splitTopLevel(inner, ',')
      .map(unwrapCode)
      .filter((s) => s.length > 0);
  }
  return splitTopLevel(value.replace(/[.;]\s*$/, ''), ',')
    .map(unwrapCode)
    .filter((s) => s.length > 0);
}

/**
 * Splits a step line into its action and `-> key: value` fields. Only an arrow followed by a
 * metadata key and found outside quotes and brackets starts a field, so arrows in prose
 * (`map old -> new`) and in quoted patterns stay part of the action or value.
 */
export function splitStepLine(text: string): { action: string; fields: Array<{ field: StepField; value: string }> } {
  const cuts: Array<{ at: number; valueStart: number; field: StepField }> = [];
  scanTopLevel(text, (i, depth) => {
    if (depth !== 0) return;
    const arrow = text.startsWith('->', i) ? 2 : text[i] === '→' ? 1 : 0;
    if (arrow === 0) return;
    const m = META_AFTER_ARROW.exec(text.slice(i + arrow));
    if (!m) return;
    cuts.push({ at: i, valueStart: i + arrow + m[0].length, field: fieldOf(m[1] as string) as StepField });
  });
  const action = (cuts.length > 0 ? text.slice(0, cuts[0]?.at) : text).trim();
  const fields = cuts.map((c, n) => ({
    field: c.field,
    value: text.slice(c.valueStart, cuts[n + 1]?.at ?? text.length).trim(),
  }));
  return { action, fields };
}

/** A labeled line under a step (`files: a.ts`, `- **Verify:** \`npm test\``), or `null`. */
export function labeledStepLine(line: string): { field: StepLabelField; value: string } | null {
  const m = LABELED_LINE.exec(line);
  if (!m) return null;
  return { field: fieldOf(m[1] as string), value: (m[2] as string).trim() };
}

/** A step's action without emphasis wrapped around all of it (`**Add retries**` → `Add retries`). */
export function plainAction(action: string): string {
  const wrapped = /^(\*\*|__)([^*_].*?)\1(:?)$/s.exec(action.trim());
  return wrapped ? `${wrapped[2] as string}${wrapped[3] as string}`.trim() : action.trim();
}
