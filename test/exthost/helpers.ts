/**
 * Shared by the extension-host suites: the extension's test API, the scripted chat model's script
 * (test/fixtures/scripted-lm-extension), and waiting for a state without fixed sleeps.
 */
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { HostNotification } from '../../src/protocol';
import type { ExtensionApi } from '../../src/extension/main';

export type ScriptPart =
  | { text: string }
  | { toolCall: { id: string; name: string; input: object } }
  | { delayMs: number }
  | { error: string; message?: string };

export async function extensionApi(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>('vtcode.vtcode-planning');
  assert.ok(ext, 'the extension under test is loaded');
  return ext.activate();
}

/** Sessions use the scripted chat model (test/fixtures/scripted-lm-extension) through vscode.lm. */
export async function useScriptedChatModel(): Promise<void> {
  const config = vscode.workspace.getConfiguration('vtplan');
  await config.update('provider', 'vscode-lm', vscode.ConfigurationTarget.Workspace);
  await config.update('model', 'scripted-large', vscode.ConfigurationTarget.Workspace);
}

/** The scripted model's next answers, one turn per request; its request log (the cursor) starts over. */
export function script(turns: ScriptPart[][]): void {
  const path = process.env.VTPLAN_SCRIPTED_LM;
  assert.ok(path, 'VTPLAN_SCRIPTED_LM reaches the extension host');
  rmSync(`${path}.requests.jsonl`, { force: true });
  rmSync(`${path}.events.jsonl`, { force: true });
  writeFileSync(path, JSON.stringify(turns));
}

/** Waits until `check` holds; fails naming `what` when it never does. */
export async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Fails the test when `work` has not settled within `ms` (a bound on a hang, not a timing measure). */
export async function within<T>(ms: number, what: string, work: Thenable<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(work), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Records what the host sends the chat view from now on (the real messages, before the webview gets them). */
export function recordPanel(api: ExtensionApi): { sent: HostNotification[]; stop: () => void } {
  const sent: HostNotification[] = [];
  const original = api.chat.post.bind(api.chat);
  api.chat.post = (message: HostNotification) => {
    sent.push(message);
    original(message);
  };
  return { sent, stop: () => (api.chat.post = original) };
}

/** The notices the panel shows now. */
export function notices(
  api: ExtensionApi,
): Extract<ReturnType<ExtensionApi['host']['snapshot']>['transcript'][number], { kind: 'notice' }>[] {
  return api.host.snapshot().transcript.filter((e) => e.kind === 'notice');
}

/** The plan the scripted model proposes in the journey, settings and multi-root suites. */
export const SHOUT_FLAG_PLAN = `# Add a shout flag to the greeter

## Summary
Let \`greet\` in src/greet.js upper-case its greeting when asked.

## Implementation Steps
1. Add a \`shout\` parameter to \`greet\` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/, rg -n 'shout' src/greet.js]

## Test Cases and Validation
- \`node --test test/\` passes.

## Assumptions and Defaults
- Lower-case stays the default.`;

/** The multi-root window's two folders, `alpha` and `beta` (test/harness/windows.ts), in order. */
export function alphaAndBeta(): [vscode.WorkspaceFolder, vscode.WorkspaceFolder] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  assert.deepEqual(
    folders.map((f) => f.name),
    ['alpha', 'beta'],
    'a workspace of two folders',
  );
  return folders as [vscode.WorkspaceFolder, vscode.WorkspaceFolder];
}
