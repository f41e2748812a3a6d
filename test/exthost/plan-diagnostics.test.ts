import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'vtcode.vtcode-planning';

/** The demo plan with two steps; `assumptions: false` leaves out its Assumptions section. */
function demoPlan(steps: readonly [string, string], assumptions: boolean): string {
  return [
    '# Exthost diagnostics demo',
    '',
    '## Summary',
    'Show validator problems as diagnostics.',
    '',
    '## Scope',
    '- In: src/a.ts',
    '',
    '## Implementation Steps',
    ...steps.map((step, i) => `${i + 1}. ${step}`),
    '',
    '## Test Cases and Validation',
    '- `npm test`',
    '',
    ...(assumptions ? ['## Assumptions and Defaults', '- Nothing else changes.', ''] : []),
  ].join('\n');
}

const INVALID_PLAN = demoPlan(
  ['Update `parse` -> files: [src/a.ts] -> verify: [run checks]', 'Tidy `format` -> files: [src/b.ts]'],
  false,
);

const VALID_PLAN = demoPlan(
  [
    'Update `parse` -> files: [src/a.ts] -> verify: [npm test]',
    'Tidy `format` -> files: [src/b.ts] -> verify: [npx eslint src/b.ts]',
  ],
  true,
);

async function until<T>(read: () => T, ok: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function summary(uri: vscode.Uri): Array<{ code: string; line: number; severity: string; source: string | undefined }> {
  return vscode.languages.getDiagnostics(uri).map((d) => ({
    code: String(typeof d.code === 'object' ? d.code.value : d.code),
    line: d.range.start.line + 1,
    severity:
      d.severity === vscode.DiagnosticSeverity.Error
        ? 'Error'
        : d.severity === vscode.DiagnosticSeverity.Warning
          ? 'Warning'
          : 'Other',
    source: d.source,
  }));
}

suite('Plan diagnostics (ADD-3, PLAN-2..PLAN-6)', () => {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const plansDir = folder ? vscode.Uri.joinPath(folder, '.vtcode', 'plans') : undefined;
  const planUri = plansDir ? vscode.Uri.joinPath(plansDir, 'x.md') : undefined;
  const sidecarUri = plansDir ? vscode.Uri.joinPath(plansDir, 'x.tasks.md') : undefined;
  const laterPlanUri = plansDir ? vscode.Uri.joinPath(plansDir, 'y.md') : undefined;

  suiteSetup(async () => {
    assert.ok(folder && plansDir, 'a workspace folder is open');
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await vscode.workspace.fs.createDirectory(plansDir);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const uri of [planUri, sidecarUri, laterPlanUri]) {
      if (uri) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    }
  });

  test('an invalid plan file shows the validator errors on the offending lines', async () => {
    assert.ok(planUri);
    await vscode.workspace.fs.writeFile(planUri, new TextEncoder().encode(INVALID_PLAN));
    const doc = await vscode.workspace.openTextDocument(planUri);
    await vscode.window.showTextDocument(doc);
    const diagnostics = await until(
      () => summary(planUri),
      (d) => d.length >= 3,
      'diagnostics appear for the open plan',
    );
    assert.deepEqual(
      diagnostics
        .filter((d) => d.severity === 'Error')
        .map((d) => [d.code, d.line])
        .sort(),
      [
        ['missing_section', 1],
        ['step_missing_verify', 11],
        ['step_vague_verify', 10],
      ].sort(),
    );
    assert.ok(diagnostics.every((d) => d.source === 'vtplan'));
    const message = vscode.languages.getDiagnostics(planUri).find((d) => d.code === 'step_vague_verify')?.message ?? '';
    assert.match(message, /`run checks`/);
  });

  test('fixing the plan in the editor clears the diagnostics (debounced re-validation)', async () => {
    assert.ok(planUri);
    const doc = await vscode.workspace.openTextDocument(planUri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(planUri, new vscode.Range(0, 0, doc.lineCount, 0), VALID_PLAN);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await until(
      () => summary(planUri),
      (d) => d.length === 0,
      'diagnostics clear once the plan is valid',
    );
  });

  test('breaking the plan again while typing brings the diagnostic back', async () => {
    assert.ok(planUri);
    const doc = await vscode.workspace.openTextDocument(planUri);
    const line = doc.lineAt(9);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(planUri, line.range, '1. Update `parse` -> files: [src/a.ts] -> verify: [git diff --check]');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const d = await until(
      () => summary(planUri),
      (x) => x.length === 1,
      'the new problem is reported',
    );
    assert.deepEqual(d[0] && [d[0].code, d[0].line, d[0].severity], ['step_vague_verify', 10, 'Error']);
  });

  test('issue 14: a plan written as a four-backtick code block is reported where the chat shows code; the same plan unwrapped, in bold-line sections, is clean', async () => {
    assert.ok(planUri);
    const boldLines = VALID_PLAN.replace(/^## (.*)$/gm, '**$1**');
    const fenced = `Copy this plan:\n\n\`\`\`\`markdown\n${VALID_PLAN}\`\`\`\`\n`;
    // An edit, not a write to disk: the earlier tests leave the document open with unsaved edits,
    // and VS Code does not reload a dirty document from disk.
    const doc = await vscode.workspace.openTextDocument(planUri);
    await vscode.window.showTextDocument(doc);
    const wrap = new vscode.WorkspaceEdit();
    wrap.replace(planUri, new vscode.Range(0, 0, doc.lineCount, 0), fenced);
    assert.ok(await vscode.workspace.applyEdit(wrap));
    await until(
      () => summary(planUri),
      (d) => d.filter((x) => x.code === 'missing_section').length === 4,
      'the four sections are missing outside the code block',
    );
    const messages = vscode.languages
      .getDiagnostics(planUri)
      .filter((d) => d.code === 'missing_section')
      .map((d) => d.message);
    for (const m of messages) assert.match(m, /only inside the code block at lines 3-\d+.*remove the code fence/);

    const edit = new vscode.WorkspaceEdit();
    edit.replace(planUri, new vscode.Range(0, 0, doc.lineCount, 0), boldLines);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await until(
      () => summary(planUri).filter((d) => d.severity === 'Error'),
      (d) => d.length === 0,
      'no errors for the bold-line plan',
    );
  });

  test('tracker sidecars (*.tasks.md) get no plan diagnostics', async () => {
    assert.ok(sidecarUri);
    await vscode.workspace.fs.writeFile(
      sidecarUri,
      new TextEncoder().encode('# Exthost diagnostics demo\n\n## Plan of Work\n\n- [ ] Update parse\n'),
    );
    const doc = await vscode.workspace.openTextDocument(sidecarUri);
    await vscode.window.showTextDocument(doc);
    // Positive control instead of a fixed wait: a defective plan opened after the sidecar gets its
    // diagnostics, so the sidecar's open was handled before the check below.
    assert.ok(laterPlanUri);
    await vscode.workspace.fs.writeFile(laterPlanUri, new TextEncoder().encode(INVALID_PLAN));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(laterPlanUri));
    await until(
      () => summary(laterPlanUri),
      (d) => d.length > 0,
      'the plan opened after the sidecar is validated',
    );
    assert.deepEqual(summary(sidecarUri), []);
  });
});
