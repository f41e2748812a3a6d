/**
 * What changed between two revisions of a plan, step by step, for the plan card's "What changed"
 * (GATE-2: a plan edited with Ctrl+G is re-validated and shown again; the reader needs to see
 * what the edit did without reading both versions).
 *
 * Steps are renumbered whenever one is inserted, so numbers cannot pair them. Steps whose content
 * is identical pair first (longest common subsequence, so order counts); between two such anchors
 * a remaining old step pairs with a remaining new step that reads alike (shared words), and a lone
 * old step facing a lone new step is the same step rewritten. Whatever stays unpaired was added
 * or removed.
 */
import { parsePlan, SECTION_NAMES, type PlanDoc, type PlanSection, type PlanStep } from './parse';

type StepField = 'action' | 'files' | 'targets' | 'verify' | 'outcome';

interface StepRef {
  number: number;
  /** The step's action, without its `-> files:` / `-> verify:` fields. */
  text: string;
}

interface ChangedStep {
  before: StepRef;
  after: StepRef;
  fields: StepField[];
}

export interface PlanStepDiff {
  added: StepRef[];
  removed: StepRef[];
  changed: ChangedStep[];
  /** Other parts that changed (title, Summary, Assumptions…), by their canonical names. */
  sections: string[];
}

/** Word overlap from which two steps read as one step reworded rather than two different steps. */
const SIMILAR = 0.5;
const FIELDS: readonly StepField[] = ['action', 'files', 'targets', 'verify', 'outcome'];

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

function fieldValue(step: PlanStep, field: StepField): string {
  if (field === 'action') return squash(step.action);
  if (field === 'outcome') return squash(step.outcome ?? '');
  return step[field].map(squash).join('\n');
}

const contentKey = (step: PlanStep): string => FIELDS.map((f) => fieldValue(step, f)).join('\u0000');

function words(step: PlanStep): Set<string> {
  return new Set(
    `${step.action} ${step.files.join(' ')} ${step.targets.join(' ')}`.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [],
  );
}

function similarity(a: PlanStep, b: PlanStep): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / (wa.size + wb.size - shared);
}

/** Index pairs of equal keys in order (classic LCS table; plans have tens of steps, not thousands). */
function commonSubsequence(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) {
      i += 1;
    } else {
      j += 1;
    }
  }
  return pairs;
}

const ref = (step: PlanStep): StepRef => ({ number: step.number, text: squash(step.action) });

function pairGap(before: readonly PlanStep[], after: readonly PlanStep[], out: PlanStepDiff): void {
  if (before.length === 1 && after.length === 1) {
    const [b, a] = [before[0]!, after[0]!];
    out.changed.push({
      before: ref(b),
      after: ref(a),
      fields: FIELDS.filter((f) => fieldValue(b, f) !== fieldValue(a, f)),
    });
    return;
  }
  let next = 0;
  for (const b of before) {
    let match = -1;
    for (let j = next; j < after.length; j++) {
      if (similarity(b, after[j]!) >= SIMILAR) {
        match = j;
        break;
      }
    }
    if (match === -1) {
      out.removed.push(ref(b));
      continue;
    }
    for (const skipped of after.slice(next, match)) out.added.push(ref(skipped));
    const a = after[match]!;
    out.changed.push({
      before: ref(b),
      after: ref(a),
      fields: FIELDS.filter((f) => fieldValue(b, f) !== fieldValue(a, f)),
    });
    next = match + 1;
  }
  for (const rest of after.slice(next)) out.added.push(ref(rest));
}

function sectionName(section: PlanSection): string {
  return section.key ? SECTION_NAMES[section.key] : section.heading;
}

function sectionText(section: PlanSection): string {
  return squash(section.body.map((l) => l.text).join('\n'));
}

/** Non-step parts whose text differs, in the order the new revision has them (removed ones last). */
function changedSections(before: PlanDoc, after: PlanDoc): string[] {
  const names: string[] = [];
  if (squash(before.title ?? '') !== squash(after.title ?? '')) names.push('Title');
  const index = (doc: PlanDoc) =>
    new Map(doc.sections.filter((s) => s.key !== 'steps').map((s) => [sectionName(s).toLowerCase(), s]));
  const old = index(before);
  const now = index(after);
  for (const [name, section] of now) {
    const previous = old.get(name);
    if (!previous || sectionText(previous) !== sectionText(section)) names.push(sectionName(section));
  }
  for (const [name, section] of old) if (!now.has(name)) names.push(sectionName(section));
  return names;
}

export function diffPlanSteps(before: string | PlanDoc, after: string | PlanDoc): PlanStepDiff {
  const from = typeof before === 'string' ? parsePlan(before) : before;
  const to = typeof after === 'string' ? parsePlan(after) : after;
  const out: PlanStepDiff = { added: [], removed: [], changed: [], sections: changedSections(from, to) };
  const anchors = commonSubsequence(from.steps.map(contentKey), to.steps.map(contentKey));
  let i = 0;
  let j = 0;
  for (const [ai, aj] of [...anchors, [from.steps.length, to.steps.length] as [number, number]]) {
    pairGap(from.steps.slice(i, ai), to.steps.slice(j, aj), out);
    i = ai + 1;
    j = aj + 1;
  }
  return out;
}

export function isEmptyStepDiff(diff: PlanStepDiff): boolean {
  return (
    diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0 && diff.sections.length === 0
  );
}
