/**
 * TRK-7: approval turns the plan's Implementation Steps (numbered and checkbox steps, never
 * Scope or any other section) into the checklist. `-> files:` / `-> verify:` / `-> outcome:`
 * become fields; sub-steps indented under a step become its children; repeated steps (same
 * words, ignoring case and spacing) merge into the first, and a later completed copy completes it.
 */
import { parsePlan, type PlanStep } from '../plan/parse';
import { DEFAULT_TITLE, newItem, oneLine, type Checklist, type TaskItem } from './model';
import { parseStatusPrefix, splitStepSuffixes } from './text';

/** The part of a plan step distillation needs. */
export interface DistillStep {
  action: string;
  files: readonly string[];
  verify: readonly string[];
  outcome?: string;
  /** `true` for a checked `- [x]` step. */
  checked?: boolean;
  children?: readonly DistillStep[];
}

export function distillSteps(title: string | null, steps: readonly DistillStep[]): Checklist {
  return { title: oneLine(title ?? '') || DEFAULT_TITLE, items: mergeLevel(steps), notes: null };
}

function mergeLevel(steps: readonly DistillStep[]): TaskItem[] {
  const items: TaskItem[] = [];
  const byKey = new Map<string, TaskItem>();
  for (const step of steps) {
    const description = oneLine(step.action);
    if (description === '') continue;
    const key = description.toLowerCase();
    const files = step.files.map(oneLine).filter(Boolean);
    const verify = step.verify.map(oneLine).filter(Boolean);
    const outcome = step.outcome ? oneLine(step.outcome) || null : null;
    const children = mergeLevel(step.children ?? []);
    const seen = byKey.get(key);
    if (seen) {
      if (step.checked) seen.status = 'completed';
      seen.files = union(seen.files, files);
      seen.verify = union(seen.verify, verify);
      seen.outcome ??= outcome;
      seen.children = mergeLevel([...seen.children.map(asStep), ...children.map(asStep)]);
      continue;
    }
    const item: TaskItem = {
      ...newItem(description, step.checked ? 'completed' : 'pending'),
      files,
      verify,
      outcome,
      children,
    };
    byKey.set(key, item);
    items.push(item);
  }
  return items;
}

function asStep(item: TaskItem): DistillStep {
  return {
    action: item.description,
    files: item.files,
    verify: item.verify,
    outcome: item.outcome ?? undefined,
    checked: item.status === 'completed',
    children: item.children.map(asStep),
  };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...a, ...b.filter((x) => !a.includes(x))];
}

const SUB_STEP = /^(\s+)(?:[-*+]\s+(\[[ xX~/!]\])|(?:\*\*)?(?:step\s+)?\d+(?:\*\*)?\s*[.):])\s+(.*)$/i;

/** Indented numbered or checkbox lines inside a step; deeper ones nest under the one before. */
function subSteps(step: PlanStep): DistillStep[] {
  const roots: DistillStep[] = [];
  const stack: Array<{ indent: number; step: DistillStep & { children: DistillStep[] } }> = [];
  for (const { text } of step.lines.slice(1)) {
    const m = SUB_STEP.exec(text);
    if (!m) continue;
    const indent = (m[1] as string).length;
    const parts = splitStepSuffixes(m[3] as string);
    const sub = {
      action: parts.action,
      files: parts.files ?? [],
      verify: parts.verify ?? [],
      outcome: parts.outcome,
      checked: m[2] !== undefined && parseStatusPrefix(m[2]).status === 'completed',
      children: [] as DistillStep[],
    };
    while (stack.length > 0 && (stack[stack.length - 1] as { indent: number }).indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.step.children : roots).push(sub);
    stack.push({ indent, step: sub });
  }
  return roots;
}

function stepOf(step: PlanStep): DistillStep {
  const first = step.lines[0]?.text ?? '';
  const checked = step.kind === 'checkbox' && parseStatusPrefix(first).status === 'completed';
  return {
    action: step.action,
    files: step.files,
    verify: step.verify,
    outcome: step.outcome,
    checked,
    children: subSteps(step),
  };
}

/** The checklist an approved plan starts with. */
export function distillPlan(markdown: string): Checklist {
  const doc = parsePlan(markdown);
  return distillSteps(doc.title, doc.steps.map(stepOf));
}
