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
import { chatFrame, notification, screenshot, withWorkbench, scriptedModelSettings } from '../harness/workbench';
import { SHOUT_FLAG_PLAN } from '../fixtures/plans/shout-flag';

const PLAN = SHOUT_FLAG_PLAN;
const FOLLOW_UP = 'Also keep the output on one line';

interface WireBody {
  messages?: { role: string; content?: unknown }[];
  tools?: { function?: { name?: string } }[];
}

test('MODE-1, GATE-3: in an untrusted folder planning works and approval asks for trust instead of building', async () => {
  const server = await startModelServer([
    { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: '{"path":"src/greet.js"}' }] },
    { text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` },
    // The reply to the follow-up message: the positive control below.
    { text: 'Noted; the plan stays as proposed.' },
  ]);
  // The workspace tries to point the model at another endpoint: an untrusted folder may not (restricted settings).
  // Plan confirmation is off for the user (issue 15 item 3): an untrusted folder still waits at the gate.
  const run = {
    trustEnabled: true,
    userSettings: { ...scriptedModelSettings(server), 'vtplan.requirePlanConfirmation': false },
    settings: { 'vtplan.baseUrl': 'http://127.0.0.1:9/v1' },
    failureShot: 'e2e-untrusted-failure',
    alsoClose: server,
  };
  await withWorkbench(run, async ({ page, workspace }) => {
    await page.getByText('Restricted Mode').first().waitFor({ timeout: 30_000 });

    await page.locator('.activitybar .action-item [aria-label^="VT Code"]').first().click();
    const frame = chatFrame(page);
    const composer = frame.locator('textarea.composer-input');
    await composer.waitFor({ timeout: 60_000 });
    await composer.fill('Add a shout flag');
    await composer.press('Enter');
    await frame.locator('section.gate').waitFor({ timeout: 60_000 });
    assert.ok(
      existsSync(join(workspace, '.vtcode/plans/add-a-shout-flag.md')),
      'the plan was saved in Restricted Mode',
    );
    assert.equal(server.requests.length, 2, "the user's endpoint was used, not the one the untrusted workspace set");

    const original = readFileSync(join(workspace, 'src/greet.js'), 'utf8');
    await frame.getByRole('button', { name: 'Yes, implement this plan', exact: true }).click();
    const warning = await notification(page, 'needs a trusted folder');
    assert.match(await warning.innerText(), /Manage Workspace Trust/);
    await screenshot(page, 'e2e-untrusted-approval');
    // Positive control instead of a fixed wait: a later message must be answered by the next
    // request. Turns run one at a time, so an implementation turn started by the approval would
    // have sent request 3 before this message could.
    await composer.fill(FOLLOW_UP);
    await composer.press('Enter');
    await frame
      .locator('.msg-assistant', { hasText: 'Noted; the plan stays as proposed.' })
      .waitFor({ timeout: 60_000 });
    assert.equal(server.requests.length, 3, 'no implementation request was sent, only the follow-up');
    const third = (server.requests[2]?.body as WireBody | undefined) ?? {};
    assert.match(
      String(third.messages?.findLast((m) => m.role === 'user')?.content),
      new RegExp(FOLLOW_UP),
      'request 3 answers the follow-up message',
    );
    const tools = (third.tools ?? []).map((t) => t.function?.name);
    assert.ok(tools.includes('read_file') && !tools.includes('write_file'), `a read-only request: ${tools.join(', ')}`);
    assert.equal(readFileSync(join(workspace, 'src/greet.js'), 'utf8'), original);
    assert.equal(await frame.locator('.mode-badge.mode-plan').count(), 1, 'still in Plan mode');
    assert.equal(
      await frame.getByRole('button', { name: 'Yes, implement this plan', exact: true }).isEnabled(),
      true,
      'the gate can be answered again once the folder is trusted',
    );
  });
});
