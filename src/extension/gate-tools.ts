/**
 * The shared planning gates (src/core/gates) for the extension host, bundled on their own
 * (dist/gate-tools.js): they carry the validator with markdown-it, the shell policy and the
 * tracker, so they load on the first language model tool call, not at activation. Load it
 * through lm-tools.ts.
 */
import { posix as path } from 'node:path';
import { findGate, type GateName, type GateResult, type ReadyPlan } from '../core/gates';
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
  return refreshed.ok ? { ok: true, trackerFile: refreshed.trackerFile } : { ok: false, reason: refreshed.reason };
}
