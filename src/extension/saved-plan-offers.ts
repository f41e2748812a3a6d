/**
 * Plans another agent saved through `vtplan mcp` (issue 18; GATE-6, ADD-2) are offered for
 * approval here, in every folder of the window. That process cannot tell VS Code directly, so its
 * savePlan leaves a record under `.vtcode/approvals/` (core/gates/approval-records.ts); this
 * watches that folder in each workspace folder (node/folder-watch.ts: VS Code's watcher misses a
 * folder created right after its parent) and shows the "Ready to code?" notification of
 * plan-approval-offer.ts for every record whose plan is still ready.
 *
 * Only records are offered: a plan the chat session persisted (it has its own gate), a plan file
 * the user edits, and a plan VS Code's own tools saved (offered when saved) have none. Approving
 * removes the record, so an approved plan is not offered again after a reload; a notification
 * closed unanswered is offered again by the next window. A newer save of the same plan is a new
 * offer. Nothing is read or offered in an untrusted workspace (approving writes under .vtcode/)
 * until the user trusts it.
 */
import * as vscode from 'vscode';
import { APPROVALS_DIR } from '../core/plan/files';
import { errorMessage } from '../core/errors';
import { watchFolders, type FolderWatch } from '../node/folder-watch';
import { loadGateTools, offerApproval, type ApprovalOfferDeps } from './plan-approval-offer';

/** Lets a burst of events (a temp file, then the rename) end in one read. */
const SCAN_DELAY_MS = 100;

interface WatchedFolder {
  watch: FolderWatch;
  timer: ReturnType<typeof setTimeout> | undefined;
}

class SavedPlanOffers implements vscode.Disposable {
  private readonly folders = new Map<string, WatchedFolder>();
  /** `root, plan, savedAt` of every save offered in this window: each save is offered once. */
  private readonly offered = new Set<string>();
  /** `root, plan` of the notifications open now: a newer save waits until that one is answered. */
  private readonly showing = new Set<string>();
  /** Skipped records already logged, so a watcher event does not log them again. */
  private readonly reported = new Set<string>();
  private disposed = false;

  constructor(private readonly deps: ApprovalOfferDeps) {}

  /** Watches exactly the open local folders. */
  sync(): void {
    if (this.disposed) return;
    const roots = new Set(
      (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    );
    for (const [root, folder] of this.folders) {
      if (roots.has(root)) continue;
      this.stop(folder);
      this.folders.delete(root);
    }
    for (const root of roots) {
      if (this.folders.has(root)) continue;
      const folder: WatchedFolder = { watch: { dispose: () => undefined }, timer: undefined };
      this.folders.set(root, folder);
      // Attaching reports an approvals folder that exists already: its records are read then.
      folder.watch = watchFolders(root.replace(/\\/g, '/'), [APPROVALS_DIR], () => this.schedule(root));
    }
  }

  private schedule(root: string): void {
    const folder = this.folders.get(root);
    if (!folder) return;
    if (folder.timer) clearTimeout(folder.timer);
    folder.timer = setTimeout(() => {
      folder.timer = undefined;
      this.scan(root).catch((err: unknown) =>
        this.deps.log.error(`Could not read the plans awaiting approval in ${root}: ${errorMessage(err)}`),
      );
    }, SCAN_DELAY_MS);
  }

  private async scan(root: string): Promise<void> {
    const { offers, skipped } = await (await loadGateTools()).plansAwaitingApproval(root);
    if (this.disposed || !this.folders.has(root)) return;
    for (const reason of skipped) {
      if (this.reported.has(reason)) continue;
      this.reported.add(reason);
      this.deps.log.warn(`Not offered for approval: ${reason}`);
    }
    for (const plan of offers) {
      const open = `${root}\n${plan.relativePath}`;
      const save = `${open}\n${plan.savedAt}`;
      if (this.offered.has(save) || this.showing.has(open)) continue;
      this.offered.add(save);
      this.showing.add(open);
      this.deps.log.info(`Offering ${plan.relativePath} for approval (saved through the planning gates)`);
      void offerApproval(this.deps, root, plan).finally(() => {
        this.showing.delete(open);
        // A save that arrived while this one was showing is offered now.
        this.schedule(root);
      });
    }
  }

  private stop(folder: WatchedFolder): void {
    folder.watch.dispose();
    if (folder.timer) clearTimeout(folder.timer);
  }

  dispose(): void {
    this.disposed = true;
    for (const folder of this.folders.values()) this.stop(folder);
    this.folders.clear();
  }
}

/**
 * Starts offering for the extension's lifetime, once the workspace is trusted. The folder watches
 * (a stat chain and fs.watch per folder) are set up after activate() has returned, as the Tasks
 * view's are: activation only registers.
 */
export function registerSavedPlanOffers(context: vscode.ExtensionContext, deps: ApprovalOfferDeps): void {
  const offers = new SavedPlanOffers(deps);
  const syncIfTrusted = (): void => {
    if (vscode.workspace.isTrusted) offers.sync();
  };
  context.subscriptions.push(
    offers,
    vscode.workspace.onDidChangeWorkspaceFolders(syncIfTrusted),
    vscode.workspace.onDidGrantWorkspaceTrust(syncIfTrusted),
  );
  setTimeout(syncIfTrusted, 0);
}
