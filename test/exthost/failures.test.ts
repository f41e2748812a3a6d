/**
 * Issue 15 item 2 (ADD-1, STORE-2) in the real extension host: what the user asked for fails, and
 * the chat says so with the next step and the action that takes it; nothing is left only in the
 * output channel. A refused (symlinked) `.vtcode`, a missing Anthropic key, a chat model that is
 * not there. The window without a folder is in failures.nofolder.test.ts.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';
import { extensionApi, notices, recordPanel, script, useScriptedChatModel } from './helpers';

suite('Failures show in the chat with the next step (issue 15 item 2)', () => {
  let api: ExtensionApi;
  let root: string;
  const config = () => vscode.workspace.getConfiguration('vtplan');

  suiteSetup(async () => {
    api = await extensionApi();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  suiteTeardown(async () => {
    await useScriptedChatModel();
    script([]);
    await api.host.newSession();
  });

  test('STORE-2: a symlinked .vtcode: no session, an error notice saying to remove the link, and the message back in the composer', async () => {
    await api.host.close();
    const vtcode = join(root, '.vtcode');
    const aside = `${vtcode}-before-symlink-test`;
    const elsewhere = mkdtempSync(join(tmpdir(), 'vtp-elsewhere-'));
    if (existsSync(vtcode)) renameSync(vtcode, aside);
    symlinkSync(elsewhere, vtcode);
    const panel = recordPanel(api);
    try {
      await api.host.handle({ type: 'submit', text: 'Plan the shout flag' });
      assert.equal(api.host.current, null, 'no session opened');
      const [notice] = notices(api);
      assert.equal(notice?.level, 'error');
      assert.match(
        notice?.text ?? '',
        /^VT Code Planning cannot keep its session files: refusing to write the session log: .*\.vtcode is a symbolic link\. .*remove the link .*then send again\. Your message was not sent; it is back in the composer\.$/,
      );
      assert.deepEqual(
        panel.sent.filter((m) => m.type === 'restoreDraft'),
        [{ type: 'restoreDraft', text: 'Plan the shout flag' }],
      );
      assert.ok(
        panel.sent.some((m) => m.type === 'entry' && m.entry.id === notice?.id),
        'the panel was sent the notice',
      );
    } finally {
      panel.stop();
      rmSync(vtcode, { force: true });
      rmSync(elsewhere, { recursive: true, force: true });
      if (existsSync(aside)) renameSync(aside, vtcode);
    }
  });

  test('ADD-1: provider anthropic with no key stored: the message stays, one error notice says to add the key and offers Select Model', async () => {
    await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Workspace);
    await config().update('model', 'claude-test', vscode.ConfigurationTarget.Workspace);
    await api.host.newSession();
    await api.host.submit('/plan');
    await api.host.handle({ type: 'submit', text: 'Add a shout flag' });
    const transcript = api.host.snapshot().transcript;
    assert.ok(
      transcript.some((e) => e.kind === 'user' && e.text === 'Add a shout flag'),
      'the message is in the transcript',
    );
    assert.deepEqual(
      notices(api)
        .filter((n) => n.level === 'error')
        .map((n) => ({ text: n.text, actions: n.actions })),
      [
        {
          text: 'The model request failed: No Anthropic API key is stored. Run "VT Code: Select Model" to add one.',
          actions: ['selectModel'],
        },
      ],
    );
    assert.equal(api.host.current?.state.status, 'failed');
  });

  test('ADD-1: vtplan.model names a chat model VS Code does not offer: an error notice names the setting and offers Select Model', async () => {
    await config().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Workspace);
    await config().update('model', 'no-such-model', vscode.ConfigurationTarget.Workspace);
    await api.host.newSession();
    await api.host.submit('/plan');
    await api.host.handle({ type: 'submit', text: 'Add a shout flag' });
    assert.deepEqual(
      notices(api)
        .filter((n) => n.level === 'error')
        .map((n) => ({ text: n.text, actions: n.actions })),
      [
        {
          text: `The model request failed: The chat model 'no-such-model' (setting vtplan.model) is not available. Run "VT Code: Select Model".`,
          actions: ['selectModel'],
        },
      ],
    );
  });
});
