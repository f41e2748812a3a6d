/**
 * Plan files in the editor: the "Approve plan" / "Edit plan" CodeLens on the plan under review
 * (ADD-3, GATE-6), the context key that scopes Ctrl+G to its editor, and re-validation on save for
 * the Ctrl+G flow (GATE-2). Diagnostics live in plan-diagnostics.ts.
 */
import * as vscode from 'vscode';
import type { SessionHost } from './session-host';

class PlanCodeLens implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly host: SessionHost) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.host.isPlanUnderReview(doc.uri)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: '$(check) Approve plan',
        command: 'vtplan.approvePlan',
        tooltip: 'Ready to code: implement this plan with the build agent',
      }),
      new vscode.CodeLens(top, {
        title: '$(edit) Edit plan',
        command: 'vtplan.editPlan',
        tooltip: 'Edit, then save: the plan is re-validated and the gate shows again',
      }),
    ];
  }
}

/**
 * `vtplan.planEditorFocused`: the active text editor shows the plan under review. With
 * `editorTextFocus` it scopes Ctrl+G (Edit Plan) to that editor, so Go to Line keeps the key in
 * every other one (package.json keybindings). Compared by workspace-relative path, as the session
 * names its plan, which also holds for remote and Windows paths.
 */
function syncPlanEditorKey(host: SessionHost): void {
  const pending = host.current?.state.pendingApproval;
  const editor = vscode.window.activeTextEditor;
  const showsPlan = Boolean(
    pending && editor && vscode.workspace.asRelativePath(editor.document.uri, false) === pending.planFile,
  );
  void vscode.commands.executeCommand('setContext', 'vtplan.planEditorFocused', showsPlan);
}

export function registerPlanDocuments(context: vscode.ExtensionContext, host: SessionHost): void {
  const lens = new PlanCodeLens(host);
  syncPlanEditorKey(host);
  context.subscriptions.push(
    host.onDidChangeApproval(() => {
      lens.refresh();
      syncPlanEditorKey(host);
    }),
    vscode.window.onDidChangeActiveTextEditor(() => syncPlanEditorKey(host)),
    vscode.languages.registerCodeLensProvider({ language: 'markdown', pattern: '**/.vtcode/plans/*.md' }, lens),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (/[\\/]\.vtcode[\\/]plans[\\/][^\\/]+\.md$/.test(doc.uri.fsPath) && !doc.uri.fsPath.endsWith('.tasks.md'))
        void host.onPlanSaved(doc);
    }),
  );
}
