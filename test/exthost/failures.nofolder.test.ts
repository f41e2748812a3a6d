/**
 * Issue 15 item 2 in a window with no folder open (test/harness/windows.ts): a message, or Start
 * Planning from the palette, says to open a folder and offers "Open Folder"; the message goes
 * back into the composer.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';
import { extensionApi, notices, recordPanel, until } from './helpers';

suite('No folder open (issue 15 item 2)', () => {
  let api: ExtensionApi;

  suiteSetup(async () => {
    api = await extensionApi();
  });

  test('runs in a window without a folder', () => {
    assert.equal(vscode.workspace.workspaceFolders, undefined);
  });

  test('a message: a notice says to open a folder, offers Open Folder, and the message goes back into the composer', async () => {
    const panel = recordPanel(api);
    try {
      await api.host.handle({ type: 'submit', text: 'Plan a greeter' });
    } finally {
      panel.stop();
    }
    assert.equal(api.host.current, null);
    const shown = notices(api);
    assert.equal(shown.length, 1);
    assert.equal(shown[0]?.level, 'warning');
    assert.match(
      shown[0]?.text ?? '',
      /^Open a folder first: VT Code Planning plans and builds inside a workspace folder.* Your message was not sent; it is back in the composer\.$/,
    );
    assert.deepEqual(shown[0]?.actions, ['openFolder']);
    assert.deepEqual(
      panel.sent.filter((m) => m.type === 'restoreDraft'),
      [{ type: 'restoreDraft', text: 'Plan a greeter' }],
    );
  });

  test('Start Planning from the palette reveals the chat, where the same notice and action show', async () => {
    const before = notices(api).length;
    await vscode.commands.executeCommand('vtplan.startPlanning');
    const added = notices(api).slice(before);
    assert.equal(added.length, 1);
    assert.match(added[0]?.text ?? '', /^Open a folder first: /);
    assert.deepEqual(added[0]?.actions, ['openFolder']);
    await until('the chat view to show', () => api.chat.visible);
  });
});
