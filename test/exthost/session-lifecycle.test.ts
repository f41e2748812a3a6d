/**
 * Issue 15 item 1 (EXEC-5, EVT-1) in the real extension host: Stop ends the turn and keeps the
 * session; with the chat hidden a confirmation is a modal dialog; deactivate() stops the turn and
 * leaves its log complete on disk. The New Session case is in planning-journey.test.ts, where a
 * build session already runs.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionEvent } from '../../src/core/session/events';
import type { ExtensionApi } from '../../src/extension/main';
import { extensionApi, script, until, useScriptedChatModel, within } from './helpers';

suite('Session lifecycle (EXEC-5, issue 15 item 1)', () => {
  let api: ExtensionApi;
  let root: string;

  suiteSetup(async () => {
    api = await extensionApi();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await useScriptedChatModel();
    await api.host.newSession();
    await api.host.submit('/mode build');
  });

  suiteTeardown(() => script([]));

  const pendingConfirm = () =>
    api.host
      .snapshot()
      .transcript.filter(
        (e) => e.kind === 'interview' && e.interviewId.startsWith('confirm-') && e.state === 'pending',
      );

  test('Stop answers a waiting command confirmation "don\'t run": the turn ends, the command never runs, the session stays', async () => {
    await api.chat.reveal();
    await until('the chat view to be visible', () => api.chat.visible);
    script([
      [{ toolCall: { id: 's1', name: 'run_command', input: { command: 'echo stop > stopped.txt' } } }],
      [{ text: 'Not reached.' }],
    ]);
    const session = api.host.current!;
    const turn = api.host.submit('Write a marker file');
    await until('the confirmation', () => pendingConfirm().length === 1);
    const question = pendingConfirm()[0]!;
    await api.host.handle({ type: 'stop' });
    // Nobody answers the confirmation: a turn that waited for it would never end. The bound names
    // that deadlock before mocha's 30 s timeout; it is no performance figure.
    assert.deepEqual(await within(20_000, 'the stopped turn', turn), { kind: 'ran', status: 'cancelled' });
    assert.equal(api.host.current, session, 'the session stays');
    assert.equal(session.busy, false);
    const settled = api.host.snapshot().transcript.find((e) => e.id === question.id);
    assert.equal(settled?.kind === 'interview' && settled.state, 'cancelled', 'the question shows as not answered');
    assert.equal(api.host.confirmationsWaiting, 0);
    assert.equal(existsSync(join(root, 'stopped.txt')), false, 'the command never ran');
  });

  test('deactivate() stops a streaming turn and resolves with its streamed text and its end in the session log', async () => {
    script([[{ text: 'Reading the greeter before planning.' }, { delayMs: 60_000 }, { text: 'never shown' }]]);
    await api.host.submit('/plan');
    const session = api.host.current!;
    const seen: SessionEvent[] = [];
    session.on((e) => seen.push(e));
    const turn = api.host.submit('Add a shout flag');
    await until('the first streamed text', () => seen.some((e) => e.type === 'message.delta'));

    await within(5_000, 'deactivate()', api.deactivate());

    const logged = readFileSync(session.logPath, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as SessionEvent);
    const streamed = logged
      .filter((e): e is Extract<SessionEvent, { type: 'message.delta' }> => e.type === 'message.delta')
      .map((e) => e.text)
      .join('');
    assert.equal(streamed, 'Reading the greeter before planning.');
    const last = logged.at(-1);
    assert.equal(
      last?.type === 'turn.completed' && last.status,
      'cancelled',
      `the log ends with the cancelled turn: ${JSON.stringify(last)}`,
    );
    assert.deepEqual(await turn, { kind: 'ran', status: 'cancelled' });
    assert.equal(api.host.current, null, 'the session is closed');
  });

  test('chat hidden: the confirmation goes to a modal dialog, not the chat; a dialog that cannot be shown counts as "don\'t run"', async () => {
    // VS Code refuses modal dialogs while extension tests run ("refused to show dialog in tests"),
    // so this window cannot hold one open: what a stop does to a dialog still on screen is
    // test/unit/extension/confirmations.test.ts. Here: the hidden chat routes the question to the
    // dialog, and a dialog that fails never lets the command run.
    await api.host.submit('/mode build');
    await vscode.commands.executeCommand('workbench.view.explorer');
    await until('the chat view to be hidden', () => !api.chat.visible);
    script([
      [{ toolCall: { id: 'm1', name: 'run_command', input: { command: 'echo modal > modal-ran.txt' } } }],
      [{ text: 'Not run, then.' }],
    ]);
    const session = api.host.current!;
    const seen: SessionEvent[] = [];
    session.on((e) => seen.push(e));
    assert.deepEqual(await api.host.submit('Write a marker file'), { kind: 'ran', status: 'idle' });
    const result = seen.find((e) => e.type === 'tool.result' && e.name === 'run_command');
    assert.match(
      result?.type === 'tool.result' ? result.content : '',
      /^The user declined to run `echo modal > modal-ran\.txt`/,
    );
    assert.deepEqual(
      api.host.snapshot().transcript.filter((e) => e.kind === 'interview'),
      [],
      'nothing was asked in the hidden chat',
    );
    assert.equal(api.host.confirmationsWaiting, 0);
    assert.equal(existsSync(join(root, 'modal-ran.txt')), false, 'the command never ran');
  });
});
