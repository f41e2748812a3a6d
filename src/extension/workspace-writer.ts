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
    if (doc.isDirty && !(await doc.save()))
      throw new Error(`${vscode.workspace.asRelativePath(uri)} was edited but could not be saved.`);
  },
};
