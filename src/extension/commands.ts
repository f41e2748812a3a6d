import * as vscode from 'vscode';
import type { ChatViewProvider } from './chat-view';
import type { CommandId } from './contributions';
import type { PlanRevisionDocuments } from './plan-revisions';
import type { ApiKeys } from './secrets';
import type { SessionHost } from './session-host';
import type { SettingKey } from '../core/config/settings';
import type { Settings, SettingsService } from './settings';

export interface CommandDeps {
  chat: ChatViewProvider;
  host: SessionHost;
  keys: ApiKeys;
  settings: SettingsService;
  revisions: PlanRevisionDocuments;
}

export type CommandHandler = (...args: unknown[]) => Promise<unknown>;

/**
 * Every command of the extension, by id (registered at activation by lazy-workbench.ts). A
 * command that fails says so in the chat with the next step (a notification too while the chat is
 * hidden), never only in the log.
 */
export function commandHandlers(deps: CommandDeps): Record<CommandId, CommandHandler> {
  const handler =
    (run: (...args: unknown[]) => unknown): CommandHandler =>
    async (...args) => {
      try {
        return await run(...args);
      } catch (err) {
        deps.host.reportFailure(err);
        return undefined;
      }
    };

  return {
    'vtplan.startPlanning': handler(async () => {
      await deps.chat.reveal();
      await deps.host.submit('/plan');
    }),
    'vtplan.stopPlanning': handler(() => deps.host.submit('/plan off')),
    // The palette and the plan file's CodeLens: not the chat, so a refused approval reveals the gate.
    'vtplan.approvePlan': handler(() => deps.host.approve('execute', 'elsewhere')),
    'vtplan.editPlan': handler(() => deps.host.editPlan()),
    'vtplan.openPlan': handler(() => deps.host.openPlan()),
    // The plan card's link passes its plan file; the palette compares the plan under review.
    'vtplan.comparePlan': handler((planFile) => deps.revisions.compare(planFile)),
    'vtplan.selectModel': handler(() => selectModel(deps.keys, deps.settings)),
    'vtplan.newSession': handler(async () => {
      await deps.host.newSession();
      await deps.chat.reveal();
    }),
    'vtplan.switchFolder': handler(async () => {
      if (await deps.host.switchFolder()) await deps.chat.reveal();
    }),
    'vtplan.openSession': handler(async () => {
      const sessions = await deps.host.listSessions();
      if (sessions.length === 0) {
        void vscode.window.showInformationMessage('No earlier sessions in this folder yet.');
        return;
      }
      const pick = await vscode.window.showQuickPick(
        sessions.map((s) => ({
          label: s.goal.split('\n', 1)[0] ?? s.id,
          description: `${new Date(s.started).toLocaleString()}${s.current ? ' · current' : ''}`,
          detail: s.id,
          id: s.id,
        })),
        { title: 'VT Code: Open Session', placeHolder: 'Reopen an earlier planning session' },
      );
      if (!pick) return;
      await deps.host.switchTo(pick.id);
      await deps.chat.reveal();
    }),
  };
}

type ModelPick = vscode.QuickPickItem & { provider: Settings['provider']; model?: string };

/**
 * Picks where the model comes from; keys go to SecretStorage, never to settings (ADD-1). Written
 * through the settings service, so the running session uses it from its next model request.
 */
async function selectModel(keys: ApiKeys, settings: SettingsService): Promise<void> {
  const current = settings.current;
  const lmModels = await import('./vscode-lm').then((m) => m.listChatModels()).catch(() => []);
  const items: ModelPick[] = [
    ...lmModels.map((m): ModelPick => ({
      label: m.name,
      description: `${m.vendor} · ${m.family}`,
      detail: 'VS Code chat model (no key needed)',
      provider: 'vscode-lm',
      model: m.id,
    })),
    { label: 'OpenAI-compatible endpoint…', detail: 'OpenAI, Ollama, LM Studio, vLLM, OpenRouter', provider: 'openai' },
    { label: 'Anthropic…', detail: 'Claude models through the Anthropic Messages API', provider: 'anthropic' },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: 'VT Code: Select Model',
    placeHolder: lmModels.length ? 'Pick a chat model' : 'No VS Code chat model found: use an endpoint',
  });
  if (!pick) return;
  if (pick.provider === 'vscode-lm') {
    await saveModelChoice(settings, { provider: 'vscode-lm', model: pick.model ?? '' }, pick.label);
    return;
  }
  const baseUrl = await vscode.window.showInputBox({
    title: `${pick.label} — base URL`,
    prompt: 'Leave empty for the official endpoint; e.g. http://localhost:11434/v1 for Ollama',
    value: current.baseUrl,
    validateInput: (v) =>
      v === '' || /^https?:\/\/\S+$/.test(v) ? undefined : 'Enter an http(s) URL, or leave it empty',
  });
  if (baseUrl === undefined) return;
  const model = await vscode.window.showInputBox({
    title: `${pick.label} — model name`,
    value: current.model,
    validateInput: (v) => (v.trim() ? undefined : 'A model name is required'),
  });
  if (model === undefined) return;
  const key = await vscode.window.showInputBox({
    title: `${pick.label} — API key`,
    prompt:
      'Stored in VS Code secret storage. Leave empty to keep the stored key (or for a local server that needs none).',
    password: true,
  });
  if (key === undefined) return;
  if (key !== '') await keys.set(pick.provider, key);
  await saveModelChoice(
    settings,
    { provider: pick.provider, baseUrl, model: model.trim() },
    `${model.trim()} (${pick.provider})`,
  );
}

async function saveModelChoice(
  settings: SettingsService,
  choice: { provider: Settings['provider']; model: string; baseUrl?: string },
  label: string,
): Promise<void> {
  const shadowed: string[] = [];
  const applied = (key: SettingKey, ok: boolean): void => {
    if (!ok) shadowed.push(`vtplan.${key} (${settings.overriddenIn(key) ?? 'another scope'})`);
  };
  applied('provider', await settings.update('provider', choice.provider));
  applied('model', await settings.update('model', choice.model));
  if (choice.baseUrl !== undefined) applied('baseUrl', await settings.update('baseUrl', choice.baseUrl));
  if (shadowed.length > 0) {
    void vscode.window.showWarningMessage(
      `Saved ${label} in your user settings, but this workspace overrides ${shadowed.join(', ')}, so it keeps its own choice here.`,
    );
    return;
  }
  void vscode.window.showInformationMessage(`VT Code Planning will use ${label}, from the next model request.`);
}
