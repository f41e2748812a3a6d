/**
 * Issue 18 (GATE-6, ADD-2, PLAN-6, TRK-7): a plan another agent saves over `vtplan mcp` — the
 * built dist/cli.js in a child process, driven by the MCP SDK's own client as Claude Code or Codex
 * drive it — is offered in this VS Code window ("Ready to code?"), and approving it writes its
 * checklist, which the Tasks view shows and the agent reads back. A plan the chat session
 * persisted, and the user's edit of it, are never offered this way (the session has its own gate).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';
import { extensionApi, script, until, useScriptedChatModel, SHOUT_FLAG_PLAN } from './helpers';
import { READY_PLAN } from './lm-tool-calls';
import { answerNotifications, approveOffers, offersOf, startMcpAgent, type McpAgent } from './mcp-client';

/** Two plans only an MCP client saves (READY_PLAN is the language model tools suite's). */
const MURMUR_PLAN = READY_PLAN.replace(/whisper/g, 'murmur');
const HUSH_PLAN = READY_PLAN.replace(/whisper/g, 'hush');
const MURMUR_FILE = '.vtcode/plans/add-a-murmur-flag-to-the-greeter.md';
const HUSH_FILE = '.vtcode/plans/add-a-hush-flag-to-the-greeter.md';
/** The chat session's plan: its own file, so the later suites' shout plan starts fresh. */
const YELL_PLAN = SHOUT_FLAG_PLAN.replace(/shout/g, 'yell');
const YELL_FILE = '.vtcode/plans/add-a-yell-flag-to-the-greeter.md';

suite('plans saved over vtplan mcp are offered for approval in VS Code (issue 18; GATE-6, ADD-2)', () => {
  let api: ExtensionApi;
  let root: string;
  let agent: McpAgent;

  const cleanUp = () => {
    for (const file of [MURMUR_FILE, HUSH_FILE, YELL_FILE])
      for (const f of [
        file,
        file.replace(/\.md$/, '.tasks.md'),
        file.replace(/^\.vtcode\/plans\/(.*)\.md$/, '.vtcode/approvals/$1.json'),
      ])
        rmSync(join(root, f), { force: true });
  };

  suiteSetup(async () => {
    api = await extensionApi();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    cleanUp();
    agent = await startMcpAgent(root);
  });

  suiteTeardown(async () => {
    await agent?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The suites after this one start from a session of their own, and the Tasks view from "newest".
    await vscode.commands.executeCommand('vtplan.newSession');
    await api.tasks.setActivePlan(undefined);
    cleanUp();
  });

  test('a ready plan saved over MCP asks "Ready to code?"; Approve writes its checklist, the Tasks view shows it and the agent reads it (TRK-7)', async () => {
    const notifications = answerNotifications(approveOffers);
    try {
      const saved = await agent.callTool('savePlan', { plan: MURMUR_PLAN });
      assert.equal(saved.isError, undefined, `${saved.text}\n${agent.stderr()}`);
      assert.equal(saved.structuredContent?.path, MURMUR_FILE);
      await until(
        'the Tasks view to show the approved plan',
        () => api.tasks.snapshot().title === 'Add a murmur flag to the greeter',
      );
      assert.deepEqual(offersOf(notifications.shown), [
        { message: 'Plan ready: Add a murmur flag to the greeter — Ready to code?', items: ['Approve', 'Open Plan'] },
      ]);
    } finally {
      notifications.restore();
    }
    assert.equal(api.tasks.snapshot().description, '0/2');
    assert.ok(existsSync(join(root, MURMUR_FILE.replace(/\.md$/, '.tasks.md'))), 'the checklist file is written');
    assert.equal(
      existsSync(join(root, '.vtcode/approvals/add-a-murmur-flag-to-the-greeter.json')),
      false,
      'approved: the record is gone, so a reload does not offer it again',
    );
    const listed = await agent.callTool('taskTracker', { action: 'list' });
    assert.match(listed.text, /murmur/);
  });

  test("a plan the chat session persisted and the user's edit of it are not offered; a plan saved over MCP afterwards is", async () => {
    const notifications = answerNotifications(() => undefined);
    try {
      await useScriptedChatModel();
      script([[{ text: `Here is the plan.\n<proposed_plan>\n${YELL_PLAN}\n</proposed_plan>` }]]);
      await vscode.commands.executeCommand('vtplan.newSession');
      await api.host.submit('/plan');
      assert.deepEqual(await api.host.submit('Add a --yell flag to the greeter'), {
        kind: 'ran',
        status: 'awaiting_approval',
      });
      assert.equal(api.host.planFile(), YELL_FILE);

      // The user edits the chat's plan and saves it (what Ctrl+G's editor save puts on disk).
      const planPath = join(root, YELL_FILE);
      const before = readFileSync(planPath, 'utf8');
      const edited = before.replace(
        'Lower-case stays the default.',
        'Lower-case stays the default; yelling is opt-in.',
      );
      assert.notEqual(edited, before, 'the edit changes the plan');
      writeFileSync(planPath, edited);

      // Positive control: an offer does come, for the plan saved over MCP, and for it alone.
      const saved = await agent.callTool('savePlan', { plan: HUSH_PLAN });
      assert.equal(saved.isError, undefined, saved.text);
      await until('the offer of the plan saved over MCP', () => offersOf(notifications.shown).length > 0);
      assert.deepEqual(
        offersOf(notifications.shown).map((s) => s.message),
        ['Plan ready: Add a hush flag to the greeter — Ready to code?'],
      );
    } finally {
      notifications.restore();
    }
    assert.equal(existsSync(join(root, YELL_FILE.replace(/\.md$/, '.tasks.md'))), false, 'nothing approved');
  });
});
