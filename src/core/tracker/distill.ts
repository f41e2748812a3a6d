/**
 * TRK-7: approval turns the plan's Implementation Steps (numbered and checkbox steps, never
 * Scope or any other section) into the checklist. `-> files:` / `-> verify:` / `-> outcome:`
 * become fields; repeated steps (same words, ignoring case and spacing) merge into the first,
 * and a later completed copy completes it.
 */
import { parsePlan, type PlanStep } from '../plan/parse';
import { DEFAULT_TITLE, newItem, oneLine, type Checklist, type TaskItem } from './model';
import { parseStatusPrefix } from './text';

/** The part of a plan step distillation needs (PlanStep satisfies it). */
export interface DistillStep {
  action: string;
  files: readonly string[];
  verify: readonly string[];
  outcome?: string;
  /** `true` for a checked `- [x]` step. */
  checked?: boolean;
}

export function distillSteps(title: string | null, steps: readonly DistillStep[]): Checklist {
  const items: TaskItem[] = [];
  const byKey = new Map<string, TaskItem>();
  for (const step of steps) {
    const description = oneLine(step.action);
    if (description === '') continue;
    const key = description.toLowerCase();
    const files = step.files.map(oneLine).filter(Boolean);
    const verify = step.verify.map(oneLine).filter(Boolean);
    const outcome = step.outcome ? oneLine(step.outcome) || null : null;
    const seen = byKey.get(key);
    if (seen) {
      if (step.checked) seen.status = 'completed';
      seen.files = union(seen.files, files);
      seen.verify = union(seen.verify, verify);
      seen.outcome ??= outcome;
      continue;
    }
    const item: TaskItem = { ...newItem(description, step.checked ? 'completed' : 'pending'), files, verify, outcome };
    byKey.set(key, item);
    items.push(item);
  }
  return { title: oneLine(title ?? '') || DEFAULT_TITLE, items, notes: null };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...a, ...b.filter((x) => !a.includes(x))];
}

function stepOf(step: PlanStep): DistillStep {
  const first = step.lines[0]?.text ?? '';
  const checked = step.kind === 'checkbox' && parseStatusPrefix(first).status === 'completed';
  return { action: step.action, files: step.files, verify: step.verify, outcome: step.outcome, checked };
}

/** The checklist an approved plan starts with. */
export function distillPlan(markdown: string): Checklist {
  const doc = parsePlan(markdown);
  return distillSteps(doc.title, doc.steps.map(stepOf));
}
