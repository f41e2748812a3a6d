/**
 * The planning journey inside real VS Code, driven through the Language Model API by the scripted
 * test chat model: plan → awaiting approval → Ctrl+G edit and re-validation → approval from the
 * command → one implementation turn whose edits are undoable (ADD-1, GATE-2, GATE-3, GATE-6).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionEvent } from '../../src/core/session/events';
import type { ExtensionApi } from '../../src/extension/main';
import { extensionApi, script, until, useScriptedChatModel, within, SHOUT_FLAG_PLAN as PLAN } from './helpers';

suite('Planning journey through vscode.lm (ADD-1, GATE-2, GATE-3, GATE-6)', () => {
  let api: ExtensionApi;
  let root: string;
  const seen: SessionEvent[] = [];

  suiteSetup(async () => {
    api = await extensionApi();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await useScriptedChatModel();
  });

  test('a planning run through vscode.lm reaches awaiting_approval with the plan file on disk', async () => {
    script([
      [
        { text: 'Reading the greeter.' },
        { toolCall: { id: 'c1', name: 'read_file', input: { path: 'src/greet.js' } } },
      ],
      [{ text: `Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>` }],
    ]);
    await api.host.submit('/plan off');
    await api.host.submit('/plan');
    api.host.current!.on((e) => seen.push(e));
    const result = await api.host.submit('Add a --shout flag to the greeter');
    assert.deepEqual(result, { kind: 'ran', status: 'awaiting_approval' });
    const file = api.host.current!.state.pendingApproval?.planFile;
    assert.equal(file, '.vtcode/plans/add-a-shout-flag-to-the-greeter.md');
    assert.equal(readFileSync(join(root, file), 'utf8'), `${PLAN}\n`);
    assert.ok(seen.some((e) => e.type === 'tool.result' && e.name === 'read_file' && e.ok));
  });

  test('Ctrl+G: an invalid save keeps the previous plan with a warning; a valid save shows the gate again', async () => {
    await vscode.commands.executeCommand('vtplan.editPlan');
    const editor = vscode.window.activeTextEditor;
    assert.ok(
      editor && editor.document.uri.fsPath.endsWith('add-a-shout-flag-to-the-greeter.md'),
      'Edit Plan opened the plan file',
    );
    const doc = editor.document;
    const requestsBefore = seen.filter((e) => e.type === 'plan.approval.requested').length;

    const broken = doc.getText().replace(/-> verify: \[[^\]]*\]/, '-> verify: [run checks]');
    await editor.edit((b) =>
      b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), broken),
    );
    await doc.save();
    await until('the invalid-edit warning', () =>
      seen.some((e) => e.type === 'notice' && e.level === 'warning' && /not valid/.test(e.text)),
    );
    assert.equal(
      api.host.current!.state.pendingApproval?.planFile,
      '.vtcode/plans/add-a-shout-flag-to-the-greeter.md',
      'the previous plan stays active',
    );
    assert.equal(seen.filter((e) => e.type === 'plan.approval.requested').length, requestsBefore);

    const fixed = broken
      .replace('-> verify: [run checks]', "-> verify: [node --test test/, rg -n 'shout' src/greet.js]")
      .replace('Lower-case stays the default.', 'Lower-case stays the default; shouting is opt-in.');
    await editor.edit((b) =>
      b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), fixed),
    );
    await doc.save();
    await until(
      'the gate to show again',
      () => seen.filter((e) => e.type === 'plan.approval.requested').length === requestsBefore + 1,
    );
    const completed = seen.filter((e) => e.type === 'plan.completed').at(-1);
    assert.ok(
      completed && completed.type === 'plan.completed' && completed.text.includes('shouting is opt-in'),
      'the new synopsis comes from the saved file',
    );
  });

  test('Approve Plan runs exactly one implementation turn; its edit is undoable', async () => {
    const original = readFileSync(join(root, 'src/greet.js'), 'utf8');
    script([
      [
        {
          toolCall: {
            id: 'b1',
            name: 'edit_file',
            input: {
              path: 'src/greet.js',
              old_string: 'function greet(name) {',
              new_string: 'function greet(name, shout = false) {',
            },
          },
        },
      ],
      [{ toolCall: { id: 'b2', name: 'task_tracker', input: { action: 'update', index: 1, status: 'completed' } } }],
      [{ text: 'Implemented the shout flag.' }],
    ]);
    await vscode.commands.executeCommand('vtplan.approvePlan');
    await api.host.current!.idle();
    assert.equal(seen.filter((e) => e.type === 'turn.started' && e.kind === 'implementation').length, 1);
    assert.equal(api.host.current!.state.agent, 'build');
    assert.match(readFileSync(join(root, 'src/greet.js'), 'utf8'), /shout = false/);
    assert.match(
      readFileSync(join(root, '.vtcode/plans/add-a-shout-flag-to-the-greeter.tasks.md'), 'utf8'),
      /- \[x\] Add a `shout` parameter/,
    );
    assert.ok(existsSync(join(root, '.vtcode/tasks/current_task.md')));

    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, 'src/greet.js')));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await until('undo to restore the original text', () => doc.getText() === original);
  });

  test('build mode asks inline before running a command; "Don\'t run" is a denial, "Run" runs it', async () => {
    await api.chat.reveal();
    await until('the chat view to be visible', () => api.chat.visible);
    script([
      [{ toolCall: { id: 'r1', name: 'run_command', input: { command: 'echo first > ran-first.txt' } } }],
      [{ toolCall: { id: 'r2', name: 'run_command', input: { command: 'echo second > ran-second.txt' } } }],
      [{ text: 'Done.' }],
    ]);
    assert.equal(api.host.current!.state.agent, 'build');
    const turn = api.host.submit('Write two marker files');
    const pendingConfirm = () =>
      api.host
        .snapshot()
        .transcript.filter(
          (e) => e.kind === 'interview' && e.interviewId.startsWith('confirm-') && e.state === 'pending',
        );
    await until('the first confirmation', () => pendingConfirm().length === 1);
    const first = pendingConfirm()[0]!;
    assert.ok(first.kind === 'interview' && /echo first/.test(first.questions[0]!.question));
    await api.host.handle({
      type: 'answerInterview',
      interviewId: first.kind === 'interview' ? first.interviewId : '',
      answers: [{ questionId: 'run', label: "Don't run" }],
    });
    await until('the second confirmation', () => pendingConfirm().length === 1 && pendingConfirm()[0]!.id !== first.id);
    const second = pendingConfirm()[0]!;
    await api.host.handle({
      type: 'answerInterview',
      interviewId: second.kind === 'interview' ? second.interviewId : '',
      answers: [{ questionId: 'run', label: 'Run' }],
    });
    await turn;
    assert.equal(existsSync(join(root, 'ran-first.txt')), false, 'the declined command did not run');
    assert.equal(readFileSync(join(root, 'ran-second.txt'), 'utf8').trim(), 'second');
  });

  test('ADD-4: New Session starts empty; Open Session reopens the earlier one from its log', async () => {
    const earlier = api.host.current!;
    const earlierId = earlier.id;
    const earlierHistory = earlier.state.history.length;
    await vscode.commands.executeCommand('vtplan.newSession');
    assert.notEqual(api.host.current!.id, earlierId);
    assert.equal(api.host.current!.state.history.length, 0);
    const listed = await api.host.listSessions();
    assert.ok(listed.some((s) => s.id === earlierId && s.goal === 'Add a --shout flag to the greeter'));
    await api.host.switchTo(earlierId);
    assert.equal(api.host.current!.id, earlierId);
    assert.equal(api.host.current!.state.history.length, earlierHistory);
    assert.equal(api.host.current!.state.agent, 'build');
  });

  test('EXEC-5: New Session while a build command waits for confirmation: returns with nobody answering it, a fresh session, the old turn ended, nothing ran or waits', async () => {
    await api.chat.reveal();
    await until('the chat view to be visible', () => api.chat.visible);
    assert.equal(api.host.current!.state.agent, 'build');
    script([
      [{ toolCall: { id: 'r9', name: 'run_command', input: { command: 'echo late > never-ran.txt' } } }],
      [{ text: 'Stopped.' }],
    ]);
    const old = api.host.current!;
    const turn = api.host.submit('Write a marker file');
    const pendingConfirm = () =>
      api.host
        .snapshot()
        .transcript.filter(
          (e) => e.kind === 'interview' && e.interviewId.startsWith('confirm-') && e.state === 'pending',
        );
    await until('the confirmation', () => pendingConfirm().length === 1);
    // Before the fix this never returned: New Session waited for a turn that waited for an answer,
    // and nobody answers here. The bound only turns that deadlock into a named failure instead of
    // mocha's timeout; it is no performance figure (the machine may be loaded).
    await within(20_000, 'New Session', vscode.commands.executeCommand('vtplan.newSession'));
    assert.notEqual(api.host.current!.id, old.id);
    assert.equal(api.host.current!.state.history.length, 0);
    assert.equal(api.host.snapshot().transcript.length, 0, 'the fresh session shows an empty transcript');
    assert.equal(old.busy, false, 'the old turn has ended');
    assert.equal(old.state.status, 'cancelled');
    assert.deepEqual(await turn, { kind: 'ran', status: 'cancelled' });
    assert.equal(pendingConfirm().length, 0, 'no question is left waiting');
    assert.equal(api.host.confirmationsWaiting, 0);
    assert.equal(existsSync(join(root, 'never-ran.txt')), false, 'the command never ran');
  });
});
