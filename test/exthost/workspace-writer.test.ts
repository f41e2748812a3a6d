/**
 * The Writer port in real VS Code: a build or auto agent's edit goes through the editor and is saved.
 * The browser workbench auto-saves a second after an edit; a save VS Code is already running when
 * the writer asks makes VS Code drop the writer's save (save() gives false). That other save
 * writes the edit too, so the agent's edit must not be reported as unsaved.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { workspaceEditWriter } from '../../src/extension/workspace-writer';

suite('Agent edits saved through the editor', () => {
  const disposables: vscode.Disposable[] = [];
  let file: string;

  setup(() => {
    file = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'writer-join-save.txt');
    writeFileSync(file, 'before\n');
  });

  teardown(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(file, { force: true });
  });

  test('an edit whose save VS Code drops because another save of the file is running is saved by that save, and reported as written', async () => {
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const uri = doc.uri.toString();
    // Stands in for the auto-save: it starts as soon as the agent's edit lands and holds its save
    // participants long enough for the writer's own save to arrive meanwhile.
    let otherSave: Thenable<boolean> | undefined;
    let willSave = 0;
    disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === uri && otherSave === undefined) otherSave = e.document.save();
      }),
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (e.document.uri.toString() !== uri) return;
        willSave += 1;
        if (willSave === 1) e.waitUntil(new Promise<void>((resolve) => setTimeout(resolve, 500)));
      }),
    );

    await workspaceEditWriter.writeText(file, 'after\n');

    assert.ok(otherSave, 'the other save started when the edit landed');
    assert.equal(await otherSave, true, 'the other save went through');
    // Positive control: the writer's save really was dropped (it never reached the save participants).
    assert.equal(willSave, 1, 'one save ran: the writer asked while the other one was running');
    assert.equal(doc.isDirty, false);
    assert.equal(readFileSync(file, 'utf8'), 'after\n');
  });
});
