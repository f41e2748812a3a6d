/**
 * A plan the model answered with: validated, persisted (STORE-1) and put up for approval, or
 * handed straight to the build agent under skip-confirmations (MODE-7); in an execution agent,
 * a mid-execution revision (EXEC-4).
 */
import { buildRepairRequest, buildSynopsis, PlanStore, validatePlan } from '../../plan';
import { handOff, refreshTrackerFromPlan, trackerUpdated } from '../handoff';
import type { TurnDeps, TurnEnd } from './deps';
import { directive, type TurnState } from './phase';
import { errorMessage } from '../../errors';

/** Validation repair requests before a planning turn ends blocked (SYN-4). */
export const MAX_REPAIRS = 2;
/** EXEC-4: revisions that continue an approved turn without a gate; the next one goes to the gate. */
const MAX_AUTO_REPLANS = 1;

export type PublishVerdict =
  | { kind: 'persisted'; planFile: string }
  | { kind: 'rejected'; repairRequest: string; summary: string }
  | { kind: 'store_failed'; reason: string };

/** Validate → persist → request approval (STORE-1: nothing is written for an invalid plan). */
export async function publishPlan(deps: TurnDeps, plan: string, attempt: number): Promise<PublishVerdict> {
  const report = validatePlan(plan);
  if (!report.ready) {
    const reasons = report.errors.map((e) => ({
      code: e.code,
      message: e.message,
      ...(e.line ? { line: e.line } : {}),
    }));
    await deps.emit({ type: 'plan.rejected', reasons, attempt, draft: plan, final: attempt >= MAX_REPAIRS });
    return {
      kind: 'rejected',
      repairRequest: buildRepairRequest(plan, report),
      summary: report.errors.map((e) => e.message).join('; '),
    };
  }
  const saved = await persistPlan(deps, plan);
  if (saved.kind === 'store_failed') return saved;
  await deps.emit({ type: 'plan.approval.requested', planFile: saved.planFile });
  return { kind: 'persisted', planFile: saved.planFile };
}

/**
 * A persisted plan waits at the gate, unless confirmations are skipped and planning was not asked
 * for explicitly: then it goes through the one handoff as `auto_accept` (automatic) to the build
 * agent in the current context (MODE-7), and the session runs its implementation turn. An explicit
 * `/plan` request always waits (GATE-5). A failed handoff leaves the plan pending with its reason.
 */
export async function approvalOrHandoff(deps: TurnDeps, planFile: string): Promise<TurnEnd> {
  if (deps.planConfirmation !== 'skip' || deps.state().planningExplicit) return { status: 'awaiting_approval' };
  const handoff = await handOff(
    { fs: deps.fs, root: deps.root, emit: (e) => deps.emit(e), state: () => deps.state() },
    'auto_accept',
    true,
  );
  if (!handoff.ok) return { status: 'awaiting_approval', reason: handoff.reason };
  await deps.emit({
    type: 'notice',
    level: 'info',
    text: `Plan confirmation is off, so ${planFile} was accepted without the "Ready to code?" gate: the build agent implements it now, in this context. A /plan request always waits for approval.`,
  });
  return { status: 'idle', next: { kind: 'implementation', prompt: handoff.implementationPrompt } };
}

/** STORE-1: writes a validated plan over the session's plan file (or a new one) and says so. */
async function persistPlan(
  deps: TurnDeps,
  plan: string,
): Promise<{ kind: 'saved'; planFile: string } | { kind: 'store_failed'; reason: string }> {
  const store = new PlanStore(deps.fs, deps.root);
  const previous = deps.state().activePlan;
  const slug = previous ? slugOf(previous.planFile) : undefined;
  try {
    const saved = await store.save(plan, slug ? { slug } : {});
    if (saved.status === 'rejected') return { kind: 'store_failed', reason: 'The plan did not validate when saved.' };
    if (saved.status === 'external_edit') {
      return {
        kind: 'store_failed',
        reason: `${saved.path} was edited outside the session; your edit was kept. Review it, then ask to re-plan.`,
      };
    }
    const relative = saved.path.startsWith(`${deps.root}/`) ? saved.path.slice(deps.root.length + 1) : saved.path;
    const title = buildSynopsis(plan).title;
    await deps.emit({ type: 'plan.persisted', planFile: relative, ...(title ? { title } : {}) });
    return { kind: 'saved', planFile: relative };
  } catch (err) {
    return { kind: 'store_failed', reason: `Could not save the plan: ${errorMessage(err)}` };
  }
}

