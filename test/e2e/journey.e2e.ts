/**
 * The whole planning journey in real VS Code against the scripted model server (issue #8):
 * Start Planning → goal → tool cards → clarification wizard answered by keyboard → plan → "Ready
 * to code?" gate → Ctrl+G → invalid save (warning, previous plan kept) → valid save (gate again)
 * → approval from the notification while the chat is hidden → build turn edits files and ticks
 * the checklist → window reload restores the session. A screenshot per step lands in
 * test-results/journey/.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startModelServer, splitEvery, type ModelServer, type ScriptedTurn } from '../fixtures/model-server';
import { GREETER_PLAN, GREETER_PLAN_EDITS, GREETER_PLAN_FILE, GREETER_PLAN_TITLE } from '../fixtures/plans/shout-flag';
import {
  chatFrame,
  journeyShot,
  notification,
  notificationTexts,
  runCommand,
  updateWorkspaceSettings,
  openChatClean,
  sequentialSteps,
  withWorkbench,
  scriptedModelSettings,
} from '../harness/workbench';

const DIR = 'journey';
const GOAL = 'Add a --shout flag to the greeter';
const TITLE = GREETER_PLAN_TITLE;
const PLAN_FILE = GREETER_PLAN_FILE;
const TASKS_FILE = '.vtcode/plans/add-a-shout-flag-to-the-greeter.tasks.md';
const CHOSEN = 'An options object { shout }';
const EDITED_SUMMARY = 'Lower-case stays the default.';

const PLAN = GREETER_PLAN;

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

function script(): ScriptedTurn[] {
  return [
    // Planning turn: research (the delay leaves the goal on screen for a moment) …
    {
      delayMs: 1500,
      text: 'Let me look at the greeter first.',
      toolCalls: [call('read_file', { path: 'src/greet.js' }), call('list_dir', { path: 'test' })],
    },
    // … a clarification interview …
    {
      delayMs: 1500,
      toolCalls: [
        call('request_user_input', {
          questions: [
            {
              id: 'flag_shape',
              header: 'API shape',
              question: 'How should callers ask for a shouted greeting?',
              options: [
                { label: 'A boolean second parameter', description: 'greet(name, true)', recommended: true },
                { label: CHOSEN, description: 'greet(name, { shout: true })' },
              ],
            },
          ],
        }),
      ],
    },
    // … and the plan, streamed in small deltas (the tag split across them).
    {
      chunkDelayMs: 15,
      text: ['Thanks, an options object it is. ', ...splitEvery(`<proposed_plan>\n${PLAN}\n</proposed_plan>`, 40)],
    },
  ];
}

function buildScript(): ScriptedTurn[] {
  return [
    { delayMs: 2500, toolCalls: [call('edit_file', GREETER_PLAN_EDITS[0])] },
    { delayMs: 800, toolCalls: [call('task_tracker', { action: 'update', index: 1, status: 'completed' })] },
    { delayMs: 800, toolCalls: [call('edit_file', GREETER_PLAN_EDITS[1])] },
    { delayMs: 800, toolCalls: [call('task_tracker', { action: 'update', index: 2, status: 'completed' })] },
    { text: 'Implemented the shout option and its test.' },
  ];
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { function: { name: string } }[];
}

/** The palette's command titles for `query`, once `expected` is listed (so an absence is not a slow list). */
async function paletteCommands(page: Page, query: string, expected: string): Promise<string[]> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  await input.fill(`>${query}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: expected }).first().waitFor({ timeout: 15_000 });
  const titles = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) => t.trim());
  // Escape first hides notification toasts (a higher-priority binding) while any is showing.
  for (let i = 0; i < 3 && (await page.locator('.quick-input-widget').isVisible()); i++) {
    await input.press('Escape');
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 2_000 })
      .catch(() => undefined);
  }
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 });
  return titles;
}

function messagesOf(server: ModelServer, n: number): ChatMessage[] {
  const body = server.requests[n]?.body as { messages?: ChatMessage[] } | undefined;
  assert.ok(body?.messages, `request ${n} reached the model server`);
  return body.messages;
}

function toolsOffered(server: ModelServer, n: number): string[] {
  const body = server.requests[n]?.body as { tools?: { function: { name: string } }[] } | undefined;
  return (body?.tools ?? []).map((t) => t.function.name).sort();
}

/**
 * WCAG contrast ratio of an element's text against the first opaque background behind it: the
 * themes must keep every piece of the panel readable, inline code included.
 */
async function contrastOf(target: Locator): Promise<number> {
  // Passed as source text: the test runner's transpiler would wrap named helpers in a `__name`
  // call that does not exist inside the page.
  return target.evaluate(
    new Function(
      'el',
      `
    const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
    const lin = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    const luminance = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
    let node = el;
    let background = [255, 255, 255];
    while (node) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) { background = c; break; }
      node = node.parentElement;
    }
    const a = luminance(rgb(getComputedStyle(el).color));
    const b = luminance(background);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  `,
    ) as (el: Element) => number,
  );
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Keyboard focus into the active editor (a click could land on the CodeLens above line 1). */
async function focusEditor(page: Page): Promise<void> {
  await runCommand(page, 'View: Focus Active Editor Group');
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 5_000 });
}

/** Reloads the window and makes sure the VT Code container shows (the reload normally restores it). */
async function reloadWindow(page: Page): Promise<void> {
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  const activity = page.locator('.activitybar .action-item [aria-label^="VT Code"]').first();
  await activity.waitFor({ timeout: 60_000 });
  // Open it only if it did not come back: a click on an open container closes it.
  const chatPane = page.locator('.sidebar .pane-header', { hasText: 'Chat' });
  if (
    !(await chatPane.waitFor({ timeout: 15_000 }).then(
      () => true,
      () => false,
    ))
  )
    await activity.click();
}

test(
  'issue #8 journey: plan → interview → gate → Ctrl+G edits → notification approval → build → reload (UI-1..6, INT-1, INT-2, GATE-1, GATE-2, GATE-6, ADD-4)',
  { timeout: 420_000 },
  async (t) => {
    const server = await startModelServer(script());
    const run = {
      settings: scriptedModelSettings(server),
      failureShot: `${DIR}/failure`,
      alsoClose: server,
    };
    await withWorkbench(run, async ({ page, workspace }) => {
      const frame = chatFrame(page);
      const tasksPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Tasks' }) });
      // Each step needs the ones before it: after a failure the rest fail at once instead of timing out one by one.
      const step = sequentialSteps(t, page, DIR, async (err) => {
        if (process.env.VTPLAN_E2E_DEBUG) {
          console.log('STEP FAILED', err);
          console.log('NOTIFICATIONS', JSON.stringify(await notificationTexts(page).catch(String)));
          console.log(await frame.locator('.transcript').innerText().catch(String));
        }
      });

      await step('01 UI-4: "Start Planning" opens the chat in Plan mode with the composer focused', async () => {
        // The product's welcome page is not part of the journey: the screenshots show the editor area empty.
        await openChatClean(page);
        await frame.locator('.mode-badge', { hasText: 'Plan' }).waitFor({ timeout: 10_000 });
        await frame.locator('.model', { hasText: 'scripted' }).waitFor({ timeout: 10_000 });
        await waitFor(
          'the composer to have keyboard focus',
          () => frame.locator('textarea.composer-input').evaluate((el) => el === document.activeElement),
          10_000,
        );
        await journeyShot(page, DIR, '01-start-planning');
      });

      await step('02 UI-1: the goal is sent with Enter and planning starts', async () => {
        await page.keyboard.type(GOAL);
        await page.keyboard.press('Enter');
        await frame.locator('.msg-user', { hasText: GOAL }).waitFor({ timeout: 15_000 });
        await frame.locator('.status-line', { hasText: 'Planning...' }).waitFor({ timeout: 10_000 });
        assert.equal(
          await frame.locator('textarea.composer-input').inputValue(),
          '',
          'the composer is cleared after sending',
        );
        await frame.locator('.stop-button').waitFor({ timeout: 5_000 });
        await journeyShot(page, DIR, '02-goal');
      });

      await step('03 UI-1: research streams as tool cards with their targets', async () => {
        await frame.locator('.tool.tool-ok', { hasText: 'read_file' }).waitFor({ timeout: 20_000 });
        await frame.locator('.tool.tool-ok', { hasText: 'list_dir' }).waitFor({ timeout: 20_000 });
        assert.equal(
          await frame.locator('.tool', { hasText: 'read_file' }).locator('.tool-target').innerText(),
          'src/greet.js',
        );
        await frame.locator('.msg-assistant', { hasText: 'Let me look at the greeter first.' }).waitFor();
        // The plan agent was offered read-only tools only.
        const offered = toolsOffered(server, 0);
        assert.ok(offered.includes('read_file') && offered.includes('request_user_input'), offered.join(','));
        assert.ok(
          !offered.includes('edit_file') && !offered.includes('write_file'),
          `plan mode offered ${offered.join(',')}`,
        );
        await journeyShot(page, DIR, '03-tool-cards');
      });

      await step(
        '04 INT-1, INT-2: the wizard asks, no gate meanwhile; the keyboard answer keeps the declared label',
        async () => {
          const wizard = frame.locator('.wizard');
          await wizard.waitFor({ timeout: 20_000 });
          await wizard
            .locator('.wizard-question', { hasText: 'How should callers ask for a shouted greeting?' })
            .waitFor();
          assert.equal(await wizard.locator('.wizard-option').count(), 2);
          assert.match(
            await wizard.locator('.wizard-option').nth(0).innerText(),
            /A boolean second parameter\s*\(Recommended\)/,
          );
          assert.equal(
            await wizard.locator('.wizard-option.is-selected .option-label').innerText(),
            'A boolean second parameter',
            'the recommended option is preselected',
          );
          assert.equal(await frame.locator('.gate').count(), 0, 'no approval gate while the interview is open');
          assert.equal(
            await frame.locator('textarea.composer-input').isDisabled(),
            true,
            'the composer is locked while a question is open',
          );
          await frame.locator('.status-line', { hasText: 'Waiting for your answer' }).waitFor();
          await page.waitForTimeout(200);
          await journeyShot(page, DIR, '04-wizard');

          await page.keyboard.press('ArrowDown');
          assert.equal(await wizard.locator('.wizard-option.is-selected .option-label').innerText(), CHOSEN);
          await page.keyboard.press('Enter');
          await frame.locator('.interview-summary', { hasText: CHOSEN }).waitFor({ timeout: 10_000 });
          // The request_user_input card is answered, not left spinning.
          await frame.locator('.tool.tool-ok', { hasText: 'request_user_input' }).waitFor({ timeout: 10_000 });
        },
      );

      await step(
        '05 INT-1, UI-6: the answer reaches the next request; the plan is persisted under .vtcode/plans',
        async () => {
          await frame.locator('.plan-card.plan-persisted').waitFor({ timeout: 30_000 });
          // INT-1: the exact option label went back to the model as the interview tool's result.
          const third = messagesOf(server, 2);
          const answer = third.find((m) => m.role === 'tool' && String(m.content).includes(CHOSEN));
          assert.ok(answer, `the answer reached request 3: ${JSON.stringify(third.filter((m) => m.role === 'tool'))}`);
          assert.match(String(answer.content), /selected "An options object \{ shout \}"/);
          const card = frame.locator('.plan-card.plan-persisted');
          assert.equal(await card.locator('.card-title').innerText(), TITLE);
          assert.equal(await card.locator('.plan-file').innerText(), PLAN_FILE);
          // PLAN-1: the plan markup never shows as chat text.
          const chatText = await frame.locator('.transcript').innerText();
          assert.ok(!chatText.includes('proposed_plan'), 'no plan tags in the transcript');
          assert.equal(readFileSync(join(workspace, PLAN_FILE), 'utf8'), `${PLAN}\n`);
          await journeyShot(page, DIR, '05-plan');
        },
      );

      await step(
        '06 GATE-1, UI-1, UI-2: "Ready to code?" shows the synopsis and four choices (dark, light and high-contrast themes)',
        async () => {
          const gate = frame.locator('.gate');
          await gate.waitFor({ timeout: 15_000 });
          assert.equal(await gate.locator('.card-title').innerText(), 'Ready to code?');
          assert.equal(await gate.locator('.gate-plan-title').innerText(), TITLE);
          assert.match(await gate.locator('.synopsis-summary').innerText(), /Add an optional `?shout`? flag/);
          assert.equal(await gate.locator('.synopsis-steps li').count(), 2);
          const choices = (await gate.locator('.gate-choice .choice-label').allInnerTexts()).map((s) => s.trim());
          assert.deepEqual(choices, [
            'Yes, implement this plan',
            'Yes, clear context and implement',
            'Yes, switch to Auto and implement',
            'No, stay in Plan mode',
          ]);
          assert.match(
            await gate.locator('.gate-choice-fresh_context .choice-detail').innerText(),
            /^Fresh thread\. Context: \d+% used\.$/,
          );
          await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor();
          assert.equal(
            await gate.locator('.gate-choice-execute').evaluate((el) => el === document.activeElement),
            true,
            'the first choice has focus',
          );
          await journeyShot(page, DIR, '06-gate');
          const darkContrast = await contrastOf(gate.locator('.synopsis-summary code').first());
          assert.ok(darkContrast >= 4.5, `dark: inline code contrast ${darkContrast.toFixed(2)}`);

          updateWorkspaceSettings(workspace, { 'workbench.colorTheme': 'Default Light Modern' });
          await page.locator('.monaco-workbench.vs').waitFor({ timeout: 15_000 });
          // The webview has the new theme when VS Code marks its body with the theme kind.
          await frame.locator('body[data-vscode-theme-kind="vscode-light"]').waitFor({ timeout: 15_000 });
          await journeyShot(page, DIR, '06-gate-light');
          const lightContrast = await contrastOf(gate.locator('.synopsis-summary code').first());
          assert.ok(lightContrast >= 4.5, `light: inline code contrast ${lightContrast.toFixed(2)}`);
          // UI-1 (issue 8 item 6): in both high-contrast themes the toolkit buttons carry the theme's contrast border.
          for (const [theme, workbenchClass, themeKind, shot] of [
            ['Default High Contrast', 'hc-black', 'vscode-high-contrast', '06-gate-high-contrast'],
            ['Default High Contrast Light', 'hc-light', 'vscode-high-contrast-light', '06-gate-high-contrast-light'],
          ] as const) {
            updateWorkspaceSettings(workspace, { 'workbench.colorTheme': theme });
            await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 15_000 });
            await frame.locator(`body[data-vscode-theme-kind="${themeKind}"]`).waitFor({ timeout: 15_000 });
            const borderOf = () =>
              gate.locator('.gate-choice-revise').evaluate((el) => {
                const control = el.shadowRoot?.querySelector('button.control');
                return control ? getComputedStyle(control).borderTopColor : 'not an upgraded toolkit button';
              });
            // The toolkit restyles its buttons after the theme change: wait for the border to show (a
            // positive condition; a transparent border never satisfies it).
            await waitFor(
              `${theme}: a visible border on the choices`,
              async () => /^rgba?\(/.test(await borderOf()) && (await borderOf()) !== 'rgba(0, 0, 0, 0)',
              15_000,
            );
            const border = await borderOf();
            assert.notEqual(border, 'rgba(0, 0, 0, 0)', `${theme}: a choice has a visible border`);
            const codeContrast = await contrastOf(gate.locator('.synopsis-summary code').first());
            assert.ok(
              codeContrast >= 4.5,
              `${theme}: inline code contrast ${codeContrast.toFixed(2)} (WCAG AA needs 4.5)`,
            );
            assert.match(border, /^rgba?\(/, `${theme}: ${border}`);
            await journeyShot(page, DIR, shot);
          }
          updateWorkspaceSettings(workspace, { 'workbench.colorTheme': 'Default Dark Modern' });
          await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 15_000 });
          await frame.locator('body[data-vscode-theme-kind="vscode-dark"]').waitFor({ timeout: 15_000 });
          await gate.locator('.gate-choice-execute').focus();
        },
      );

      await step('07 GATE-2, UI-4: Ctrl+G opens the persisted plan file in the editor', async () => {
        await page.keyboard.press('Control+G');
        const tab = page.locator('.tabs-container .tab', { hasText: 'add-a-shout-flag-to-the-greeter.md' });
        await tab.waitFor({ timeout: 15_000 });
        await page
          .locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Implementation Steps' })
          .waitFor({ timeout: 15_000 });
        // ADD-3: the plan under review carries the Approve / Edit CodeLens.
        await page
          .locator('.editor-instance .codelens-decoration', { hasText: 'Approve plan' })
          .waitFor({ timeout: 15_000 });
        await journeyShot(page, DIR, '07-ctrl-g');
      });

      await step('08 GATE-2: an invalid save warns and keeps the previous plan under review', async () => {
        await focusEditor(page);
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Delete');
        await page.keyboard.press('Control+S');
        const warning = await notification(page, 'the previous plan stays active');
        // The message alone: the toast also carries its actions (Show Problems, Review in chat).
        assert.match(
          await warning.locator('.notification-list-item-message').innerText(),
          /^Required section `## Summary` is missing\.? \(\+3 more in Problems\) — the previous plan stays active/,
        );
        await waitFor('the empty file on disk', () => readFileSync(join(workspace, PLAN_FILE), 'utf8') === '');
        await frame.locator('.gate .gate-invalid-edit', { hasText: 'Required section' }).waitFor({ timeout: 10_000 });
        assert.equal(
          await frame.locator('.notice', { hasText: 'The edited plan is not valid' }).count(),
          0,
          'the reason is in the gate, not in a chat line that would outlive the fix',
        );
        assert.equal(await frame.locator('.gate').count(), 1, 'the pending gate stays; no new gate');
        // One revision so far: "Compare with Previous Plan" stays out of the palette (its context key).
        assert.ok(
          !(await paletteCommands(page, 'VT Code: ', 'VT Code: Open Plan File')).some((c) =>
            c.includes('Compare with Previous Plan'),
          ),
          'no earlier revision to compare with',
        );
        assert.equal(await frame.locator('.gate .synopsis-steps li').count(), 2, 'the previous synopsis stays');
        await journeyShot(page, DIR, '08-invalid-save');
        await runCommand(page, 'Notifications: Clear All Notifications');
      });

      await step('09 GATE-2: a valid save re-validates and shows the gate again with the new synopsis', async () => {
        await focusEditor(page);
        await page.keyboard.press('Control+Z');
        await page
          .locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Implementation Steps' })
          .waitFor({ timeout: 5_000 });
        await page.keyboard.press('Control+Home');
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('End');
        await page.keyboard.type(` ${EDITED_SUMMARY}`);
        await page.keyboard.press('Control+S');
        await waitFor('the edit on disk', () =>
          readFileSync(join(workspace, PLAN_FILE), 'utf8').includes(`src/greet.js. ${EDITED_SUMMARY}`),
        );
        await frame.locator('.gate .synopsis-summary', { hasText: EDITED_SUMMARY }).waitFor({ timeout: 15_000 });
        // The re-read plan is the same plan card, now at revision 2, under review (collapsed: the gate
        // shows its synopsis); the gate was updated where it stands, so nothing reads "Superseded".
        await frame
          .locator('.plan-card.plan-under-review .plan-markdown', { hasText: EDITED_SUMMARY })
          .waitFor({ state: 'attached', timeout: 5_000 });
        const card = frame.locator('.plan-card.plan-under-review');
        assert.equal(await card.locator('.plan-revision-label').innerText(), 'Revision 2 · edited in the editor');
        assert.equal(await frame.locator('.plan-card').count(), 1, 'one plan card');
        assert.equal(await frame.locator('.gate-summary.gate-superseded').count(), 0, 'no "Superseded" line');
        assert.equal(
          await frame.locator('.gate .gate-invalid-edit').count(),
          0,
          'the reason of the invalid save is gone',
        );
        const changes = card.locator('details.plan-changes');
        assert.equal(
          await changes.evaluate((el) => (el as HTMLDetailsElement).open),
          false,
          '"What changed" starts collapsed',
        );
        assert.equal(await changes.locator('summary').innerText(), 'What changed (steps unchanged)');
        await changes.locator('summary').click();
        await changes.locator('.change-sections', { hasText: 'Summary' }).waitFor();
        assert.equal(await frame.locator('.plan-card.plan-streaming').count(), 0, 'no plan card left drafting');
        assert.equal(await frame.locator('.tool.tool-running').count(), 0, 'no tool card left running');
        assert.equal(await frame.locator('.gate').count(), 1, 'exactly one pending gate');
        await journeyShot(page, DIR, '09-valid-save');
      });

      await step(
        '09a GATE-2: "Compare with Previous Plan" (palette, then the card\'s link) opens the diff editor on revision 1',
        async () => {
          const diffTab = page.locator('.tabs-container .tab', { hasText: '(revision 1 ↔ current)' });
          await runCommand(page, 'VT Code: Compare with Previous Plan');
          await diffTab.waitFor({ timeout: 15_000 });
          await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 15_000 });
          await journeyShot(page, DIR, '09a-compare');
          await runCommand(page, 'View: Close Editor');
          await diffTab.waitFor({ state: 'detached', timeout: 10_000 });
          await frame.locator('.plan-card .plan-compare').click();
          await diffTab.waitFor({ timeout: 15_000 });
          // The diff editor takes the focus from the webview a moment after its tab shows; F1 pressed
          // before that opens a palette the focus change then closes.
          await page.locator('.monaco-diff-editor .monaco-editor.focused').first().waitFor({ timeout: 15_000 });
          await runCommand(page, 'View: Close Editor');
          await diffTab.waitFor({ state: 'detached', timeout: 10_000 });
        },
      );

      await step('09b ADD-4: the pending approval survives a window reload (gate, status, Ctrl+G)', async () => {
        await reloadWindow(page);
        await frame.locator('.notice', { hasText: 'Session restored.' }).waitFor({ timeout: 60_000 });
        const gate = frame.locator('.gate');
        await gate.waitFor({ timeout: 10_000 });
        assert.equal(await gate.count(), 1, 'one pending gate');
        assert.match(
          await gate.locator('.synopsis-summary').innerText(),
          new RegExp(EDITED_SUMMARY.replace('.', '\\.')),
        );
        await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor();
        await journeyShot(page, DIR, '09b-reload-pending');
        // The approval context key came back with the session: Ctrl+G still opens the plan.
        await gate.locator('.gate-choice-execute').focus();
        await page.keyboard.press('Control+G');
        await page
          .locator('.editor-instance .monaco-editor.focused', { hasText: 'Implementation Steps' })
          .waitFor({ timeout: 15_000 });
      });

      await step(
        '10 GATE-6, UI-5: with the chat hidden, a valid save offers approval in a notification; Implement hands off',
        async () => {
          await runCommand(page, 'View: Show Explorer');
          await page
            .locator('.pane-header', { hasText: /^Explorer|ws/i })
            .first()
            .waitFor({ timeout: 10_000 });
          await focusEditor(page);
          await page.keyboard.press('Control+End');
          await page.keyboard.type('- Shouting is opt-in.');
          await page.keyboard.press('Control+S');
          const offer = await notification(page, `Plan ready: ${TITLE} — Ready to code?`);
          const buttons = (await offer.locator('.monaco-button').allInnerTexts()).map((s) => s.trim());
          for (const label of ['Implement', 'Open Plan', 'Review in chat'])
            assert.ok(buttons.includes(label), `buttons: ${buttons.join(', ')}`);
          const offers = (await notificationTexts(page)).filter((m) => m.startsWith('Plan ready'));
          assert.deepEqual(offers, [`Plan ready: ${TITLE} — Ready to code?`], 'exactly one offer');
          await journeyShot(page, DIR, '10-notification');

          server.enqueue(...buildScript());
          const before = server.requests.length;
          await offer.locator('.monaco-button', { hasText: /^Implement$/ }).click();
          await waitFor('the implementation request', () => server.requests.length > before, 20_000);
          const offered = toolsOffered(server, before);
          assert.ok(offered.includes('edit_file'), `the build agent can edit: ${offered.join(',')}`);
          // GATE-3: the tracker is persisted before the build turn starts.
          assert.ok(existsSync(join(workspace, TASKS_FILE)), 'the checklist sidecar exists');
        },
      );

      await step('11 UI-3, TRK-5: the build turn edits files and the Tasks view fills and completes', async () => {
        await runCommand(page, 'Notifications: Clear All Notifications');
        await page.locator('.activitybar .action-item [aria-label^="VT Code"]').first().click();
        await tasksPane.locator('.monaco-list-row').first().waitFor({ timeout: 20_000 });
        const rows = tasksPane.locator('.monaco-list-row');
        await waitFor('two checklist rows', async () => (await rows.count()) === 2, 15_000);
        await waitFor(
          'every row done',
          async () => (await tasksPane.locator('.monaco-list-row[aria-label^="Done: "]').count()) === 2,
          45_000,
        );
        const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        assert.deepEqual(labels, [
          'Done: Add the shout option to greet in src/greet.js',
          'Done: Cover the new option in test/greet.test.js',
        ]);
        await frame
          .locator('.msg-assistant', { hasText: 'Implemented the shout option and its test.' })
          .waitFor({ timeout: 20_000 });
        await frame.locator('.mode-badge', { hasText: 'Build' }).waitFor({ timeout: 10_000 });
        await frame.locator('.tracker', { hasText: `${TITLE} 2/2` }).waitFor({ timeout: 10_000 });
        await frame.locator('.gate-summary.gate-resolved', { hasText: 'Yes, implement this plan' }).waitFor();
        await frame.locator('.status-line', { hasText: 'Ready' }).waitFor({ timeout: 10_000 });
        assert.match(
          readFileSync(join(workspace, 'src/greet.js'), 'utf8'),
          /options\.shout \? text\.toUpperCase\(\) : text/,
        );
        assert.match(readFileSync(join(workspace, 'test/greet.test.js'), 'utf8'), /shouts when asked/);
        assert.match(
          readFileSync(join(workspace, TASKS_FILE), 'utf8'),
          /- \[x\] Add the `shout` option[\s\S]*- \[x\] Cover the new option/,
        );
        assert.equal(server.pending(), 0, 'every scripted turn was used');
        await journeyShot(page, DIR, '11-tasks');
      });

      await step('12 ADD-4: after a window reload the session is restored in the chat', async () => {
        await reloadWindow(page);
        // The second restore of this session (09b was the first): each one says so once.
        await frame.locator('.notice', { hasText: 'Session restored.' }).nth(1).waitFor({ timeout: 60_000 });
        assert.equal(await frame.locator('.notice', { hasText: 'Session restored.' }).count(), 2);
        await frame.locator('.msg-user', { hasText: GOAL }).waitFor();
        await frame.locator('.interview-summary', { hasText: CHOSEN }).waitFor();
        await frame.locator('.plan-card.plan-approved').first().waitFor();
        await frame.locator('.mode-badge', { hasText: 'Build' }).waitFor();
        assert.equal(await frame.locator('.gate').count(), 0, 'no pending gate after approval');
        await tasksPane.locator('.monaco-list-row[aria-label^="Done: "]').nth(1).waitFor({ timeout: 20_000 });
        // The colour theme is applied again a moment after the reload, the webview's included.
        await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 10_000 });
        await frame.locator('body[data-vscode-theme-kind="vscode-dark"]').waitFor({ timeout: 10_000 });
        await journeyShot(page, DIR, '12-restored');
      });

      await step("13 TRK-5, ADD-4: after the reload the chat's checklist line agrees with the Tasks view", async () => {
        const line = frame.locator('.tracker');
        await line.first().waitFor({ timeout: 10_000 });
        assert.equal(await line.count(), 1, 'one checklist line');
        // TRK-5: header only (title and count) once every task is done, as the Tasks view shows it.
        assert.equal(
          (await line.innerText()).trim(),
          `${TITLE} 2/2`,
          'the Tasks view shows 2/2 done; the restored chat line must agree',
        );
      });
    });
  },
);
