/**
 * Issue 18 item 1 (MODE-1, capabilities.untrustedWorkspaces "limited"): in Restricted Mode the
 * language model tools that write under .vtcode/ (savePlan, tracker changes) are refused with a
 * message the model can relay; the read-only ones keep working. This window opens the sample
 * folder with workspace trust on and the folder not trusted (test/harness/windows.ts).
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { extensionApi } from './helpers';
import { invoke, READY_PLAN, rejection, SAVED_PLAN, text } from './lm-tool-calls';

suite('lm tools in an untrusted folder (issue 18 item 1, MODE-1)', () => {
  let root: string;

  suiteSetup(async () => {
    await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    root = folder.uri.fsPath;
  });

  test('the window is in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  test('savePlan is refused with the reason and writes nothing', async () => {
    const message = await rejection(invoke('vtplan_savePlan', { plan: READY_PLAN }));
    assert.match(message, /vtplan_savePlan was refused: this folder is not trusted/);
    assert.match(message, /Manage Workspace Trust/);
    assert.equal(existsSync(join(root, SAVED_PLAN)), false);
  });

  test('tracker changes are refused; listing the checklist still works', async () => {
    const message = await rejection(invoke('vtplan_taskTracker', { action: 'add', description: 'Sneak a task in' }));
    assert.match(message, /vtplan_taskTracker was refused: this folder is not trusted/);
    assert.equal(existsSync(join(root, '.vtcode', 'tasks', 'current_task.md')), false);
    assert.ok(text(await invoke('vtplan_taskTracker', { action: 'list' })).length > 0);
  });

  test('validatePlan and checkCommand work read-only', async () => {
    assert.match(text(await invoke('vtplan_validatePlan', { plan: READY_PLAN })), /is ready/);
    assert.match(text(await invoke('vtplan_checkCommand', { command: 'rg -n greet src', mode: 'plan' })), /allowed/i);
  });
});
