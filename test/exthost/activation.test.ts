import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';

const EXTENSION_ID = 'vtcode.vtcode-planning';

suite('activation and contributions (issue 2)', () => {
  test('runs inside the real VS Code the run asked for (VTPLAN_EXPECT_VSCODE, default 1.139) with the sample workspace open', () => {
    const expected = process.env.VTPLAN_EXPECT_VSCODE ?? '1.139';
    assert.ok(vscode.version.startsWith(`${expected}.`), `VS Code ${vscode.version}, expected ${expected}.x`);
    assert.equal(vscode.workspace.workspaceFolders?.length, 1);
  });

  test('declares no eager activation (no "*", no onStartupFinished)', () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    const events = (ext.packageJSON as { activationEvents?: string[] }).activationEvents ?? [];
    assert.ok(
      !events.includes('*') && !events.includes('onStartupFinished'),
      `eager activation events: ${events.join(', ')}`,
    );
  });

  test('Start Planning reveals the chat view and switches to plan mode', async () => {
    await vscode.commands.executeCommand('vtplan.startPlanning');
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
    assert.ok(ext?.isActive, 'the command activated the extension');
    const api = ext.exports;
    assert.equal(api.host.current?.state.agent, 'plan');
    for (let i = 0; i < 50 && !api.chat.visible; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(api.chat.visible, true, 'chat view is visible');
  });

  test('every contributed command is registered (no command that does nothing)', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const pkg = ext.packageJSON as { contributes: { commands: { command: string }[] } };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = pkg.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });

  test('Stop Planning returns to the previous execution agent', async () => {
    const api = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports;
    await vscode.commands.executeCommand('vtplan.startPlanning');
    await vscode.commands.executeCommand('vtplan.stopPlanning');
    assert.equal(api.host.current?.state.agent, 'build');
    await vscode.commands.executeCommand('vtplan.startPlanning');
    assert.equal(api.host.current?.state.agent, 'plan');
  });
});
