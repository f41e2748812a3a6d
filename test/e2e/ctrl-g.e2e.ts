/**
 * Issue 15 item 4 (GATE-2) in real VS Code: while a plan waits for approval, Ctrl+G is Edit Plan
 * only where the plan is in front of the user — the focused chat view and the plan file's editor.
 * Everywhere else it stays Go to Line. (The plan's notification has an "Open Plan" button instead:
 * notifications cannot have keybindings.) In editors one key press runs one workbench command, so
 * seeing Go to Line open proves Edit Plan did not run, and the other way round; that the chat keeps
 * the key from VS Code is pinned in test/webview/edit-plan-key.test.tsx.
 * Screenshots: test-results/journey/ctrl-g/.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { GREETER_PLAN, GREETER_PLAN_FILE } from '../fixtures/plans/shout-flag';
import {
  chatFrame,
  journeyShot,
  openChatClean,
  runCommand,
  sequentialSteps,
  withWorkbench,
  scriptedModelSettings,
} from '../harness/workbench';

const DIR = 'journey/ctrl-g';
const PLAN_NAME = GREETER_PLAN_FILE.split('/').at(-1)!;

/** The Go to Line quick input (its value starts with ':'). */
function goToLine(page: Page) {
  return page.locator('.quick-input-widget input');
}

function activeTab(page: Page) {
  return page.locator('.tabs-container .tab.active');
}

/** Keyboard focus into the active editor's text (a click could land on the CodeLens above line 1). */
async function focusEditor(page: Page): Promise<void> {
  await runCommand(page, 'View: Focus Active Editor Group');
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 5_000 });
}

test(
  'issue 15 item 4: Ctrl+G edits the plan in the chat and the plan editor, and is Go to Line in any other editor (GATE-2)',
  { timeout: 300_000 },
  async (t) => {
    const server: ModelServer = await startModelServer([
      { text: `Here is the plan.\n\n<proposed_plan>\n${GREETER_PLAN}\n</proposed_plan>` },
    ]);
    const run = {
      settings: scriptedModelSettings(server),
      failureShot: `${DIR}/failure`,
      alsoClose: server,
    };
    await withWorkbench(run, async ({ page }) => {
      const frame = chatFrame(page);
      const step = sequentialSteps(t, page, DIR);

      await step('01 a plan waits for approval', async () => {
        await openChatClean(page);
        const composer = frame.locator('textarea.composer-input');
        await composer.fill('Add a --shout flag to the greeter');
        await composer.press('Enter');
        await frame.locator('section.gate').waitFor({ timeout: 60_000 });
      });

      await step('02 in an ordinary editor Ctrl+G opens Go to Line, not the plan', async () => {
        await page.keyboard.press('Control+p');
        await goToLine(page).waitFor({ timeout: 15_000 });
        await page.keyboard.type('src/greet.js');
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'greet.js' })
          .first()
          .waitFor({ timeout: 15_000 });
        await page.keyboard.press('Enter');
        await activeTab(page).filter({ hasText: 'greet.js' }).waitFor({ timeout: 15_000 });
        await focusEditor(page);
        await page.keyboard.press('Control+g');
        await goToLine(page).waitFor({ timeout: 10_000 });
        assert.match(await goToLine(page).inputValue(), /^:/, 'the Go to Line picker');
        await journeyShot(page, DIR, '02-go-to-line');
        assert.match(String(await activeTab(page).getAttribute('aria-label')), /^greet\.js\b/, 'the plan did not open');
        await page.keyboard.press('Escape');
        await goToLine(page).waitFor({ state: 'hidden', timeout: 10_000 });
      });

      await step("03 in the plan file's editor Ctrl+G is Edit Plan (its status message), not Go to Line", async () => {
        await runCommand(page, 'VT Code: Open Plan File');
        await activeTab(page).filter({ hasText: PLAN_NAME }).waitFor({ timeout: 15_000 });
        await focusEditor(page);
        await page.keyboard.press('Control+g');
        await page.locator('.statusbar', { hasText: 'Editing the plan' }).waitFor({ timeout: 10_000 });
        assert.equal(await page.locator('.quick-input-widget').isVisible(), false, 'Go to Line did not open');
        await journeyShot(page, DIR, '03-plan-editor');
      });

      await step('04 with the chat focused Ctrl+G opens the plan', async () => {
        await runCommand(page, 'View: Close All Editors');
        await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
        await frame.locator('textarea.composer-input').click();
        await page.keyboard.press('Control+g');
        await activeTab(page).filter({ hasText: PLAN_NAME }).waitFor({ timeout: 15_000 });
        await journeyShot(page, DIR, '04-from-chat');
      });
    });
  },
);
