import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Debian Chromium, headless, with a fresh profile and no background traffic (the network is closed
 * here). `extraArgs` are further Chromium switches (the bench unlocks the frame rate with them).
 */
export async function launchBrowser(
  runDir: string,
  env: NodeJS.ProcessEnv,
  viewport = { width: 1400, height: 860 },
  extraArgs: readonly string[] = [],
): Promise<Browser> {
  const profile = join(runDir, 'chromium-profile');
  mkdirSync(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport,
    env: env as Record<string, string>,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
    },
  };
}
