/**
 * The one typed approval handoff (GATE-3, GATE-6, MODE-7, TRK-7). Every approval route — the
 * gate's buttons, an intent phrase, the notification, the CodeLens, `vtplan resume … approve` —
 * calls `handOff`. The order is fixed:
 *   validate the persisted plan → persist the tracker (sidecar + global) and read it back →
 *   resolve the approval once → leave Planning → select the destination → (fresh context: reset)
 *   → hand back exactly one implementation turn to run.
 * Any failure before the approval is resolved keeps planning active with the plan pending and a
 * visible reason; no write-capable turn starts.
 */
import path from 'node:path';
import { NotRegularFileError, type FileSystem } from '../ports';
import { validatePlan } from '../plan';
import {
  distillPlan,
  executeTrackerCall,
  loadTracker,
  renderExpanded,
  sidecarPathFor,
  totalsOf,
  walk,
  type Checklist,
  type Totals,
} from '../tracker';
import { assertNever, type ExecutionMode, type HandoffChoice } from '../vocabulary';
import type { EventInput } from './events';
import type { SessionState } from './state';
import { errorMessage } from '../errors';

export interface HandoffDeps {
  fs: FileSystem;
  root: string;
  emit(event: EventInput): Promise<void>;
  state(): SessionState;
}

export type HandoffResult =
  | { ok: true; agent: ExecutionMode; implementationPrompt: string }
  | { ok: false; step: 'no_plan' | 'validate' | 'tracker' | 'suspended'; reason: string };

/** MODE-7: current and fresh context (and an automatic acceptance) go to `build`; `auto` only by the explicit choice. */
export function destinationOf(choice: HandoffChoice): ExecutionMode {
  switch (choice) {
    case 'execute':
    case 'fresh_context':
    case 'auto_accept':
      return 'build';
    case 'switch_auto':
      return 'auto';
    default:
      return assertNever(choice, 'handoff choice');
  }
}

/** Rough share of a 128k-token context the history uses (shown as "Context: N% used."). */
export function contextUsage(state: SessionState, windowTokens = 128_000): number {
  const chars = state.history.reduce(
    (n, m) => n + m.content.length + ('toolCalls' in m && m.toolCalls ? JSON.stringify(m.toolCalls).length : 0),
    0,
  );
  return Math.min(1, chars / 4 / windowTokens);
}

export async function handOff(deps: HandoffDeps, choice: HandoffChoice, automatic = false): Promise<HandoffResult> {
  const state = deps.state();
  const planFile = state.pendingApproval?.planFile ?? state.activePlan?.planFile;
  if (!planFile) return fail(deps, 'no_plan', 'There is no persisted plan to approve yet.');

  const absolute = path.join(deps.root, planFile);
  const plan = await readValidPlan(deps.fs, absolute, planFile);
  if (!plan.ok) return fail(deps, 'validate', plan.reason);
  const { markdown } = plan;

  const refreshed = await refreshTrackerFromPlan(deps.fs, deps.root, absolute, markdown);
  if (!refreshed.ok) return fail(deps, 'tracker', refreshed.reason);
  const { checklist, trackerFile } = refreshed;

  const agent = destinationOf(choice);
  await emitHandoff(deps, state, { choice, automatic, planFile, agent, checklist, trackerFile });
  return { ok: true, agent, implementationPrompt: implementationPromptOf(planFile, markdown, trackerFile, checklist) };
}

/** The persisted plan, re-read and re-validated at approval time (GATE-3), or why it cannot be approved. */
async function readValidPlan(
  fs: FileSystem,
  absolute: string,
  planFile: string,
): Promise<{ ok: true; markdown: string } | { ok: false; reason: string }> {
  let markdown: string | null;
  try {
    markdown = await fs.readText(absolute);
  } catch (err) {
    // A plan swapped for a FIFO or a symlink is as unusable as a broken one: not approved (GATE-3).
    if (err instanceof NotRegularFileError)
      return { ok: false, reason: `The plan file ${planFile} cannot be read, so it was not approved: ${err.message}.` };
    throw err;
  }
  if (markdown === null)
    return { ok: false, reason: `The plan file ${planFile} no longer exists; ask for a new plan.` };
  const report = validatePlan(markdown);
  if (!report.ready) {
    const reasons = report.errors.map((e) => `${e.line ? `line ${e.line}: ` : ''}${e.message}`).join('; ');
    return { ok: false, reason: `The plan file ${planFile} is not valid any more, so it was not approved: ${reasons}` };
  }
  return { ok: true, markdown };
}

