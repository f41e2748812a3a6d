/**
 * Plan revisions inside real VS Code (GATE-2): edits saved from the editor update the one plan
 * card in place, an invalid save is shown in the gate until a valid one, and "Compare with
 * Previous Plan" opens VS Code's diff editor between the previous revision and the plan file,
 * from the command palette and from the card's link.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/main';
import type { EntryOf } from '../../src/protocol';
import { extensionApi, script, until, useScriptedChatModel } from './helpers';

const PLAN_FILE = '.vtcode/plans/greet-loudly-on-request.md';

const PLAN = `# Greet loudly on request

## Summary
Let \`greet\` in src/greet.js upper-case its greeting when asked.

## Implementation Steps
1. Add a \`loud\` parameter to \`greet\` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/, rg -n 'loud' src/greet.js]

## Test Cases and Validation
- \`node --test test/\` passes.

## Assumptions and Defaults
- Lower-case stays the default.`;

const STEP_2 =
  "2. Cover the loud greeting in test/greet.test.js -> files: [test/greet.test.js] -> verify: [node --test test/, rg -n 'loud' test/greet.test.js]";

function diffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs.map((t) => t.input))
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff);
}

suite('Plan revisions and "Compare with Previous Plan" (GATE-2)', () => {
  let api: ExtensionApi;
  let root: string;
  const entries = <K extends 'plan' | 'approval' | 'notice'>(kind: K) =>
    api.host.snapshot().transcript.filter((e): e is EntryOf<K> => e.kind === kind);

  async function save(editor: vscode.TextEditor, text: string): Promise<void> {
    const doc = editor.document;
    await editor.edit((b) =>
      b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text),
    );
    assert.ok(await doc.save(), 'saved');
  }

  suiteSetup(async () => {
    api = await extensionApi();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await useScriptedChatModel();
    // The tests save with doc.save() and check that it saved. Auto-save (on after 1 s in the browser
    // workbench) would race them: when a busy window starts the auto-save first, VS Code drops an
    // explicit save that arrives while that save's participants run, and doc.save() returns false.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Workspace);
    script([[{ text: `Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>` }]]);
    await vscode.commands.executeCommand('vtplan.newSession');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace
      .getConfiguration('files')
      .update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
    // The suites after this one start from a session of their own.
    await vscode.commands.executeCommand('vtplan.newSession');
  });

  test('with one revision there is nothing to compare: no diff editor opens', async () => {
    await api.host.submit('/plan');
    assert.deepEqual(await api.host.submit('Greet loudly when asked'), { kind: 'ran', status: 'awaiting_approval' });
    assert.equal(api.host.planFile(), PLAN_FILE);
    await vscode.commands.executeCommand('vtplan.comparePlan');
    assert.deepEqual(diffTabs(), []);
  });

  test('saves from the editor update the one plan card; an invalid save shows in the gate until a valid one', async () => {
    await vscode.commands.executeCommand('vtplan.editPlan');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document.uri.fsPath === join(root, PLAN_FILE), 'Edit Plan opened the plan file');

    await save(editor, PLAN.replace('## Test Cases', `${STEP_2}\n\n## Test Cases`));
    await until('revision 2 on the card', () => entries('plan')[0]?.revision?.number === 2);

    await save(editor, editor.document.getText().replace(/-> verify: \[[^\]]*\]/, '-> verify: [run checks]'));
    await until('the reasons inside the gate', () => Boolean(entries('approval')[0]?.invalidEdit));
    assert.equal(entries('notice').filter((n) => /not valid/.test(n.text)).length, 0, 'no warning line in the chat');

    await save(
      editor,
      PLAN.replace('## Test Cases', `${STEP_2}\n\n## Test Cases`).replace(
        'Lower-case stays the default.',
        'Loud greetings are opt-in.',
      ),
    );
    await until('revision 3 on the card', () => entries('plan')[0]?.revision?.number === 3);
    const [card, ...moreCards] = entries('plan');
    assert.equal(moreCards.length, 0, 'one plan card');
    assert.equal(card?.revision?.source, 'editor');
    assert.deepEqual(card?.revision?.changes?.sections, ['Assumptions and Defaults']);
    const gates = entries('approval');
    assert.deepEqual(
      gates.map((g) => [g.state, g.invalidEdit ?? null]),
      [['pending', null]],
      'one gate, the warning gone, nothing superseded',
    );
  });

  test('"Compare with Previous Plan" opens the diff editor: revision 2 on the left, the plan file on the right', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('vtplan.comparePlan');
    await until('a diff editor tab', () => diffTabs().length === 1);
    const [diff] = diffTabs();
    assert.equal(diff!.original.scheme, 'vtplan-revision');
    assert.equal(diff!.modified.toString(), vscode.Uri.file(join(root, PLAN_FILE)).toString());
    const before = await vscode.workspace.openTextDocument(diff!.original);
    assert.equal(
      before.getText(),
      `${PLAN.replace('## Test Cases', `${STEP_2}\n\n## Test Cases`)}\n`,
      'the previous revision, as it was saved',
    );
    assert.equal(before.languageId, 'markdown');
    const after = await vscode.workspace.openTextDocument(diff!.modified);
    assert.match(after.getText(), /Loud greetings are opt-in\./);
    assert.equal(after.getText(), readFileSync(join(root, PLAN_FILE), 'utf8'));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.equal(tab?.label, 'greet-loudly-on-request.md (revision 2 ↔ current)');
  });

  test('the card\'s "Compare with previous" link opens the same diff editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('no editors', () => diffTabs().length === 0);
    await api.host.handle({ type: 'comparePlan', planFile: PLAN_FILE });
    await until('a diff editor tab', () => diffTabs().length === 1);
    assert.equal(diffTabs()[0]!.original.scheme, 'vtplan-revision');
  });
});
