import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chatDocument, chatFrame, runCommand, screenshot, withWorkbench } from '../harness/workbench';

test('UI-4: F1 → "Start Planning" reveals the VT Code container with the chat composer and the Tasks view', async () => {
  await withWorkbench({ failureShot: 'e2e-start-planning-failure' }, async ({ page }) => {
    await runCommand(page, 'VT Code: Start Planning');

    const frame = chatFrame(page);
    const composer = frame.locator('textarea.composer-input');
    await composer.waitFor({ timeout: 60_000 });
    await frame.locator('.mode-badge', { hasText: 'Plan' }).waitFor({ timeout: 10_000 });
    // The command moves keyboard focus into the composer (a moment after it shows): typing lands there.
    const doc = await chatDocument(page);
    await doc.waitForFunction(
      () => document.hasFocus() && document.activeElement?.matches('textarea.composer-input') === true,
      undefined,
      { timeout: 30_000 },
    );
    await page.keyboard.type('Add a --shout flag');
    assert.equal(await composer.inputValue(), 'Add a --shout flag');

    const container = page.locator('.pane-header', { hasText: 'Tasks' });
    await container.waitFor({ timeout: 10_000 });
    const header = page.locator('.composite.title, .sidebar .title-label').first();
    assert.match((await header.textContent()) ?? '', /VT Code/i);
    const path = await screenshot(page, 'e2e-start-planning');
    assert.ok(path.endsWith('.png'));
  });
});
