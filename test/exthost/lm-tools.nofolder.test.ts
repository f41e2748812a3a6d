/**
 * Issue 18 item 1 in a window with no folder open: the language model tools work in a workspace
 * folder, so a call says to open one instead of failing somewhere inside.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi } from './helpers';
import { invoke, READY_PLAN, rejection } from './lm-tool-calls';

suite('lm tools with no folder open (issue 18 item 1)', () => {
  suiteSetup(async () => {
    await extensionApi();
  });

  test('a call is refused with "Open a folder first"', async () => {
    assert.equal(vscode.workspace.workspaceFolders, undefined);
    assert.match(await rejection(invoke('vtplan_validatePlan', { plan: READY_PLAN })), /^Open a folder first/);
    assert.match(
      await rejection(invoke('vtplan_checkCommand', { command: 'ls', mode: 'plan' })),
      /^Open a folder first/,
    );
  });
});
