/**
 * Which workspace folder the chat session works in (issue 15 item 5). A session, its tools, its
 * `.vtcode/` folder and the Tasks view belong to one folder. With one folder open that is the
 * folder. With several, the first session takes the active editor's folder, or asks with a quick
 * pick when no editor says; the choice is kept per window (workspace state) and changed with
 * "VT Code: Switch Folder…". Folders on other file systems (virtual workspaces) are never offered:
 * the tools read and run on this machine's disk.
 */
import * as vscode from 'vscode';
import { NoFolderChosenError, NoWorkspaceFolderError } from './failure-notices';

const CHOSEN_KEY = 'vtplan.sessionFolder';

type FolderPick = vscode.QuickPickItem & { folder: vscode.WorkspaceFolder };

export class SessionFolders implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the folder sessions work in changes: chosen, switched, or its folder left the workspace. */
  readonly onDidChange = this.changed.event;
  private readonly watch: vscode.Disposable;
  private last: string | undefined;

  constructor(private readonly state: vscode.Memento) {
    this.last = this.current?.uri.toString();
    this.watch = vscode.workspace.onDidChangeWorkspaceFolders(() => this.emitIfChanged());
  }

  private get folders(): readonly vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  /** More than one folder is open: the chat names the session's folder and offers to switch. */
  get multiRoot(): boolean {
    return this.folders.length > 1;
  }

  /** The folder chosen for this window while it is open, else the only folder; undefined while a choice is still to be made. */
  get current(): vscode.WorkspaceFolder | undefined {
    const folders = this.folders;
    if (folders.length === 1) return folders[0];
    const chosen = this.state.get<string>(CHOSEN_KEY);
    return folders.find((f) => f.uri.toString() === chosen);
  }

  /**
   * The folder for a session about to open: the current one; else the active editor's folder;
   * else the one the user picks. Remembered for the window.
   */
  async resolve(): Promise<vscode.WorkspaceFolder> {
    const current = this.current;
    if (current) return current;
    if (this.folders.length === 0) throw new NoWorkspaceFolderError();
    const editor = vscode.window.activeTextEditor?.document.uri;
    const ofEditor = editor ? vscode.workspace.getWorkspaceFolder(editor) : undefined;
    const folder =
      (ofEditor && this.folders.find((f) => f.uri.toString() === ofEditor.uri.toString())) ??
      (await this.pick('Choose the folder VT Code Planning works in'));
    if (!folder) throw new NoFolderChosenError();
    await this.choose(folder);
    return folder;
  }

  /** The quick pick of "VT Code: Switch Folder…"; undefined when dismissed. */
  async pick(
    placeHolder = 'Switch the folder VT Code Planning works in (starts a new session)',
  ): Promise<vscode.WorkspaceFolder | undefined> {
    const current = this.current?.uri.toString();
    const items = this.folders.map((folder): FolderPick => ({
      label: folder.name,
      description: folder.uri.fsPath,
      ...(folder.uri.toString() === current ? { detail: 'The current session works here' } : {}),
      folder,
    }));
    const picked = await vscode.window.showQuickPick(items, { title: 'VT Code: Switch Folder', placeHolder });
    return picked?.folder;
  }

  async choose(folder: vscode.WorkspaceFolder): Promise<void> {
    await this.state.update(CHOSEN_KEY, folder.uri.toString());
    this.emitIfChanged();
  }

  private emitIfChanged(): void {
    const now = this.current?.uri.toString();
    if (now === this.last) return;
    this.last = now;
    this.changed.fire();
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
  }
}
