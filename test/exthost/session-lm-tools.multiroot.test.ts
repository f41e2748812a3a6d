/**
 * Issue 18 item 1 with two folders open (`alpha`, `beta`): the language model tools work in the
 * folder the chat session works in (session-folders.ts), not in the first folder. Runs after
 * session-folders.multiroot.test.ts (files run in name order), which needs no folder chosen yet.
 */
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';
import { alphaAndBeta, extensionApi } from './helpers';
import { invoke, READY_PLAN, recordNotifications, SAVED_PLAN, text } from './lm-tool-calls';

suite('lm tools in a multi-root workspace (issue 18 item 1, issue 15 item 5)', () => {
  let api: ExtensionApi;
  let alpha: vscode.WorkspaceFolder;
  let beta: vscode.WorkspaceFolder;

  suiteSetup(async () => {
    api = await extensionApi();
    [alpha, beta] = alphaAndBeta();
  });

  suiteTeardown(() => {
    for (const f of [alpha, beta]) rmSync(join(f.uri.fsPath, SAVED_PLAN), { force: true });
  });

  test("savePlan saves in the session's folder, and validatePlan reads plan files there", async () => {
    for (const [chosen, other] of [
      [beta, alpha],
      [alpha, beta],
    ] as const) {
      await api.folders.choose(chosen);
      const offers = recordNotifications();
      try {
        await invoke('vtplan_savePlan', { plan: READY_PLAN });
      } finally {
        offers.restore();
      }
      assert.ok(existsSync(join(chosen.uri.fsPath, SAVED_PLAN)), `saved in ${chosen.name}`);
      assert.equal(existsSync(join(other.uri.fsPath, SAVED_PLAN)), false, `nothing in ${other.name}`);
      assert.match(text(await invoke('vtplan_validatePlan', { path: SAVED_PLAN })), /is ready/);
      rmSync(join(chosen.uri.fsPath, SAVED_PLAN));
    }
  });
});
