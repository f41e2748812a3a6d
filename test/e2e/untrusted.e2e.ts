/**
 * Issue 7 item 9 (MODE-1, capabilities.untrustedWorkspaces "limited"): in Restricted Mode planning
 * works read-only, and approving explains that the writing agents need a trusted folder instead
 * of starting a build turn, even with plan confirmation turned off.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startModelServer } from '../fixtures/model-server';
import { chatFrame, notification, openWorkbench, screenshot } from '../harness/workbench';
import { SHOUT_FLAG_PLAN } from '../fixtures/plans/shout-flag';

const PLAN = SHOUT_FLAG_PLAN;

test('MODE-1, GATE-3: in an untrusted folder planning works and approval asks for trust instead of building', async () => {
  const server = await startModelServer([
    { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: '{"path":"src/greet.js"}' }] },
    { text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` },
  ]);
  const endpoint = { 'vtplan.provider': 'openai', 'vtplan.baseUrl': server.openaiBaseUrl, 'vtplan.model': 'scripted' };
  // The workspace tries to point the model at another endpoint: an untrusted folder may not (restricted settings).
  // Plan confirmation is off for the user (issue 15 item 3): an untrusted folder still waits at the gate.
  const wb = await openWorkbench({
    trustEnabled: true,
    userSettings: { ...endpoint, 'vtplan.requirePlanConfirmation': false },
    settings: { 'vtplan.baseUrl': 'http://127.0.0.1:9/v1' },
  });
  try {
    const { page } = wb;
    await page.getByText('Restricted Mode').first().waitFor({ timeout: 30_000 });

    await page.locator('.activitybar .action-item [aria-label^="VT Code"]').first().click();
    const frame = chatFrame(page);
    const composer = frame.locator('textarea.composer-input');
    await composer.waitFor({ timeout: 60_000 });
    await composer.fill('Add a shout flag');
    await composer.press('Enter');
    await frame.locator('section.gate').waitFor({ timeout: 60_000 });
    assert.ok(
      existsSync(join(wb.workspace, '.vtcode/plans/add-a-shout-flag.md')),
      'the plan was saved in Restricted Mode',
    );
    assert.equal(server.requests.length, 2, "the user's endpoint was used, not the one the untrusted workspace set");

    const original = readFileSync(join(wb.workspace, 'src/greet.js'), 'utf8');
    await frame.getByRole('button', { name: 'Yes, implement this plan', exact: true }).click();
    const warning = await notification(page, 'needs a trusted folder');
    assert.match(await warning.innerText(), /Manage Workspace Trust/);
    await screenshot(page, 'e2e-untrusted-approval');
    await page.waitForTimeout(1_000);
    assert.equal(server.requests.length, 2, 'no implementation request was sent');
    assert.equal(readFileSync(join(wb.workspace, 'src/greet.js'), 'utf8'), original);
    assert.equal(await frame.locator('.mode-badge.mode-plan').count(), 1, 'still in Plan mode');
    assert.equal(
      await frame.getByRole('button', { name: 'Yes, implement this plan', exact: true }).isEnabled(),
      true,
      'the gate can be answered again once the folder is trusted',
    );
  } catch (err) {
    await screenshot(wb.page, 'e2e-untrusted-failure').catch(() => undefined);
    throw err;
  } finally {
    await wb.close();
    await server.close();
  }
});
