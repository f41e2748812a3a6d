import * as vscode from 'vscode';
import { NotRegularFileError, type Writer } from '../core/ports';

/**
 * The Writer port in VS Code: agent edits go through a WorkspaceEdit, so they land in the undo
 * stack and open editors update in place, then the document is saved so the tools (which read
 * from disk) see the change. A file with unsaved edits in an editor is left alone: the agent's
 * write fails with a message instead of overwriting what the user typed.
 */
export const workspaceEditWriter: Writer = {
  async writeText(path, content) {
    const uri = vscode.Uri.file(path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath);
    if (open?.isDirty) {
      throw new Error(
        `${vscode.workspace.asRelativePath(uri)} has unsaved changes in the editor; save or revert them, then ask again.`,
      );
    }
    const edit = new vscode.WorkspaceEdit();
    let stat: vscode.FileStat | null = null;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      // Missing: created below.
    }
    const exists = stat !== null;
    // openTextDocument on a FIFO waits for a writer forever; a directory or device is no text either.
    if (stat !== null && (stat.type & vscode.FileType.File) === 0) {
      throw new NotRegularFileError(path, (stat.type & vscode.FileType.Directory) !== 0 ? 'directory' : 'other');
    }
    if (!exists) {
      edit.createFile(uri, { ignoreIfExists: true });
      edit.insert(uri, new vscode.Position(0, 0), content);
    } else {
      const doc = open ?? (await vscode.workspace.openTextDocument(uri));
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), content);
    }
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error(`VS Code refused the edit to ${vscode.workspace.asRelativePath(uri)}.`);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty && !(await saveOrJoin(doc)))
      throw new Error(`${vscode.workspace.asRelativePath(uri)} was edited but could not be saved.`);
  },
};

/** How long a save already running (an auto-save) may take to finish before the edit counts as unsaved. */
const JOIN_SAVE_MS = 10_000;

/**
 * Saves the document. VS Code drops a save asked for while another save of the same document is
 * running its save participants (the browser workbench's auto-save fires a second after an
 * edit): save() is then false although that other save writes this edit too. So a dropped save
 * waits for the running one, and only a document still dirty afterwards is a failure.
 */
async function saveOrJoin(doc: vscode.TextDocument): Promise<boolean> {
  if ((await doc.save()) || !doc.isDirty) return true;
  return new Promise<boolean>((resolve) => {
    const finish = (): void => {
      saved.dispose();
      clearTimeout(timer);
      resolve(!doc.isDirty);
    };
    const saved = vscode.workspace.onDidSaveTextDocument((d) => {
      if (d.uri.toString() === doc.uri.toString()) finish();
    });
    const timer = setTimeout(finish, JOIN_SAVE_MS);
  });
}
