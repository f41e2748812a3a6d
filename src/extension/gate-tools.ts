/**
 * The shared planning gates (src/core/gates) for the extension host, bundled on their own
 * (dist/gate-tools.js): they carry the validator with markdown-it, the shell policy and the
 * tracker, so they load on first use (a language model tool call, a plan to offer for approval),
 * not at activation. Load it through plan-approval-offer.ts's loadGateTools.
 */
import { posix as path } from 'node:path';
import { findGate, type GateName, type GateResult, type ReadyPlan } from '../core/gates';
import { clearApprovalRecord, readApprovalRecords } from '../core/gates/approval-records';
import { describeIssue } from '../core/plan/repair';
import { validatePlan } from '../core/plan/validate';
import { refreshTrackerFromPlan } from '../core/session/handoff';
import { nodeFileSystem } from '../node/fs';

/** Runs a gate in `root`; `onPlanReady` hears of a plan savePlan put on disk. */
export function runGate(
  name: GateName,
  input: unknown,
  root: string,
  onPlanReady: (plan: ReadyPlan) => void,
): Promise<GateResult> {
  return findGate(name).handler(input, { root, fs: nodeFileSystem, onPlanReady });
}

/**
 * The user approved a saved plan in VS Code ("Ready to code?"): if it is still ready (it may have
 * been edited since), its checklist is written (TRK-7), the one `vtplan_taskTracker` then reads.
 */
export async function approveSavedPlan(
  root: string,
  planFile: string,
): Promise<{ ok: true; trackerFile: string } | { ok: false; reason: string }> {
  const absolute = path.join(root, planFile);
  const markdown = await nodeFileSystem.readText(absolute);
  if (markdown === null) return { ok: false, reason: 'the plan file no longer exists' };
  const report = validatePlan(markdown);
  if (!report.ready)
    return {
      ok: false,
      reason: `it is not valid any more: ${report.errors.map(describeIssue).join('; ')}`,
    };
  const refreshed = await refreshTrackerFromPlan(nodeFileSystem, root, absolute, markdown);
  if (!refreshed.ok) return { ok: false, reason: refreshed.reason };
  // Approved: a record of another agent's save (vtplan mcp) is not offered again after a reload.
  await clearApprovalRecord(nodeFileSystem, root, path.basename(planFile, '.md'));
  return { ok: true, trackerFile: refreshed.trackerFile };
}

/** A plan another process saved through the gates, still ready, to offer for approval. */
interface OfferablePlan extends Pick<ReadyPlan, 'slug' | 'path' | 'relativePath' | 'title'> {
  /** When it was saved (the record's `savedAt`): a newer save of the same plan is a new offer. */
  savedAt: string;
}

/**
 * The plans recorded under `.vtcode/approvals/` (another agent's savePlan through `vtplan mcp`)
 * that are still ready to approve; `skipped` says why the others are not offered (a malformed
 * record, a plan deleted or edited into an invalid one since).
 */
export async function plansAwaitingApproval(root: string): Promise<{ offers: OfferablePlan[]; skipped: string[] }> {
  const { pending, problems } = await readApprovalRecords(nodeFileSystem, root);
  const offers: OfferablePlan[] = [];
  const skipped = problems.map((p) => `${p.path}: ${p.message}`);
  for (const record of pending) {
    const absolute = path.join(root, record.plan);
    const markdown = await nodeFileSystem.readText(absolute);
    const report = markdown === null ? null : validatePlan(markdown);
    if (report === null) skipped.push(`${record.plan} was saved by ${record.savedBy} but no longer exists`);
    else if (!report.ready)
      skipped.push(
        `${record.plan} was saved by ${record.savedBy} but is not ready any more: ${report.errors.map(describeIssue).join('; ')}`,
      );
    else
      offers.push({
        slug: record.slug,
        path: absolute,
        relativePath: record.plan,
        title: report.doc.title,
        savedAt: record.savedAt,
      });
  }
  return { offers, skipped };
}
