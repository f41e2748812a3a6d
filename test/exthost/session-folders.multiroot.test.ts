/**
 * Issue 15 item 5 in a workspace of two folders, `alpha` and `beta` (test/harness/windows.ts): the
 * session works in one folder (the active editor's, else the one picked), named in the chat
 * header; its tools, `.vtcode/`, the plan's CodeLens and the Tasks view follow it; Switch Folder
 * starts a new session; a folder removed under its session closes that session.
 *
 * Only folders after the first are added or removed here: changing the first folder restarts
 * the extension host (the deprecated `rootPath` follows it).
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionEvent } from '../../src/core/session/events';
import type { ExtensionApi } from '../../src/extension/main';
import {
  alphaAndBeta,
  extensionApi,
  notices,
  recordPanel,
  script,
  until,
  useScriptedChatModel,
  SHOUT_FLAG_PLAN as PLAN,
} from './helpers';

const PLAN_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.md';

/**
 * Accepts the active item of the quick pick `work` opens (the first one), retrying until `work`
 * settles: the picker shows a moment after the command that opens it was sent.
 */
async function acceptFirstPick<T>(work: Thenable<T>): Promise<T> {
  let settled = false;
  const done = Promise.resolve(work).finally(() => {
    settled = true;
  });
  const end = Date.now() + 15_000;
  while (!settled) {
    if (Date.now() > end) throw new Error('the quick pick was never answered');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 100))]);
  }
  return done;
}

/** Changes the workspace folders and waits until VS Code has applied the change (a next change is refused before). */
async function updateFolders(
  start: number,
  deleteCount: number,
  ...add: { uri: vscode.Uri; name?: string }[]
): Promise<void> {
  const applied = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeWorkspaceFolders(() => {
      sub.dispose();
      resolve();
    });
  });
  assert.ok(vscode.workspace.updateWorkspaceFolders(start, deleteCount, ...add), 'VS Code took the folder change');
  await applied;
}

function sessionsIn(folder: string): string[] {
  const dir = join(folder, '.vtcode', 'sessions');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
}

