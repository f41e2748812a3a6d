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
import type { FileSystem } from '../ports';
import { validatePlan } from '../plan';
import { createTrackerFromPlan, loadTracker, renderExpanded, sidecarPathFor, totalsOf, type Checklist } from '../tracker';
import type { Agent, ApprovalChoice, EventInput } from './events';
import type { SessionState } from './state';

export type GateChoice = 'execute' | 'fresh_context' | 'switch_auto';

export interface HandoffDeps {
  fs: FileSystem;
  root: string;
  emit(event: EventInput): Promise<void>;
  state(): SessionState;
}

export type HandoffResult =
  | { ok: true; agent: Exclude<Agent, 'plan'>; implementationPrompt: string }
  | { ok: false; step: 'no_plan' | 'validate' | 'tracker'; reason: string };

/** MODE-7: current and fresh context go to `build`; `auto` only by the explicit choice. */
export function destinationOf(choice: GateChoice): Exclude<Agent, 'plan'> {
  return choice === 'switch_auto' ? 'auto' : 'build';
}

const EVENT_CHOICE: Record<GateChoice, ApprovalChoice> = {
  execute: 'execute',
  fresh_context: 'fresh_context',
  switch_auto: 'switch_auto',
};

/** Rough share of a 128k-token context the history uses (shown as "Context: N% used."). */
export function contextUsage(state: SessionState, windowTokens = 128_000): number {
  const chars = state.history.reduce((n, m) => n + m.content.length + ('toolCalls' in m && m.toolCalls ? JSON.stringify(m.toolCalls).length : 0), 0);
  return Math.min(1, chars / 4 / windowTokens);
}

export async function handOff(deps: HandoffDeps, choice: GateChoice, automatic = false): Promise<HandoffResult> {
  const state = deps.state();
  const planFile = state.pendingApproval?.planFile ?? state.activePlan?.planFile;
  if (!planFile) return fail(deps, 'no_plan', 'There is no persisted plan to approve yet.');

  const absolute = path.join(deps.root, planFile);
  const markdown = await deps.fs.readText(absolute);
  if (markdown === null) return fail(deps, 'validate', `The plan file ${planFile} no longer exists; ask for a new plan.`);
  const report = validatePlan(markdown);
  if (!report.ready) {
    const reasons = report.errors.map((e) => `${e.line ? `line ${e.line}: ` : ''}${e.message}`).join('; ');
    return fail(deps, 'validate', `The plan file ${planFile} is not valid any more, so it was not approved: ${reasons}`);
  }

  const location = { root: deps.root, planFile: absolute };
  const tracker = await createTrackerFromPlan(deps.fs, location, markdown);
  if (!tracker.ok) return fail(deps, 'tracker', `The checklist could not be written: ${tracker.error.message}`);
  let checklist: Checklist | null;
  try {
    checklist = (await loadTracker(deps.fs, { root: deps.root, planFile: absolute, planActive: true })).checklist;
  } catch (err) {
    return fail(deps, 'tracker', `The checklist was written but could not be read back: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!checklist || checklist.items.length === 0) {
    return fail(deps, 'tracker', 'The checklist was written but reads back empty; approval was not given.');
  }
  const trackerFile = path.relative(deps.root, sidecarPathFor(absolute));

  const agent = destinationOf(choice);
  const usage = contextUsage(state);
  await deps.emit({ type: 'plan.approval.resolved', choice: EVENT_CHOICE[choice], automatic, planFile });
  await deps.emit({ type: 'mode.changed', from: state.agent, to: agent, switchPath: 'plan_approval' });
  if (choice === 'fresh_context') {
    await deps.emit({ type: 'notice', level: 'info', text: 'Preparing fresh execution thread...' });
    await deps.emit({ type: 'context.reset', trigger: 'fresh_context', planPreserved: true, previousContextUsage: usage, toolBudgetReset: true });
    await deps.emit({ type: 'notice', level: 'info', text: 'Restoring approved plan...' });
    await deps.emit({ type: 'notice', level: 'info', text: 'Starting build...' });
  }
  const totals = totalsOf(checklist);
  await deps.emit({ type: 'tracker.updated', trackerFile, total: totals.total, completed: totals.completed, inProgress: totals.in_progress, blocked: totals.blocked });

  const implementationPrompt = [
    `The user approved the plan in ${planFile}. Implement it now, step by step.`,
    '',
    markdown.trim(),
    '',
    `Checklist (${trackerFile}); keep it current with task_tracker as you work:`,
    renderExpanded(checklist),
  ].join('\n');
  return { ok: true, agent, implementationPrompt };
}

async function fail(deps: HandoffDeps, step: 'no_plan' | 'validate' | 'tracker', reason: string): Promise<HandoffResult> {
  await deps.emit({ type: 'notice', level: 'error', text: reason, switchPath: 'plan_approval' });
  return { ok: false, step, reason };
}
