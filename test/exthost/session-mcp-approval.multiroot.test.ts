/**
 * Issue 18 (GATE-6, ADD-2) with two folders open (`alpha`, `beta`): a plan another agent saves
 * over `vtplan mcp` in either folder is offered, and approving it writes the checklist in that
 * folder, whichever folder the chat session works in. Named to run after
 * session-folders.multiroot.test.ts (files run in name order), which needs no folder chosen yet.
 */
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { alphaAndBeta, extensionApi, until } from './helpers';
import { READY_PLAN } from './lm-tool-calls';
import { answerNotifications, approveOffers, offersOf, startMcpAgent } from './mcp-client';

const PLAN = READY_PLAN.replace(/whisper/g, 'murmur');
const PLAN_FILE = '.vtcode/plans/add-a-murmur-flag-to-the-greeter.md';
const CHECKLIST = PLAN_FILE.replace(/\.md$/, '.tasks.md');
const RECORD = '.vtcode/approvals/add-a-murmur-flag-to-the-greeter.json';

suite('plans saved over vtplan mcp in a multi-root workspace (issue 18; GATE-6, ADD-2)', () => {
  let folders: vscode.WorkspaceFolder[];
  const cleanUp = () => {
    for (const f of folders)
      for (const file of [PLAN_FILE, CHECKLIST, RECORD]) rmSync(join(f.uri.fsPath, file), { force: true });
  };

  suiteSetup(async () => {
    await extensionApi();
    folders = alphaAndBeta();
    cleanUp();
  });

  suiteTeardown(async () => {
    cleanUp();
    await (await extensionApi()).tasks.setActivePlan(undefined);
  });

  test('each folder: the plan is offered, and Approve writes its checklist in that folder', async () => {
    for (const folder of [...folders].reverse()) {
      const root = folder.uri.fsPath;
      const agent = await startMcpAgent(root);
      const notifications = answerNotifications(approveOffers);
      try {
        const saved = await agent.callTool('savePlan', { plan: PLAN });
        assert.equal(saved.isError, undefined, saved.text);
        await until(`the checklist in ${folder.name}`, () => existsSync(join(root, CHECKLIST)));
        await until(`the record in ${folder.name} to go`, () => !existsSync(join(root, RECORD)));
      } finally {
        notifications.restore();
        await agent.close();
      }
      assert.deepEqual(
        offersOf(notifications.shown).map((s) => s.message),
        ['Plan ready: Add a murmur flag to the greeter — Ready to code?'],
        `one offer for ${folder.name}`,
      );
      const other = folders.find((f) => f !== folder)!;
      assert.equal(existsSync(join(other.uri.fsPath, CHECKLIST)), false, `nothing approved in ${other.name}`);
      cleanUp();
    }
  });
});
