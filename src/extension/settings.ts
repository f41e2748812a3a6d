/**
 * The `vtplan.*` settings as one live service. Values are validated against their one definition
 * (src/core/config/settings.ts) when the workbench starts (workbench.ts) and whenever they
 * change; readers always get the current ones. An invalid value is never replaced silently: its default is used and a
 * warning names the setting, the value and the default, with "Open Settings" (once per distinct
 * problem, again only if it comes back after being fixed).
 */
import * as vscode from 'vscode';
import {
  describeSettingProblem,
  parseSettings,
  SETTINGS_SECTION,
  type SettingKey,
  type SettingProblem,
  type Settings,
} from '../core/config/settings';

export type { Settings } from '../core/config/settings';

export class SettingsService implements vscode.Disposable {
  private value: Settings;
  /** Problems already shown, as `setting=value`; a setting that becomes valid leaves the set. */
  private readonly reported = new Set<string>();
  private readonly listener: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<{ current: Readonly<Settings>; previous: Readonly<Settings> }>();
  /** Fires after the values changed (a settings.json edit, Select Model), with the values before and after. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'warn'>) {
    this.value = this.read();
    this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS_SECTION)) this.refresh();
    });
  }

  get current(): Readonly<Settings> {
    return this.value;
  }

  /**
   * Writes one setting to the user settings. Returns false when a workspace or folder value
   * overrides it, so the caller can say that the change does not apply here.
   */
  async update<K extends SettingKey>(key: K, value: Settings[K]): Promise<boolean> {
    await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
    this.refresh();
    return this.value[key] === value;
  }

  /** Where a value the user sees comes from, for messages: "workspace settings", "folder settings" or null. */
  overriddenIn(key: SettingKey): string | null {
    const inspected = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect(key);
    if (inspected?.workspaceFolderValue !== undefined) return 'folder settings';
    if (inspected?.workspaceValue !== undefined) return 'workspace settings';
    return null;
  }

  /** Readers take `current` when they need it (per turn, per model request), so a re-read is all a change needs. */
  private refresh(): void {
    const previous = this.value;
    this.value = this.read();
    if (JSON.stringify(this.value) !== JSON.stringify(previous)) this.changed.fire({ current: this.value, previous });
  }

  private read(): Settings {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const { settings, problems } = parseSettings((key) => config.get(key));
    const current = new Set(problems.map(problemId));
    for (const id of [...this.reported]) if (!current.has(id)) this.reported.delete(id);
    for (const problem of problems) this.report(problem);
    return settings;
  }

  private report(problem: SettingProblem): void {
    const id = problemId(problem);
    if (this.reported.has(id)) return;
    this.reported.add(id);
    const text = describeSettingProblem(problem);
    this.log.warn(text);
    void vscode.window.showWarningMessage(text, 'Open Settings').then(async (pick) => {
      if (pick) await vscode.commands.executeCommand('workbench.action.openSettings', problem.setting);
    });
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}

function problemId(problem: SettingProblem): string {
  return `${problem.setting}=${JSON.stringify(problem.value)}`;
}