suite('Multi-root: the session works in one chosen folder (issue 15 item 5)', () => {
  let api: ExtensionApi;
  let alpha: vscode.WorkspaceFolder;
  let beta: vscode.WorkspaceFolder;

  suiteSetup(async () => {
    api = await extensionApi();
    [alpha, beta] = alphaAndBeta();
    for (const f of [alpha, beta]) writeFileSync(join(f.uri.fsPath, 'which.txt'), `this is ${f.name}\n`);
    await useScriptedChatModel();
  });

  suiteTeardown(() => script([]));

  test('before any session nothing is chosen: no folder in the header, nothing written to either folder', () => {
    assert.equal(api.folders.current, undefined);
    assert.equal(api.host.snapshot().status.folder, undefined);
    assert.deepEqual([sessionsIn(alpha.uri.fsPath), sessionsIn(beta.uri.fsPath)], [[], []]);
  });

  test("the first session takes the active editor's folder (beta), is named in the header, and is remembered", async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(beta.uri, 'src', 'greet.js'));
    await vscode.window.showTextDocument(doc);
    const panel = recordPanel(api);
    try {
      await api.host.submit('/plan');
    } finally {
      panel.stop();
    }
    assert.equal(api.host.sessionRoot, beta.uri.fsPath);
    assert.equal(api.folders.current?.name, 'beta');
    assert.equal(api.host.snapshot().status.folder, 'beta');
    const state = panel.sent.find((m) => m.type === 'state');
    assert.equal(state?.type === 'state' && state.status.folder, 'beta', 'the panel was told');
    assert.deepEqual(sessionsIn(beta.uri.fsPath), [`${api.host.current!.id}.jsonl`]);
    assert.deepEqual(sessionsIn(alpha.uri.fsPath), []);
  });

  test('tools, the plan file and its CodeLens belong to beta; the same file in alpha is not the plan under review', async () => {
    script([
      [{ toolCall: { id: 'w1', name: 'read_file', input: { path: 'which.txt' } } }],
      [{ text: `Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>` }],
    ]);
    const seen: SessionEvent[] = [];
    api.host.current!.on((e) => seen.push(e));
    assert.deepEqual(await api.host.submit('Add a --shout flag to the greeter'), {
      kind: 'ran',
      status: 'awaiting_approval',
    });
    const read = seen.find((e) => e.type === 'tool.result' && e.name === 'read_file');
    assert.match(read?.type === 'tool.result' ? read.content : '', /this is beta/);
    assert.ok(existsSync(join(beta.uri.fsPath, PLAN_FILE)));
    assert.equal(existsSync(join(alpha.uri.fsPath, PLAN_FILE)), false);

    mkdirSync(dirname(join(alpha.uri.fsPath, PLAN_FILE)), { recursive: true });
    copyFileSync(join(beta.uri.fsPath, PLAN_FILE), join(alpha.uri.fsPath, PLAN_FILE));
    const lenses = async (folder: vscode.WorkspaceFolder) => {
      const uri = vscode.Uri.joinPath(folder.uri, PLAN_FILE);
      await vscode.workspace.openTextDocument(uri);
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      return found.map((l) => l.command?.title ?? '');
    };
    assert.ok((await lenses(beta)).includes('$(check) Approve plan'));
    assert.deepEqual(await lenses(alpha), []);
  });

  test('the Tasks view follows the session folder', async () => {
    for (const f of [alpha, beta]) {
      const sidecar = join(f.uri.fsPath, '.vtcode', 'plans', 'folder-demo.tasks.md');
      writeFileSync(sidecar, `# Checklist of ${f.name}\n\n## Plan of Work\n\n- [ ] Work in ${f.name}\n`);
    }
    await api.tasks.setActivePlan(join(beta.uri.fsPath, '.vtcode', 'plans', 'folder-demo.md'));
    assert.equal(api.tasks.snapshot().title, 'Checklist of beta');
  });

  test('Switch Folder… starts a new session in the folder picked (alpha); the header, the Tasks view and Open Session… follow', async () => {
    const before = api.host.current!;
    // The picker lists alpha first.
    await acceptFirstPick(vscode.commands.executeCommand('vtplan.switchFolder'));
    assert.equal(api.host.sessionRoot, alpha.uri.fsPath);
    assert.notEqual(api.host.current!.id, before.id);
    assert.equal(before.busy, false);
    assert.equal(api.host.current!.state.history.length, 0);
    assert.equal(api.host.snapshot().status.folder, 'alpha');
    assert.equal(api.folders.current?.name, 'alpha');
    assert.deepEqual(sessionsIn(alpha.uri.fsPath), [`${api.host.current!.id}.jsonl`]);
    assert.deepEqual(sessionsIn(beta.uri.fsPath), [`${before.id}.jsonl`], "beta's session stays on disk");
    await until('the Tasks view to show alpha', () => api.tasks.snapshot().title === 'Checklist of alpha');
    assert.deepEqual(
      (await api.host.listSessions()).map((s) => s.id),
      [api.host.current!.id],
    );
  });

  test("a folder added while a session runs changes nothing; removing the session's folder closes its session and says so", async () => {
    const gammaPath = join(dirname(alpha.uri.fsPath), 'gamma');
    mkdirSync(gammaPath, { recursive: true });
    writeFileSync(join(gammaPath, 'which.txt'), 'this is gamma\n');
    const alphaSession = api.host.current!;
    await updateFolders(2, 0, { uri: vscode.Uri.file(gammaPath), name: 'gamma' });
    assert.equal(vscode.workspace.workspaceFolders?.length, 3);
    assert.equal(api.host.current, alphaSession, 'adding a folder keeps the session');

    const gamma = vscode.workspace.workspaceFolders![2]!;
    await api.folders.choose(gamma);
    await until('the alpha session to close', () => api.host.current === null);
    await api.host.newSession();
    assert.equal(api.host.sessionRoot, gammaPath);
    const gammaSession = api.host.current!;

    await updateFolders(2, 1);
    await until('the notice that the session closed', () => api.host.current === null && notices(api).length > 0);
    assert.equal(gammaSession.busy, false);
    assert.equal(api.folders.current, undefined, 'two folders remain and none is chosen');
    const [removed] = notices(api);
    assert.match(
      removed?.text ?? '',
      /^The folder gamma was removed from the workspace, so its session was stopped and closed .* The next message asks which folder to work in\.$/,
    );
    assert.deepEqual(removed?.actions, ['switchFolder']);
  });

  test('with no folder chosen and no editor open, the next message asks for the folder with a quick pick, and the pick is remembered', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await acceptFirstPick(api.host.submit('/plan'));
    assert.equal(api.host.sessionRoot, alpha.uri.fsPath);
    assert.equal(api.folders.current?.name, 'alpha');
  });
});
