/** Playwright helpers for the real workbench: palette, views, webview frames, screenshots. */
import type { FrameLocator, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchBrowser, type Browser } from './browser';
import { makeRunDir, prepareWorkspace, remoteUri, removeRunDir, repoRoot, startServer, type RunningServer } from './vscode-server';

export interface Workbench {
  page: Page;
  server: RunningServer;
  browser: Browser;
  workspace: string;
  close(): Promise<void>;
}

/** Starts a server, opens the workbench on a copy of the sample workspace with this extension loaded. */
export async function openWorkbench(options: { workspaceSource?: string; theme?: string } = {}): Promise<Workbench> {
  const runDir = makeRunDir('e2e');
  const server = await startServer({ runDir });
  let browser: Browser | undefined;
  try {
    const workspace = prepareWorkspace(runDir, options.workspaceSource);
    browser = await launchBrowser(runDir, server.env);
    const page = browser.page;
    await page.goto(server.url(workspace, [['extensionDevelopmentPath', remoteUri(server, repoRoot)]]));
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
