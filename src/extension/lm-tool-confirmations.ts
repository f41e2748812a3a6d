/**
 * What VS Code shows around a language model tool call (lm-tools.ts): the progress line, and for
 * a call that writes under `.vtcode/` the confirmation the user answers first (Continue / Cancel).
 * Decided on the raw input, before the schema has checked it: a malformed call asks nothing more
 * than a good one, and the gate then refuses it. No `vscode` import (unit-tested).
 */
import type { GateName } from '../core/gates/gate';

export interface ToolConfirmation {
  title: string;
  message: string;
}

function field(input: unknown, key: string): unknown {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
}

/** Whether the call writes (confirmation, workspace trust): savePlan, and every tracker action but `list`. */
export function writes(gate: GateName, input: unknown): boolean {
  if (gate === 'savePlan') return true;
  if (gate === 'taskTracker') return field(input, 'action') !== 'list';
  return false;
}

function quoted(value: unknown, max = 80): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim().replace(/\s+/g, ' ');
  return `“${text.length > max ? `${text.slice(0, max - 1)}…` : text}”`;
}

/** The first `# ` heading of the plan markdown. */
function planTitle(input: unknown): string | null {
  const plan = field(input, 'plan');
  return typeof plan === 'string' ? (/^#\s+(.+)$/m.exec(plan)?.[1]?.trim() ?? null) : null;
}

function trackerChange(input: unknown): ToolConfirmation {
  const action = field(input, 'action');
  if (action === 'add') {
    const parent = field(input, 'parent_index_path');
    const under = typeof parent === 'string' ? ` under item ${parent}` : '';
    return {
      title: 'Add a task to the checklist?',
      message: `Add ${quoted(field(input, 'description')) ?? 'a task'}${under} to the task checklist in .vtcode/.`,
    };
  }
  if (action === 'create') {
    const title = quoted(field(input, 'title'));
    return {
      title: 'Create a task checklist?',
      message: `Start the checklist${title ? ` ${title}` : ''} in .vtcode/, replacing the current one.`,
    };
  }
  const item = field(input, 'index_path') ?? field(input, 'index');
  const status = field(input, 'status');
  const what =
    (typeof item === 'string' || typeof item === 'number') && typeof status === 'string'
      ? `Mark item ${item} as ${status.replace('_', ' ')}`
      : Array.isArray(field(input, 'items'))
        ? 'Replace the checklist with the items given'
        : 'Change an item of the checklist';
  return { title: 'Update the task checklist?', message: `${what} (the task checklist in .vtcode/).` };
}

/** The confirmation for a writing call; `undefined` for one that only reads. */
export function confirmationFor(gate: GateName, input: unknown): ToolConfirmation | undefined {
  if (!writes(gate, input)) return undefined;
  if (gate === 'savePlan') {
    return {
      title: 'Save the plan?',
      message: `Validate ${quoted(planTitle(input)) ?? 'the plan'} and, only if it is ready, save it under .vtcode/plans/. You approve it afterwards in VS Code ("Ready to code?"); saving does not approve it.`,
    };
  }
  return trackerChange(input);
}

export function invocationMessage(gate: GateName): string {
  switch (gate) {
    case 'validatePlan':
      return 'Validating the plan';
    case 'checkCommand':
      return 'Checking the command against the read-only policy';
    case 'taskTracker':
      return 'Working on the task checklist';
    case 'savePlan':
      return 'Saving the plan';
  }
}
