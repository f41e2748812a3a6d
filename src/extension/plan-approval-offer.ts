/**
 * GATE-6 for a plan an agent saved through the planning gates: the "Ready to code?" notification.
 * Two routes lead here, one notification: VS Code's own language model tools (lm-tools.ts) offer
 * the plan their savePlan just wrote; saved-plan-offers.ts offers the plans another process
 * (`vtplan mcp`) recorded under `.vtcode/approvals/`. A plan the chat session holds has its own
 * gate (session-host.ts), never this one.
 *
 * Approve writes the plan's checklist (TRK-7) and removes its approval record (gate-tools.ts
 * approveSavedPlan), and the Tasks view follows it; the agent sees the approval as that checklist
 * (taskTracker list). Open Plan opens the file and asks again, since this notification is the only
 * approval route for a plan no chat session holds.
 */
import * as vscode from 'vscode';
import type { ReadyPlan } from '../core/gates/gate';
import { errorMessage } from '../core/errors';
import type { TasksViewModel } from './tasks-view';

let loading: Promise<typeof import('./gate-tools.js')> | null = null;

/** The gates' bundle (dist/gate-tools.js), loaded on first use, not at activation. */
export function loadGateTools(): Promise<typeof import('./gate-tools.js')> {
  loading ??= import('./gate-tools.js');
  return loading;
}

export interface ApprovalOfferDeps {
  log: vscode.LogOutputChannel;
  /** The Tasks view, asked for only once the user approves (it loads the workbench). */
  tasks: () => TasksViewModel;
}

type OfferedPlan = Pick<ReadyPlan, 'path' | 'relativePath' | 'title'>;

/** Resolves once the user has answered (or closed) the notification. Never throws: a failure is shown. */
export async function offerApproval(deps: ApprovalOfferDeps, root: string, plan: OfferedPlan): Promise<void> {
  try {
    for (;;) {
      const pick = await vscode.window.showInformationMessage(
        `Plan ready: ${plan.title ?? plan.relativePath} — Ready to code?`,
        'Approve',
        'Open Plan',
      );
      if (pick !== 'Open Plan') {
        if (pick === 'Approve') await approve(deps, root, plan);
        return;
      }
      await vscode.window.showTextDocument(vscode.Uri.file(plan.path), { preview: false });
    }
  } catch (err) {
    deps.log.error(`The "Ready to code?" offer for ${plan.relativePath} failed: ${errorMessage(err)}`);
    void vscode.window.showErrorMessage(`${plan.relativePath}: ${errorMessage(err)}`);
  }
}

async function approve(deps: ApprovalOfferDeps, root: string, plan: OfferedPlan): Promise<void> {
  const approved = await (await loadGateTools()).approveSavedPlan(root, plan.relativePath);
  if (!approved.ok) {
    void vscode.window.showWarningMessage(`${plan.relativePath} was not approved: ${approved.reason}`);
    return;
  }
  await deps.tasks().setActivePlan(plan.path);
}
