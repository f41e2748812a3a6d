/**
 * Issue 15 item 3 in real VS Code: an invalid `vtplan.*` value is never replaced silently. A warning
 * names the setting, the value and the default used instead, and its "Open Settings" button opens
 * the Settings editor on that setting. Each distinct problem is reported once, not on every read
 * of the settings. Screenshots: test-results/journey/settings/.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  chatFrame,
  journeyShot,
  notification,
  notificationTexts,
  sequentialSteps,
  updateWorkspaceSettings,
  withWorkbench,
} from '../harness/workbench';

const DIR = 'journey/settings';

test(
  'issue 15 item 3: an invalid setting is named in a warning with Open Settings, once per problem',
  { timeout: 300_000 },
  async (t) => {
    const run = { settings: { 'vtplan.maxToolCallsPerTurn': 'lots' }, failureShot: `${DIR}/failure` };
    await withWorkbench(run, async ({ page, workspace }) => {
      const step = sequentialSteps(t, page, DIR);

      await step('01 the warning names the setting, the value and the default', async () => {
        // Opening the chat activates the extension, which validates the settings.
        await page.locator('.activitybar .action-item [aria-label^="VT Code"]').first().click();
        await chatFrame(page).locator('textarea.composer-input').waitFor({ timeout: 60_000 });
        const warning = await notification(page, 'vtplan.maxToolCallsPerTurn', 60_000);
        assert.equal(
          await warning.locator('.notification-list-item-message').innerText(),
          'The setting vtplan.maxToolCallsPerTurn is "lots", which is not valid: it must be a whole number of at least 0. Using the default, 120.',
        );
        await journeyShot(page, DIR, '01-warning');
      });

      await step('02 a second problem is reported on its own; the first is not repeated', async () => {
        updateWorkspaceSettings(workspace, { 'vtplan.commandTimeoutSeconds': 0 });
        await notification(page, 'vtplan.commandTimeoutSeconds');
        const texts = await notificationTexts(page);
        assert.equal(texts.filter((text) => text.includes('vtplan.maxToolCallsPerTurn')).length, 1, texts.join('\n'));
      });

      await step('03 "Open Settings" opens the Settings editor on that setting', async () => {
        const warning = await notification(page, 'vtplan.maxToolCallsPerTurn');
        await warning.getByRole('button', { name: 'Open Settings' }).click();
        const search = page.locator('.settings-editor .suggest-input-container .view-lines');
        await search.filter({ hasText: 'vtplan.maxToolCallsPerTurn' }).waitFor({ timeout: 15_000 });
        await page
          .locator('.settings-editor .setting-item-contents', { hasText: 'Max Tool Calls Per Turn' })
          .first()
          .waitFor({ timeout: 15_000 });
        await journeyShot(page, DIR, '03-settings-editor');
      });
    });
  },
);
