/**
 * Issue 13 items 4 and 5 in real VS Code, with notification toasts shown as in desktop VS Code
 * (the server runs without the smoke-test driver): the compact "Ready to code?" gate keeps every
 * choice and both links in view at the default 1400×860 window and its four choices in a 360 px
 * chat area; the Tasks view's empty state takes two lines at most; an invalid save of the plan
 * shows a toast with actions and the reason inside the gate. Screenshots: test-results/journey/compact-gate/.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import {
  chatFrame,
  journeyShot,
  runCommand,
  openChatClean,
  sequentialSteps,
  outOfView,
  withWorkbench,
  scriptedModelSettings,
} from '../harness/workbench';

const DIR = 'journey/compact-gate';
const TITLE = 'Rate-limit the login route';
const PLAN_FILE = '.vtcode/plans/rate-limit-the-login-route.md';

// Six steps of ordinary length and a summary of several lines: what a real plan looks like, and
// more than the gate previews.
const PLAN = `# ${TITLE}

## Summary
Put a per-IP sliding-window limiter in front of \`login\` in src/server.js so that repeated failed
sign-ins are slowed down, answer over-limit requests with 429 and a Retry-After header, and keep
the limits configurable through environment variables with safe defaults.

## Implementation Steps
1. Add a sliding-window counter keyed by client IP in src/limiter.js with a configurable window and limit -> files: [src/limiter.js] -> verify: [node --test test/]
2. Call the limiter from the \`login\` handler in src/server.js before the password check -> files: [src/server.js] -> verify: [rg -n 'limiter' src/server.js]
3. Answer over-limit requests with 429 and a Retry-After header computed from the window -> files: [src/server.js] -> verify: [node --test test/]
4. Read LOGIN_WINDOW_MS and LOGIN_LIMIT from the environment with defaults in src/config.js -> files: [src/config.js] -> verify: [rg -n 'LOGIN_LIMIT' src/config.js]
5. Cover the limiter's window arithmetic in test/limiter.test.js -> files: [test/limiter.test.js] -> verify: [node --test test/limiter.test.js]
6. Document the two variables in README.md -> files: [README.md] -> verify: [rg -n 'LOGIN_LIMIT' README.md]

## Test Cases and Validation
- \`node --test test/\` passes, including a test that the sixth attempt within the window gets 429.

## Assumptions and Defaults
- Five attempts per minute per IP unless configured otherwise.`;

const CHOICES = [
  'Yes, implement this plan',
  'Yes, clear context and implement',
  'Yes, switch to Auto and implement',
  'No, stay in Plan mode',
];

async function chatAreaHeight(frame: FrameLocator): Promise<number> {
  return frame.locator('.body').evaluate((el) => el.getBoundingClientRect().height);
}

/** Every choice (and, with `links`, both links) of the gate, each fully inside the chat's visible area. */
async function assertGateInView(frame: FrameLocator, what: string, links: boolean): Promise<void> {
  const gate = frame.locator('.gate');
  const targets: [string, Locator][] = CHOICES.map((label, i) => [label, gate.locator('.gate-choice').nth(i)]);
  if (links)
    targets.push(['Edit plan (Ctrl+G)', gate.locator('.gate-edit')], ['Open plan file', gate.locator('.gate-open')]);
  const hidden: string[] = [];
  for (const [label, target] of targets) {
    assert.equal(
      (await target.innerText()).replace(/\s+/g, ' ').trim().replace(/^\d /, '').startsWith(label),
      true,
      `${label} is where it should be`,
    );
    const off = await outOfView(target);
    if (off > 0.5) hidden.push(`${label} (${Math.round(off)} px out of view)`);
  }
  assert.deepEqual(
    hidden,
    [],
    `${what}: chat area ${Math.round(await chatAreaHeight(frame))} px, gate ${Math.round(await gate.evaluate((el) => el.getBoundingClientRect().height))} px`,
  );
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resizes the browser window until the chat's scroll area is `height` px tall (the panes share the change). */
async function fitChatArea(page: Page, frame: FrameLocator, height: number): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const now = await chatAreaHeight(frame);
    if (Math.abs(now - height) <= 2) return;
    const viewport = page.viewportSize() ?? { width: 1400, height: 860 };
    await page.setViewportSize({ width: viewport.width, height: Math.round(viewport.height + (height - now)) });
    await waitFor('the chat to relayout', async () => Math.abs((await chatAreaHeight(frame)) - now) > 0.5, 5_000).catch(
      () => undefined,
    );
  }
  assert.ok(
    Math.abs((await chatAreaHeight(frame)) - height) <= 2,
    `chat area ${await chatAreaHeight(frame)} px, wanted ${height}`,
  );
}

