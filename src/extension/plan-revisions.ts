/**
 * "VT Code: Compare with Previous Plan" (GATE-2): VS Code's diff editor between the previous
 * revision of a plan and its file as it is now. The file only ever holds the latest text; earlier
 * revisions live in the session log (`plan.completed`), so they are served read-only under a
 * scheme of their own, rebuilt from the session's events. The `vtplan.planHasPreviousRevision`
 * context key shows the command in the palette only when there is something to compare.
 */
import * as vscode from 'vscode';
import { basename, join } from 'node:path';
// zod/mini: this module loads at activation, where classic zod's setup costs start-up time.
import * as z from 'zod/mini';
import { isPlanFilePath, planFileContent } from '../core/plan/files';
import { planRevisions, type PlanRevision } from '../core/session/plan-revisions';
import { loadPlanModel } from './lazy-plan-model';
import type { SessionHost } from './session-host';

const REVISION_SCHEME = 'vtplan-revision';
const CONTEXT_KEY = 'vtplan.planHasPreviousRevision';
/** Revision texts kept for VS Code asking again (a reopened diff tab): a handful is plenty. */
const SERVED_LIMIT = 32;

/** A revision URI's query; URIs can be typed by hand or restored by VS Code, so they are checked. */
const RevisionQuery = z.object({
  session: z.string().check(z.minLength(1)),
  revision: z.string().check(z.regex(/^[1-9][0-9]{0,8}$/)),
});

/**
 * What the plan file held at a revision: the runtime saved the model's plans in canonical form;
 * a user's edit was the file as they wrote it.
 */
async function fileTextOf(revision: PlanRevision): Promise<string> {
  if (revision.source === 'editor') return planFileContent(revision.text);
  const { canonicalPlanFile } = await loadPlanModel();
  return canonicalPlanFile(revision.text);
}

export class PlanRevisionDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Texts already shown: a revision never changes, and its session may be closed when VS Code asks again. */
  private readonly served = new Map<string, string>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly host: SessionHost) {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, this),
      // Fired for every approval request, edits included, and when a session opens.
      host.onDidChangeApproval(() => void this.syncContext()),
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const served = this.served.get(uri.toString());
    if (served !== undefined) return served;
    const revision = this.revisionAt(uri);
    return revision
      ? fileTextOf(revision)
      : 'This plan revision belongs to a session that is not open. Open that session (VT Code: Open Session…) and compare again.';
  }

  /** Opens the diff editor: the revision before the latest one on the left, the plan file on the right. */
  async compare(planFileArg?: unknown): Promise<void> {
    const session = this.host.current;
    const root = this.host.sessionRoot;
    const planFile =
      typeof planFileArg === 'string' && isPlanFilePath(planFileArg) ? planFileArg : this.host.planFile();
    const previous = session && planFile ? planRevisions(session.events, planFile).at(-2) : undefined;
    if (!session || !root || !planFile || !previous) {
      void vscode.window.showInformationMessage(
        'This plan has no earlier revision yet. Edit it (Ctrl+G) and save, and the revisions can be compared.',
      );
      return;
    }
    const left = vscode.Uri.from({
      scheme: REVISION_SCHEME,
      path: `/${planFile}`,
      query: new URLSearchParams({ session: session.id, revision: String(previous.number) }).toString(),
    });
    this.remember(left, await fileTextOf(previous));
    const right = vscode.Uri.file(join(root, planFile));
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      `${basename(planFile)} (revision ${previous.number} ↔ current)`,
      { preview: false },
    );
  }

  private revisionAt(uri: vscode.Uri): PlanRevision | undefined {
    const query = RevisionQuery.safeParse(Object.fromEntries(new URLSearchParams(uri.query)));
    const session = this.host.current;
    if (!query.success || !session || session.id !== query.data.session) return undefined;
    return planRevisions(session.events, uri.path.replace(/^\//, '')).find(
      (r) => r.number === Number(query.data.revision),
    );
  }

  private remember(uri: vscode.Uri, text: string): void {
    this.served.delete(uri.toString());
    this.served.set(uri.toString(), text);
    for (const key of this.served.keys()) {
      if (this.served.size <= SERVED_LIMIT) break;
      this.served.delete(key);
    }
  }

  private async syncContext(): Promise<void> {
    const session = this.host.current;
    const planFile = this.host.planFile();
    const comparable = Boolean(session && planFile && planRevisions(session.events, planFile).length > 1);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, comparable);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
