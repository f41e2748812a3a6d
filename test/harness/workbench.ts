/** Playwright helpers for the real workbench: palette, views, webview frames, screenshots. */
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { TestContext } from 'node:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchBrowser, type Browser } from './browser';
import {
  makeRunDir,
  prepareWorkspace,
  remoteUri,
  removeRunDir,
  repoRoot,
  startServer,
  type RunningServer,
} from './vscode-server';

export interface Workbench {
  page: Page;
  server: RunningServer;
  browser: Browser;
  workspace: string;
  close(): Promise<void>;
}

interface WorkbenchOptions {
  workspaceSource?: string;
  /** Colour theme, e.g. 'Default Light Modern' (default: the harness's, VTPLAN_THEME or dark). */
  theme?: string;
  /** Workspace settings merged into `.vscode/settings.json` before the workbench opens (e.g. `vtplan.provider`). */
  settings?: Record<string, unknown>;
  /** Open the folder with workspace trust on: it opens in Restricted Mode. */
  trustEnabled?: boolean;
  /** User-level settings (an untrusted workspace cannot set `restricted` ones such as vtplan.baseUrl). */
  userSettings?: Record<string, unknown>;
  /**
   * Notifications show as toasts, as in desktop VS Code: the server runs without the smoke-test
   * driver and the extension is loaded as an installed one (see `ServerOptions.smokeTestDriver`).
   */
  toasts?: boolean;
}

/** Starts a server, opens the workbench on a copy of the sample workspace with this extension loaded. */
async function openWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const runDir = makeRunDir('e2e');
  const server = await startServer({
    runDir,
    trustDisabled: !options.trustEnabled,
    ...(options.userSettings ? { userSettings: options.userSettings } : {}),
    ...(options.toasts ? { smokeTestDriver: false, installedExtensions: [repoRoot] } : {}),
  });
  let browser: Browser | undefined;
  try {
    const workspace = prepareWorkspace(runDir, options.workspaceSource);
    if (options.trustEnabled) updateWorkspaceSettings(workspace, { 'security.workspace.trust.enabled': true });
    const patch = { ...options.settings, ...(options.theme ? { 'workbench.colorTheme': options.theme } : {}) };
    if (Object.keys(patch).length > 0) updateWorkspaceSettings(workspace, patch);
    browser = await launchBrowser(runDir, server.env);
    const page = browser.page;
    await page.goto(
      options.toasts
        ? server.url(workspace)
        : server.url(workspace, [['extensionDevelopmentPath', remoteUri(server, repoRoot)]]),
    );
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    // The extension's contributions are in once its activity-bar entry shows.
    await page.locator('.activitybar .action-item [aria-label^="VT Code"]').first().waitFor({ timeout: 60_000 });
    const opened = browser;
    return {
      page,
      server,
      browser: opened,
      workspace,
      close: async () => {
        await opened.close();
        await server.stop();
        removeRunDir(runDir);
      },
    };
  } catch (err) {
    await browser?.close();
    await server.stop();
    removeRunDir(runDir);
    throw err;
  }
}

interface WorkbenchRun extends WorkbenchOptions {
  /** Where a failure's screenshot goes: `test-results/<failureShot>.png`. */
  failureShot: string;
  /** Closed after the workbench, however the run ends: the scripted model server its settings point at. */
  alsoClose?: { close(): Promise<void> };
}

/**
 * Opens the workbench, runs `body` on it and closes it, then `alsoClose`, whether `body` passes or
 * throws (also when the workbench never opens). A failure leaves a screenshot of the window as the
 * failure found it and is re-thrown.
 */
export async function withWorkbench(run: WorkbenchRun, body: (wb: Workbench) => Promise<void>): Promise<void> {
  let wb: Workbench | undefined;
  try {
    wb = await openWorkbench(run);
    await body(wb);
  } catch (err) {
    // The test's own failure is what matters: a screenshot that cannot be taken must not replace it.
    if (wb) await screenshot(wb.page, run.failureShot).catch(() => undefined);
    throw err;
  } finally {
    try {
      await wb?.close();
    } finally {
      await run.alsoClose?.close();
    }
  }
}

/** Settings that point the chat at a scripted model server (test/fixtures/model-server) over its OpenAI API. */
export function scriptedModelSettings(server: { openaiBaseUrl: string }): Record<string, string> {
  return { 'vtplan.provider': 'openai', 'vtplan.baseUrl': server.openaiBaseUrl, 'vtplan.model': 'scripted' };
}

