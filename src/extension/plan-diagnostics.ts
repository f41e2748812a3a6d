/**
 * Live validation diagnostics for plan files (ADD-3): every open `.vtcode/plans/<slug>.md`
 * (tracker sidecars `*.tasks.md` excluded) shows the validator's errors and warnings on the
 * offending lines, re-validated as the user types (debounced) and at once on save, and cleared
 * when the file is closed or has nothing left to report.
 */
import * as vscode from 'vscode';
import { isPlanFilePath } from '../core/plan/files';
import { loadPlanModel } from './lazy-plan-model';
import type { PlanIssue } from './plan-model';
import { errorMessage } from '../core/errors';

const PLAN_DIAGNOSTIC_SOURCE = 'vtplan';
const DEBOUNCE_MS = 300;
/** Schemes of real files; `git:` and other virtual copies of a plan would only duplicate its problems. */
const FILE_SCHEMES = new Set(['file', 'vscode-remote']);

function isPlanDocument(doc: vscode.TextDocument): boolean {
  return FILE_SCHEMES.has(doc.uri.scheme) && isPlanFilePath(doc.uri.path);
}

function toDiagnostic(
  doc: vscode.TextDocument,
  issue: PlanIssue,
  severity: vscode.DiagnosticSeverity,
  fallbackLine: number,
): vscode.Diagnostic {
  const lineIndex = Math.min(Math.max((issue.line ?? fallbackLine) - 1, 0), Math.max(doc.lineCount - 1, 0));
  const line = doc.lineAt(lineIndex);
  const start = line.firstNonWhitespaceCharacterIndex;
  const range = new vscode.Range(lineIndex, start < line.text.length ? start : 0, lineIndex, line.text.length);
  const diagnostic = new vscode.Diagnostic(range, issue.message, severity);
  diagnostic.source = PLAN_DIAGNOSTIC_SOURCE;
  diagnostic.code = issue.code;
  return diagnostic;
}

async function planDiagnostics(doc: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  const { validatePlan } = await loadPlanModel();
  const report = validatePlan(doc.getText());
  // Plan-wide issues (a missing section, the token budget) sit on the title line, else line 1.
  const fallback = report.doc.titleLine ?? 1;
  return [
    ...report.errors.map((e) => toDiagnostic(doc, e, vscode.DiagnosticSeverity.Error, fallback)),
    ...report.warnings.map((w) => toDiagnostic(doc, w, vscode.DiagnosticSeverity.Warning, fallback)),
  ];
}

export function registerPlanDiagnostics(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const collection = vscode.languages.createDiagnosticCollection(PLAN_DIAGNOSTIC_SOURCE);
  const pending = new Map<string, ReturnType<typeof setTimeout>>();

  const cancel = (uri: vscode.Uri): void => {
    const key = uri.toString();
    const timer = pending.get(key);
    if (timer !== undefined) clearTimeout(timer);
    pending.delete(key);
  };

  const refresh = (doc: vscode.TextDocument): void => {
    cancel(doc.uri);
    if (doc.isClosed || !isPlanDocument(doc)) return;
    const version = doc.version;
    planDiagnostics(doc).then(
      (diagnostics) => {
        // The text changed or the file closed meanwhile: a newer refresh (or the close) owns the result.
        if (doc.isClosed || doc.version !== version) return;
        if (diagnostics.length === 0) collection.delete(doc.uri);
        else collection.set(doc.uri, diagnostics);
      },
      (err: unknown) => log.error(`Could not validate ${doc.uri.fsPath}: ${errorMessage(err)}`),
    );
  };

  const schedule = (doc: vscode.TextDocument): void => {
    if (!isPlanDocument(doc)) return;
    cancel(doc.uri);
    pending.set(
      doc.uri.toString(),
      setTimeout(() => refresh(doc), DEBOUNCE_MS),
    );
  };

  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((e) => schedule(e.document)),
    // A save re-validates the plan under review (GATE-2) and its warning offers "Show Problems":
    // the list must be the saved text's now, not after the typing debounce.
    vscode.workspace.onDidSaveTextDocument(refresh),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      cancel(doc.uri);
      collection.delete(doc.uri);
    }),
    { dispose: () => pending.forEach((timer) => clearTimeout(timer)) },
  );
  for (const doc of vscode.workspace.textDocuments) refresh(doc);
}
