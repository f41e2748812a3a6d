/**
 * Issue 13 item 7 in the real extension host: the first session in a workspace writes
 * `.vtcode/.gitignore` (session logs and the global task mirror ignored, plans visible), and a
 * user's own file there is never rewritten.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';

suite('.vtcode/.gitignore on first use (issue 13)', () => {
  let api: ExtensionApi;
  let root: string;
  let vtcode: string;
  const aside = () => `${vtcode}-before-gitignore-test`;

  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>('vtcode.vtcode-planning');
    assert.ok(ext);
    api = await ext.activate();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    vtcode = join(root, '.vtcode');
    // Earlier suites' sessions live in .vtcode: it goes aside (an idle session first), so this
    // suite sees a workspace the runtime has never used, and comes back afterwards.
    await api.host.newSession();
    if (existsSync(vtcode)) renameSync(vtcode, aside());
  });

  suiteTeardown(async () => {
    rmSync(vtcode, { recursive: true, force: true });
    if (existsSync(aside())) renameSync(aside(), vtcode);
    // The later suites get a session whose log is in the restored folder.
    await api.host.newSession();
  });

  test('a session start creates .vtcode/.gitignore ignoring sessions/, tasks/ and approvals/ only', async () => {
    assert.equal(existsSync(vtcode), false, 'the runtime has not used this workspace yet');
    await api.host.newSession();
    const session = api.host.current;
    assert.ok(session && existsSync(session.logPath), 'the session log exists');
    const text = readFileSync(join(vtcode, '.gitignore'), 'utf8');
    const rules = text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    assert.deepEqual(rules, ['sessions/', 'tasks/', 'approvals/']);
    assert.match(text, /plans/, 'the comment says plans stay visible');
  });

  test("the next session keeps a user's own .vtcode/.gitignore as it is", async () => {
    const own = '# We commit our session logs too.\n';
    writeFileSync(join(vtcode, '.gitignore'), own);
    await api.host.newSession();
    assert.equal(readFileSync(join(vtcode, '.gitignore'), 'utf8'), own);
  });
});