function slugOf(planFile: string): string {
  return (planFile.split('/').pop() ?? planFile).replace(/\.md$/, '');
}

/**
 * EXEC-4: a `<proposed_plan>` from an execution agent is validated and persisted like a planning
 * draft (plan file overwritten, tracker refreshed keeping finished steps) and published with the
 * usual events. In an approved execution turn (the implementation turn and its continuations) the
 * user already approved the goal, so work continues without a second gate; anywhere else the
 * revision goes through the ordinary gate (`auto` accepts it, as full-auto accepts any gate). An
 * invalid or cut-off revision is rejected visibly, overwrites nothing, sends no repair request
 * and ends the turn blocked. Returns null when the turn continues.
 */
export async function executionReplan(
  deps: TurnDeps,
  turn: TurnState,
  plan: string,
  truncated: boolean,
): Promise<TurnEnd | null> {
  const report = validatePlan(plan);
  if (truncated || !report.ready) {
    const reasons = truncated
      ? [{ code: 'truncated', message: 'The revised plan was cut off before its closing tag.' }]
      : report.errors.map((e) => ({ code: e.code, message: e.message, ...(e.line ? { line: e.line } : {}) }));
    await deps.emit({ type: 'plan.rejected', reasons, attempt: 0, draft: plan, final: true });
    const planFile = deps.state().activePlan?.planFile;
    return {
      status: 'blocked',
      reason: `The revised plan was rejected and nothing was overwritten${planFile ? ` (${planFile} is unchanged)` : ''}: ${reasons.map((r) => r.message).join('; ')}`,
    };
  }
  const saved = await persistPlan(deps, plan);
  if (saved.kind === 'store_failed') return { status: 'blocked', reason: saved.reason };
  const { planFile } = saved;
  const tracker = await refreshTrackerFromPlan(deps.fs, deps.root, `${deps.root}/${planFile}`, plan);
  if (!tracker.ok)
    return {
      status: 'blocked',
      reason: `The revised plan was saved to ${planFile}, but ${tracker.reason.charAt(0).toLowerCase()}${tracker.reason.slice(1)}`,
    };
  const { totals, trackerFile } = tracker;
  await deps.emit(trackerUpdated(trackerFile, totals));
  return revisionApproval(deps, turn, planFile, trackerFile);
}

/** EXEC-4: a saved revision continues without a gate in an approved turn, under `auto` or skip; else it waits. */
async function revisionApproval(
  deps: TurnDeps,
  turn: TurnState,
  planFile: string,
  trackerFile: string,
): Promise<TurnEnd | null> {
  const state = deps.state();
  const approvedTurn = state.turnKind === 'implementation' && turn.autoReplans < MAX_AUTO_REPLANS;
  if (!approvedTurn && state.agent !== 'auto' && deps.planConfirmation !== 'skip') {
    await deps.emit({
      type: 'notice',
      level: 'warning',
      text: `The agent proposed a revised plan during execution (${planFile}); review it before work continues.`,
    });
    await deps.emit({ type: 'plan.approval.requested', planFile, trackerFile });
    return {
      status: 'awaiting_approval',
      reason: 'The agent revised the plan during execution; review it before work continues.',
    };
  }
  turn.autoReplans += 1;
  if (approvedTurn) {
    await deps.emit({
      type: 'notice',
      level: 'info',
      text: `The agent revised the approved plan during implementation; ${planFile} and its checklist were updated and work continues without a second approval.`,
    });
  } else {
    await deps.emit({ type: 'plan.approval.requested', planFile, trackerFile });
    await deps.emit({ type: 'plan.approval.resolved', choice: 'auto_accept', automatic: true, planFile });
    const who = state.agent === 'auto' ? 'Auto accepted it' : 'plan confirmation is off, so it was accepted';
    await deps.emit({
      type: 'notice',
      level: 'info',
      text: `The agent proposed a revised plan during execution; ${who} (${planFile}) and work continues.`,
    });
  }
  await directive(
    deps,
    turn,
    'handoff',
    `The revised plan in ${planFile} is saved and approved. Continue implementing it; keep the checklist (${trackerFile}) current with task_tracker.`,
    false,
  );
  return null;
}