/** The approval, the mode switch, the fresh-context reset and the tracker totals, in the order clients expect. */
async function emitHandoff(
  deps: HandoffDeps,
  state: SessionState,
  approved: {
    choice: HandoffChoice;
    automatic: boolean;
    planFile: string;
    agent: ExecutionMode;
    checklist: Checklist;
    trackerFile: string;
  },
): Promise<void> {
  const { choice, automatic, planFile, agent, checklist, trackerFile } = approved;
  const usage = contextUsage(state);
  await deps.emit({ type: 'plan.approval.resolved', choice, automatic, planFile });
  // Approving a plan proposed during execution (EXEC-4) may already be in the destination agent.
  if (state.agent !== agent)
    await deps.emit({ type: 'mode.changed', from: state.agent, to: agent, switchPath: 'plan_approval' });
  // GATE-4: the phases travel as events, so clients show their texts and lock input by the phase.
  if (choice === 'fresh_context') {
    await deps.emit({ type: 'handoff.phase', phase: 'preparing' });
    await deps.emit({
      type: 'context.reset',
      trigger: 'fresh_context',
      planPreserved: true,
      previousContextUsage: usage,
      toolBudgetReset: true,
    });
    await deps.emit({ type: 'handoff.phase', phase: 'restoring' });
    await deps.emit({ type: 'handoff.phase', phase: 'starting' });
  }
  await deps.emit(trackerUpdated(trackerFile, totalsOf(checklist)));
  await deps.emit({ type: 'handoff.phase', phase: 'done' });
}

function implementationPromptOf(planFile: string, markdown: string, trackerFile: string, checklist: Checklist): string {
  return [
    `The user approved the plan in ${planFile}. Implement it now, step by step.`,
    '',
    markdown.trim(),
    '',
    `Checklist (${trackerFile}); keep it current with task_tracker as you work:`,
    renderExpanded(checklist),
  ].join('\n');
}

export type TrackerRefresh =
  { ok: true; checklist: Checklist; trackerFile: string; totals: Totals } | { ok: false; reason: string };

/**
 * TRK-7, EXEC-4: distils the plan into its tracker sidecar and the global task file, then reads
 * it back. A step that is still in the plan keeps its `completed` status from the plan's
 * previous checklist (a revision mid-execution does not undo finished work); everything else
 * starts from the plan. Only the plan's own sidecar counts as "previous": the global file may
 * belong to another plan.
 */
export async function refreshTrackerFromPlan(
  fs: FileSystem,
  root: string,
  planFile: string,
  markdown: string,
): Promise<TrackerRefresh> {
  const distilled = distillPlan(markdown);
  if (distilled.items.length === 0) {
    return {
      ok: false,
      reason:
        'The checklist could not be written: the plan has no numbered or checkbox Implementation Steps to turn into tasks.',
    };
  }
  const location = { root, planFile, planActive: true };
  let done = new Set<string>();
  try {
    const previous = (await loadTracker(fs, location)).sidecar?.checklist;
    done = new Set(
      walk(previous?.items ?? [])
        .filter(({ item }) => item.status === 'completed')
        .map(({ item }) => stepKey(item.description)),
    );
  } catch (err) {
    return { ok: false, reason: `The existing checklist could not be read: ${errorMessage(err)}` };
  }
  const items = walk(distilled.items).map(({ item, path: at }) => ({
    // Two spaces a level keep sub-steps under their step (see tracker/ops.ts).
    description: `${'  '.repeat(at.length - 1)}${item.description}`,
    status: item.status === 'completed' || done.has(stepKey(item.description)) ? ('completed' as const) : undefined,
    files: item.files,
    outcome: item.outcome ?? '',
    verify: item.verify,
  }));
  const written = await executeTrackerCall(
    fs,
    location,
    { action: 'create', title: distilled.title, items },
    'expanded',
  );
  if (!written.ok) return { ok: false, reason: `The checklist could not be written: ${written.error.message}` };
  let checklist: Checklist | null;
  try {
    checklist = (await loadTracker(fs, location)).checklist;
  } catch (err) {
    return { ok: false, reason: `The checklist was written but could not be read back: ${errorMessage(err)}` };
  }
  if (!checklist || checklist.items.length === 0)
    return { ok: false, reason: 'The checklist was written but reads back empty; approval was not given.' };
  return {
    ok: true,
    checklist,
    trackerFile: path.relative(root, sidecarPathFor(planFile)),
    totals: totalsOf(checklist),
  };
}

/** What clients show of a checklist just written: its file and its counts. */
export function trackerUpdated(trackerFile: string, totals: Totals): EventInput {
  return {
    type: 'tracker.updated',
    trackerFile,
    total: totals.total,
    completed: totals.completed,
    inProgress: totals.in_progress,
    blocked: totals.blocked,
  };
}

function stepKey(description: string): string {
  return description.trim().replace(/\s+/g, ' ').toLowerCase();
}

async function fail(
  deps: HandoffDeps,
  step: 'no_plan' | 'validate' | 'tracker',
  reason: string,
): Promise<HandoffResult> {
  await deps.emit({ type: 'notice', level: 'error', text: reason, switchPath: 'plan_approval' });
  return { ok: false, step, reason };
}
