/**
 * Issue 15 item 3 inside real VS Code: the settings are one live service. A model chosen while a
 * session runs is used from its next model request; `vtplan.requirePlanConfirmation` toggled
 * between turns decides whether a plan from implicit planning goes to the build agent at once
 * (false: the seed's skip-confirmations policy, MODE-7) or waits at the gate (true, GATE-1); an
 * invalid value is never used, its default is.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { SessionEvent } from '../../src/core/session/events';
import type { ExtensionApi } from '../../src/extension/main';
import { script, until, SHOUT_FLAG_PLAN as PLAN } from './helpers';

function scriptPath(): string {
  const path = process.env.VTPLAN_SCRIPTED_LM;
  assert.ok(path, 'VTPLAN_SCRIPTED_LM reaches the extension host');
  return path;
}

/** The model each request of the current script went to, as the scripted model logged it. */
function requestedModels(): string[] {
  const log = `${scriptPath()}.requests.jsonl`;
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { model: string }).model);
}

suite('Settings as one live service (issue 15 item 3: MODE-7, GATE-1, GATE-5)', () => {
  let api: ExtensionApi;
  const config = () => vscode.workspace.getConfiguration('vtplan');
  const set = async (key: string, value: unknown, settled: () => boolean): Promise<void> => {
    await config().update(key, value, vscode.ConfigurationTarget.Workspace);
    await until(`${key} to reach the settings service`, settled);
  };

  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>('vtcode.vtcode-planning');
    assert.ok(ext);
    api = await ext.activate();
    await set('provider', 'vscode-lm', () => api.settings.current.provider === 'vscode-lm');
    await set('model', 'scripted-large', () => api.settings.current.model === 'scripted-large');
    await set('defaultAgent', 'plan', () => api.settings.current.defaultAgent === 'plan');
  });

  suiteTeardown(async () => {
    for (const key of ['requirePlanConfirmation', 'maxToolCallsPerTurn', 'defaultAgent'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('a model chosen while the session runs is used from its next model request, and the header names it at once', async () => {
    await api.host.newSession();
    const session = api.host.current!;
    script([[{ text: 'First answer.' }], [{ text: 'Second answer.' }]]);
    await api.host.submit('What does the greeter do?');
    assert.equal(api.host.status.model, 'scripted-large');
    await set('model', 'scripted-small', () => api.settings.current.model === 'scripted-small');
    assert.equal(api.host.status.model, 'scripted-small', 'the header follows the setting before the next request');
    await api.host.submit('And what else?');
    assert.equal(api.host.current, session, 'the same session');
    assert.deepEqual(requestedModels(), ['scripted-large', 'scripted-small']);
    await set('model', 'scripted-large', () => api.settings.current.model === 'scripted-large');
  });

  test('requirePlanConfirmation toggled: false hands an implicit plan to build at once; true again, the next plan waits at the gate', async () => {
    await set('requirePlanConfirmation', false, () => !api.settings.current.requirePlanConfirmation);
    await api.host.newSession();
    const seen: SessionEvent[] = [];
    api.host.current!.on((e) => seen.push(e));
    script([
      [{ text: `Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>` }],
      [{ text: 'Implemented the shout flag.' }],
    ]);
    const skipped = await api.host.submit('Add a --shout flag to the greeter');
    assert.deepEqual(skipped, { kind: 'ran', status: 'idle' });
    const resolved = seen.find((e) => e.type === 'plan.approval.resolved');
    assert.ok(resolved && resolved.type === 'plan.approval.resolved');
    assert.deepEqual(
      { choice: resolved.choice, automatic: resolved.automatic },
      { choice: 'auto_accept', automatic: true },
    );
    assert.equal(api.host.current!.state.agent, 'build');
    assert.ok(seen.some((e) => e.type === 'turn.started' && e.kind === 'implementation'));
    assert.equal(requestedModels().length, 2);

    await set('requirePlanConfirmation', true, () => api.settings.current.requirePlanConfirmation);
    await api.host.newSession();
    script([
      [{ text: `Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>` }],
      [{ text: 'must not be requested' }],
    ]);
    const gated = await api.host.submit('Add a --shout flag to the greeter');
    assert.deepEqual(gated, { kind: 'ran', status: 'awaiting_approval' });
    assert.ok(api.host.current!.state.pendingApproval, 'the plan waits at the gate');
    assert.equal(api.host.current!.state.agent, 'plan');
    assert.equal(requestedModels().length, 1, 'no implementation request');
  });

  test('Select Model writes user settings through the service and says when the workspace overrides them', async () => {
    assert.equal(
      await api.settings.update('baseUrl', 'http://127.0.0.1:11434/v1'),
      true,
      'no workspace value: the user value applies',
    );
    assert.equal(api.settings.current.baseUrl, 'http://127.0.0.1:11434/v1');
    assert.equal(await api.settings.update('model', 'scripted-small'), false, 'the workspace sets vtplan.model');
    assert.equal(api.settings.overriddenIn('model'), 'workspace settings');
    assert.equal(api.settings.current.model, 'scripted-large', 'the workspace value still applies');
    for (const key of ['baseUrl', 'model']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  test('an invalid value is not used: its default is, and a fix takes effect', async () => {
    await set('maxToolCallsPerTurn', 'lots', () => config().get('maxToolCallsPerTurn') === 'lots');
    assert.equal(api.settings.current.maxToolCallsPerTurn, 120);
    await set('maxToolCallsPerTurn', 7, () => api.settings.current.maxToolCallsPerTurn === 7);
  });
});