/** F1, type the command's title, pick the row with exactly that label. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
}

/** The chat view's document: webview iframe → active frame. */
export function chatFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(repoRoot, 'test-results', `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
  return path;
}

/** Merges `patch` into the workspace's `.vscode/settings.json`; a running workbench picks the change up live. */
export function updateWorkspaceSettings(workspace: string, patch: Record<string, unknown>): void {
  const file = join(workspace, '.vscode', 'settings.json');
  const current: unknown = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const base = typeof current === 'object' && current !== null ? current : {};
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...base, ...patch }, null, 2));
}

/** The chat view's document as a Frame, for `evaluate` (globals, listeners); the FrameLocator cannot evaluate. */
export async function chatDocument(page: Page, timeout = 60_000): Promise<Frame> {
  const outer = await page.locator('iframe.webview.ready').first().elementHandle({ timeout });
  const outerFrame = await outer?.contentFrame();
  if (!outerFrame) throw new Error('The chat webview iframe has no frame.');
  const inner = await outerFrame.locator('#active-frame').elementHandle({ timeout });
  const frame = await inner?.contentFrame();
  if (!frame) throw new Error('The chat webview has no active frame.');
  return frame;
}

/**
 * The Notification Center, opened. The workbench shows no toasts under `--enable-smoke-test-driver`
 * (which the harness needs for the extension development payload unless `toasts` is set), so
 * notifications are read and answered here: the same items, message and buttons, as plain DOM.
 */
async function showNotifications(page: Page): Promise<Locator> {
  const center = page.locator('.notifications-center');
  if (!(await center.isVisible())) await runCommand(page, 'Notifications: Show Notifications');
  await center.waitFor({ timeout: 10_000 });
  return center;
}

/** One notification in the (open) Notification Center whose text contains `text`. */
export async function notification(page: Page, text: string | RegExp, timeout = 20_000): Promise<Locator> {
  const center = await showNotifications(page);
  const item = center.locator('.notification-list-item', { hasText: text }).first();
  await item.waitFor({ timeout });
  return item;
}

/** Messages of every notification in the Notification Center (opens it). */
export async function notificationTexts(page: Page): Promise<string[]> {
  const center = await showNotifications(page);
  return center.locator('.notification-list-item .notification-list-item-message').allInnerTexts();
}

/** Saves a screenshot at `test-results/<dir>/<name>.png` after the UI settled for a moment. */
export async function journeyShot(page: Page, dir: string, name: string): Promise<string> {
  await page.waitForTimeout(250);
  return screenshot(page, `${dir}/${name}`);
}

/**
 * Steps of one long UI test that each need the ones before: after a failure the rest fail at once
 * (instead of timing out one by one), and the failing step leaves a screenshot in `dir`.
 */
export function sequentialSteps(
  t: TestContext,
  page: Page,
  dir: string,
  onFailure?: (err: unknown) => Promise<void>,
): (name: string, fn: () => Promise<void>) => Promise<void> {
  let failed: string | null = null;
  return (name, fn) =>
    t.test(name, async () => {
      if (failed !== null) throw new Error(`not run: step '${failed}' failed`);
      try {
        await fn();
      } catch (err) {
        failed = name;
        await onFailure?.(err);
        await screenshot(page, `${dir}/failure-${name.slice(0, 2)}`).catch(() => undefined);
        throw err;
      }
    });
}

/** A clean window with the chat open: no editors, no secondary side bar, the composer ready. */
export async function openChatClean(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');
  await runCommand(page, 'VT Code: Start Planning');
  const composer = chatFrame(page).locator('textarea.composer-input');
  await composer.waitFor({ timeout: 60_000 });
  // Start Planning moves the focus into the composer a moment after it shows; keys typed before
  // that land in the workbench, so callers that type next wait for the focus itself.
  const deadline = Date.now() + 30_000;
  while (!(await composer.evaluate((el) => el === document.activeElement && document.hasFocus()))) {
    if (Date.now() > deadline) throw new Error('Start Planning did not move the focus into the chat composer');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How far `target` sticks out of the chat's scroll area, in px (0: fully visible without scrolling). */
export async function outOfView(target: Locator): Promise<number> {
  return target.evaluate((el) => {
    const area = el.closest('.body');
    if (!area) return Number.POSITIVE_INFINITY;
    const box = el.getBoundingClientRect();
    const view = area.getBoundingClientRect();
    return Math.max(0, view.top - box.top) + Math.max(0, box.bottom - view.bottom);
  });
}
