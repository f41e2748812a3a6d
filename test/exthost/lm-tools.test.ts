/**
 * Issue 18 item 1 (PLAN-2 … PLAN-6, RO-2, TRK-1 … TRK-7, GATE-6): the planning gates as VS Code
 * language model tools, called the way any agent in VS Code calls them, `vscode.lm.invokeTool`
 * (no Copilot needed). Outside a chat request VS Code asks its confirmation as a dialog, which a
 * test window answers "yes" by itself (VS Code's dialog service in extension tests).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { extensionApi, until } from './helpers';
import { invoke, NOT_READY_PLAN, READY_PLAN, recordNotifications, rejection, SAVED_PLAN, text } from './lm-tool-calls';
import type { ExtensionApi } from '../../src/extension/main';
import type { LmToolContribution } from '../../src/extension/lm-tool-contributions';

const EXTENSION_ID = 'vtcode.vtcode-planning';
const TOOLS = ['vtplan_validatePlan', 'vtplan_checkCommand', 'vtplan_taskTracker', 'vtplan_savePlan'];

suite('lm tools: the planning gates for other agents (issue 18 item 1)', () => {
  let api: ExtensionApi;
  let root: string;

  suiteSetup(async () => {
    api = await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    root = folder.uri.fsPath;
  });

  const cleanUp = () => {
    for (const file of [
      SAVED_PLAN,
      SAVED_PLAN.replace(/\.md$/, '.tasks.md'),
      join('.vtcode', 'tasks', 'current_task.md'),
    ])
      rmSync(join(root, file), { force: true });
  };
  setup(cleanUp);
  suiteTeardown(async () => {
    cleanUp();
    await api.tasks.setActivePlan(undefined);
  });

  test('vscode.lm.tools lists the four tools with the description and input schema package.json declares', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { languageModelTools: LmToolContribution[] };
    };
    const declared = new Map(pkg.contributes.languageModelTools.map((t) => [t.name, t]));
    assert.deepEqual([...declared.keys()].sort(), [...TOOLS].sort());
    for (const name of TOOLS) {
      const tool = vscode.lm.tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is registered`);
      assert.equal(tool.description, declared.get(name)?.modelDescription);
      assert.deepEqual(tool.inputSchema, declared.get(name)?.inputSchema);
    }
  });

  test('validatePlan reports a ready plan with its steps, and a plan that is not ready with its errors (PLAN-2 … PLAN-6)', async () => {
    const ready = text(await invoke('vtplan_validatePlan', { plan: READY_PLAN }));
    assert.match(ready, /is ready \(2 steps/);
    assert.match(ready, /1\. Add a `whisper` parameter/);
    const notReady = text(await invoke('vtplan_validatePlan', { plan: NOT_READY_PLAN }));
    assert.match(notReady, /is not ready/);
    assert.match(notReady, /Implementation Steps/);
  });

  test('checkCommand applies the read-only policy of the mode and the workspace path rule (RO-2)', async () => {
    assert.match(text(await invoke('vtplan_checkCommand', { command: 'rg -n greet src', mode: 'plan' })), /allowed/i);
    assert.match(text(await invoke('vtplan_checkCommand', { command: 'rm -rf src', mode: 'plan' })), /rejected/i);
    assert.match(text(await invoke('vtplan_checkCommand', { command: 'cat /etc/passwd', mode: 'build' })), /outside/i);
  });

  test('bad input is refused with the zod message of the shared schema', async () => {
    const message = await rejection(invoke('vtplan_checkCommand', { mode: 'plan' }));
    assert.match(message, /`command`/);
    assert.match(
      await rejection(invoke('vtplan_validatePlan', { plan: READY_PLAN, extra: 1 })),
      /unknown field `extra`/,
    );
  });

  test('savePlan refuses a plan that is not ready, with the validator errors, and writes nothing', async () => {
    const offers = recordNotifications();
    try {
      const message = await rejection(invoke('vtplan_savePlan', { plan: NOT_READY_PLAN }));
      assert.match(message, /not ready/);
      assert.match(message, /Implementation Steps/);
      assert.deepEqual(offers.shown, [], 'nothing is offered for approval');
    } finally {
      offers.restore();
    }
    assert.equal(existsSync(join(root, '.vtcode', 'plans', 'whisper-somehow.md')), false);
  });

  test('savePlan saves a ready plan under .vtcode/plans and asks "Ready to code?" in VS Code (GATE-6)', async () => {
    const offers = recordNotifications();
    try {
      const result = text(await invoke('vtplan_savePlan', { plan: READY_PLAN }));
      assert.match(result, /add-a-whisper-flag-to-the-greeter\.md/);
      assert.match(readFileSync(join(root, SAVED_PLAN), 'utf8'), /^# Add a whisper flag to the greeter/);
      await until('the approval notification', () => offers.shown.length > 0);
      assert.deepEqual(offers.shown, ['Plan ready: Add a whisper flag to the greeter — Ready to code?']);
    } finally {
      offers.restore();
    }
    assert.equal(existsSync(join(root, SAVED_PLAN.replace(/\.md$/, '.tasks.md'))), false, 'not approved by the tool');
  });

  test('Open Plan shows the plan and asks again; approving then creates its checklist, and the Tasks view follows tracker calls (TRK-5, TRK-7)', async () => {
    const offers = recordNotifications('Open Plan', 'Approve');
    try {
      await invoke('vtplan_savePlan', { plan: READY_PLAN });
      await until('the Tasks view to show the approved plan', () => api.tasks.snapshot().description === '0/2');
      assert.equal(offers.shown.length, 2, 'asked again after Open Plan');
    } finally {
      offers.restore();
    }
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, join(root, SAVED_PLAN));
    const listed = text(await invoke('vtplan_taskTracker', { action: 'list' }));
    assert.match(listed, /whisper/);
    await invoke('vtplan_taskTracker', { action: 'update', index_path: '1', status: 'completed' });
    await until('the Tasks view to show step 1 done', () => api.tasks.snapshot().description === '1/2');
    assert.equal(api.tasks.snapshot().items[0]?.status, 'completed');
    await invoke('vtplan_taskTracker', { action: 'add', description: 'Mention the flag in README.md' });
    await until('the Tasks view to show the added task', () => api.tasks.snapshot().items.length === 3);
    assert.equal(api.tasks.snapshot().items[2]?.label, 'Mention the flag in README.md');
  });
});