/** A toast (not the Notification Center): the workbench shows it by itself. */
function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
}

test(
  'issue 13: the compact gate fits the chat area; an invalid save shows a toast and the reason in the gate (GATE-1, GATE-2, UI-2)',
  { timeout: 300_000 },
  async (t) => {
    const server: ModelServer = await startModelServer([
      { text: `Here is the plan.\n\n<proposed_plan>\n${PLAN}\n</proposed_plan>` },
    ]);
    const run = {
      toasts: true,
      settings: scriptedModelSettings(server),
      failureShot: `${DIR}/failure`,
      alsoClose: server,
    };
    await withWorkbench(run, async ({ page, workspace }) => {
      const frame = chatFrame(page);
      const gate = frame.locator('.gate');
      const step = sequentialSteps(t, page, DIR);

      await step("01 the Tasks view's empty state takes two lines at most", async () => {
        await openChatClean(page);
        const welcome = page
          .locator('.pane', { has: page.locator('.pane-header', { hasText: 'Tasks' }) })
          .locator('.welcome-view-content p')
          .first();
        await welcome.waitFor({ timeout: 15_000 });
        const lines = await welcome.evaluate((el) =>
          Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
        );
        assert.ok(lines <= 2, `the empty state takes ${lines} lines: ${await welcome.innerText()}`);
      });

      await step(
        '02 GATE-1 at 1400×860: every choice and both links show without scrolling; steps truncated with "… and N more plan steps"',
        async () => {
          await page.keyboard.type('Rate-limit the login route');
          await page.keyboard.press('Enter');
          await gate.waitFor({ timeout: 60_000 });
          await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor({ timeout: 15_000 });
          assert.equal(await gate.locator('.gate-plan-title').innerText(), TITLE);
          assert.equal(await gate.locator('.synopsis-steps li').count(), 3, 'three steps previewed');
          assert.equal(await gate.locator('.gate-more').innerText(), '… and 3 more plan steps');
          await journeyShot(page, DIR, '01-gate-1400x860');
          await assertGateInView(frame, '1400×860', true);
          console.log(`chat area at 1400×860: ${Math.round(await chatAreaHeight(frame))} px`);
        },
      );

      await step('03 GATE-1: the full steps are one click away; the synopsis folds away', async () => {
        await gate.locator('.gate-more').click();
        assert.equal(await gate.locator('.synopsis-steps li').count(), 6, 'every step after "… and 3 more plan steps"');
        await journeyShot(page, DIR, '02-gate-expanded');
        await gate.locator('.gate-more', { hasText: 'Show less' }).click();
        assert.equal(await gate.locator('.synopsis-steps li').count(), 3);
        await gate.locator('.gate-plan-title').click();
        await waitFor(
          'the synopsis to fold',
          async () => !(await gate.locator('.synopsis-summary').isVisible()),
          5_000,
        );
        await journeyShot(page, DIR, '03-gate-folded');
        await gate.locator('.gate-plan-title').click();
        await gate.locator('.synopsis-summary').waitFor({ timeout: 5_000 });
      });

      await step('04 GATE-1: in a 360 px chat area all four choices still show', async () => {
        await fitChatArea(page, frame, 360);
        // As the transcript shows a gate that appears: its top at the top of the chat area.
        await gate.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await journeyShot(page, DIR, '04-gate-360');
        await assertGateInView(frame, '360 px chat area', true);
        await page.setViewportSize({ width: 1400, height: 860 });
      });

      await step('05 GATE-2: an invalid save shows a toast with actions and the reason inside the gate', async () => {
        await gate.locator('.gate-edit').click();
        await page
          .locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Implementation Steps' })
          .waitFor({ timeout: 15_000 });
        await runCommand(page, 'View: Focus Active Editor Group');
        await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 5_000 });
        // An emptied file: four long reasons, the most the gate has to make room for.
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Delete');
        await page.keyboard.press('Control+S');
        await waitFor('the empty file on disk', () => readFileSync(join(workspace, PLAN_FILE), 'utf8') === '');
        const warning = toast(page, 'the previous plan stays active');
        await warning.waitFor({ timeout: 20_000 });
        assert.equal(
          await warning.locator('.notification-list-item-message').innerText(),
          'Required section `## Summary` is missing (+3 more in Problems) — the previous plan stays active.',
        );
        const actions = (await warning.locator('.monaco-button').allInnerTexts()).map((s) => s.trim());
        assert.ok(
          actions.includes('Show Problems') && actions.includes('Review in chat'),
          `toast actions: ${actions.join(', ')}`,
        );
        const note = gate.locator('.gate-invalid-edit');
        await note.waitFor({ timeout: 10_000 });
        assert.match(await note.innerText(), /Required section `?## Summary`? is missing/);
        assert.equal(await note.locator('.gate-invalid-more').innerText(), '… and 3 more in Problems');
        assert.equal(await note.getAttribute('role'), 'alert');
        assert.equal(await outOfView(note), 0, 'the reason shows in the chat without scrolling');
        assert.equal(await gate.locator('.gate-plan-title').innerText(), TITLE, 'the previous plan stays under review');
        // The synopsis folds for the reasons: they and the four choices fit the chat area.
        assert.equal(await gate.locator('.gate-synopsis').evaluate((el) => (el as HTMLDetailsElement).open), false);
        await assertGateInView(frame, 'after an invalid save', true);
        await journeyShot(page, DIR, '05-invalid-save');

        await warning.locator('.monaco-button', { hasText: 'Show Problems' }).click();
        await page
          .locator('.markers-panel .monaco-list-row', { hasText: 'Required section' })
          .first()
          .waitFor({ timeout: 15_000 });
        await journeyShot(page, DIR, '06-show-problems');
      });

      await step('06 GATE-2: a valid save clears the reason and unfolds the synopsis', async () => {
        await runCommand(page, 'View: Focus Active Editor Group');
        await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 5_000 });
        await page.keyboard.press('Control+Z');
        await page
          .locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Five attempts per minute' })
          .waitFor({ timeout: 5_000 });
        assert.equal(readFileSync(join(workspace, PLAN_FILE), 'utf8'), '', 'not saved yet');
        assert.equal(await gate.locator('.gate-invalid-edit').count(), 1, 'the reason stays until a valid save');
        await page.keyboard.press('Control+S');
        await waitFor('the plan back on disk', () =>
          readFileSync(join(workspace, PLAN_FILE), 'utf8').includes('## Summary'),
        );
        await gate.locator('.gate-invalid-edit').waitFor({ state: 'detached', timeout: 15_000 });
        assert.equal(await gate.count(), 1, 'one pending gate');
        assert.equal(
          await gate.locator('.gate-synopsis').evaluate((el) => (el as HTMLDetailsElement).open),
          true,
          "the new plan's synopsis shows",
        );
        await journeyShot(page, DIR, '07-valid-save');
      });
    });
  },
);
