/**
 * Issue 13 items 1, 3 and 6 in real VS Code: saving the plan file (Ctrl+S, and auto-save a second
 * after typing) never moves keyboard focus out of the editor, so Space, Enter and 1 typed there
 * stay text and never approve; the updated gate is scrolled into view even when the user had
 * scrolled the chat up; after approval the chat follows the build turn to its last message; and
 * only the transcript scrolls: the chat document never does, whatever keys hit the panel.
 * Screenshots: test-results/journey/focus/.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { startModelServer, splitEvery, type ModelServer, type ScriptedTurn } from '../fixtures/model-server';
import { repoRoot } from '../harness/vscode-server';
import { GREETER_PLAN, GREETER_PLAN_EDITS, GREETER_PLAN_FILE } from '../fixtures/plans/shout-flag';
import {
  chatDocument,
  chatFrame,
  journeyShot,
  runCommand,
  updateWorkspaceSettings,
  openChatClean,
  sequentialSteps,
  outOfView,
  withWorkbench,
  scriptedModelSettings,
} from '../harness/workbench';

const DIR = 'journey/focus';
const PLAN_FILE = GREETER_PLAN_FILE;
const LAST_BUILD_MESSAGE = 'Implemented the shout option and its test; node --test test/ passes.';

const PLAN = GREETER_PLAN;

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

// Enough research and prose that the transcript is taller than the chat: there is something to scroll.
const FINDINGS = [
  'The greeter is one function, `greet(name)` in src/greet.js, returning a template string.',
  'Its only test, test/greet.test.js, checks the lower-case greeting with `node --test`.',
  'Nothing else imports it, so a second, optional parameter cannot break a caller.',
  'The package has no dependencies and no build step: the change is two small edits.',
  'The README documents `greet(name)` only; callers read it, so the option belongs there too, later.',
  'Upper-casing the whole greeting keeps the punctuation: `HELLO, ADA!` is what a caller expects.',
  'An options object leaves room for more flags without a third positional parameter.',
  'The existing test stays as it is and proves that the default did not change.',
].join('\n\n');

function planningScript(): ScriptedTurn[] {
  return [
    {
      text: 'Let me look at the greeter and its tests.',
      toolCalls: [
        call('read_file', { path: 'src/greet.js' }),
        call('list_dir', { path: 'test' }),
        call('read_file', { path: 'test/greet.test.js' }),
        call('list_dir', { path: 'src' }),
      ],
    },
    {
      chunkDelayMs: 10,
      text: [...splitEvery(`${FINDINGS}\n\n`, 60), ...splitEvery(`<proposed_plan>\n${PLAN}\n</proposed_plan>`, 60)],
    },
  ];
}

function buildScript(): ScriptedTurn[] {
  return [
    { delayMs: 300, text: 'Starting with the greeter.', toolCalls: [call('read_file', { path: 'src/greet.js' })] },
    { delayMs: 300, toolCalls: [call('edit_file', GREETER_PLAN_EDITS[0])] },
    { delayMs: 300, toolCalls: [call('task_tracker', { action: 'update', index: 1, status: 'completed' })] },
    { delayMs: 300, toolCalls: [call('edit_file', GREETER_PLAN_EDITS[1])] },
    { delayMs: 300, toolCalls: [call('task_tracker', { action: 'update', index: 2, status: 'completed' })] },
    { chunkDelayMs: 10, text: splitEvery(`${FINDINGS}\n\n${LAST_BUILD_MESSAGE}`, 40) },
  ];
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `plan.approval.*` events in the workspace's session logs (EVT-1): what approving would leave behind. */
function approvalEvents(workspace: string): string[] {
  const dir = join(workspace, '.vtcode', 'sessions');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((line) => line.includes('"plan.approval.resolved"'));
}

/**
 * Lets the webview finish what a change set off (renders, effects, a focus move) before asserting
 * that something did not happen: two animation frames and a task in the chat document.
 */
async function settled(doc: Frame): Promise<void> {
  await doc.evaluate(
    () =>
      new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
  );
}

/** Keyboard focus is in the editor and not in the chat webview. */
async function assertFocusInEditor(page: Page, doc: Frame, what: string): Promise<void> {
  assert.equal(
    await page.locator('.editor-instance .monaco-editor.focused').count(),
    1,
    `${what}: the editor has keyboard focus`,
  );
  assert.equal(await doc.evaluate(() => document.hasFocus()), false, `${what}: the chat webview has no focus`);
}

/** Keyboard focus into the active editor (a click could land on the CodeLens above line 1). */
async function focusEditor(page: Page): Promise<void> {
  await runCommand(page, 'View: Focus Active Editor Group');
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 5_000 });
}

/** Focuses the plan's editor and types `text` at the end of its summary (line 4). */
async function typeAtSummaryEnd(page: Page, text: string): Promise<void> {
  await focusEditor(page);
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

/** The plan still waits for approval: one pending gate whose choices are enabled, and the status says so. */
async function assertStillPending(
  frame: FrameLocator,
  workspace: string,
  server: ModelServer,
  requestsBefore: number,
  what: string,
): Promise<void> {
  assert.deepEqual(approvalEvents(workspace), [], `${what}: no approval event`);
  assert.equal(server.requests.length, requestsBefore, `${what}: no build request reached the model`);
  assert.equal(await frame.locator('section.gate').count(), 1, `${what}: the gate still stands`);
  assert.equal(
    await frame.locator('.gate-choice-execute').isEnabled(),
    true,
    `${what}: its choices are still answerable`,
  );
  await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor({ timeout: 5_000 });
}

test(
  'issue 13: a save never moves focus to the gate; the chat follows the work; only the transcript scrolls (GATE-1, GATE-2, UI-1, UI-2)',
  { timeout: 420_000 },
  async (t) => {
    const server = await startModelServer(planningScript());
    const run = {
      settings: {
        ...scriptedModelSettings(server),
        // Explicit saves first: auto-save (on by default in the browser workbench) is turned on later.
        'files.autoSave': 'off',
      },
      failureShot: `${DIR}/failure`,
      alsoClose: server,
    };
    await withWorkbench(run, async ({ page, workspace }) => {
      const frame = chatFrame(page);
      const gate = frame.locator('section.gate');
      let doc: Frame | undefined;
      const chat = (): Frame => {
        if (!doc) throw new Error('the chat document is not open yet');
        return doc;
      };
      const step = sequentialSteps(t, page, DIR);

      await step('01 GATE-1: with the user in the chat, the new gate takes focus', async () => {
        await openChatClean(page);
        doc = await chatDocument(page);
        await page.keyboard.type('Add a --shout flag to the greeter');
        await page.keyboard.press('Enter');
        await gate.waitFor({ timeout: 60_000 });
        await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor({ timeout: 15_000 });
        await settled(chat());
        assert.equal(
          await gate.locator('.gate-choice-execute').evaluate((el) => el === document.activeElement),
          true,
          'the first choice has focus',
        );
        assert.ok(
          await frame.locator('main.body').evaluate((el) => el.scrollHeight > el.clientHeight + 100),
          'the transcript is taller than the chat: there is something to scroll',
        );
        assert.ok((await outOfView(gate.locator('.card-title'))) === 0, 'the gate is in view');
        await journeyShot(page, DIR, '01-gate');
      });

      await step(
        '02 GATE-2: after Ctrl+S the gate shows the edit, the editor keeps focus, and Space, Enter, 1 stay text',
        async () => {
          await runCommand(page, 'VT Code: Edit Plan');
          await page
            .locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Implementation Steps' })
            .waitFor({ timeout: 15_000 });
          await typeAtSummaryEnd(page, ' Saved with Ctrl+S.');
          await page.keyboard.press('Control+S');
          await waitFor('the edit on disk', () =>
            readFileSync(join(workspace, PLAN_FILE), 'utf8').includes('Saved with Ctrl+S.'),
          );
          await gate.locator('.synopsis-summary', { hasText: 'Saved with Ctrl+S.' }).waitFor({ timeout: 15_000 });
          await settled(chat());
          await assertFocusInEditor(page, chat(), 'after the save');
          assert.equal(await outOfView(gate.locator('.card-title')), 0, 'the updated gate is in view');

          const requests = server.requests.length;
          await page.keyboard.press('Control+End');
          for (const key of ['Space', 'Enter', '1']) await page.keyboard.press(key);
          await settled(chat());
          await assertStillPending(frame, workspace, server, requests, 'Space, Enter, 1 in the editor');
          await assertFocusInEditor(page, chat(), 'after typing');
          await journeyShot(page, DIR, '02-typed-after-save');
          // The keys went into the file: saved, they are its last characters (the save re-validates
          // again, and again nothing moves).
          await page.keyboard.press('Control+S');
          await waitFor(
            'the typed keys on disk',
            () => /\n \n ?1$/.test(readFileSync(join(workspace, PLAN_FILE), 'utf8')),
            10_000,
          );
          await settled(chat());
          await assertFocusInEditor(page, chat(), 'after the second save');
          await assertStillPending(frame, workspace, server, requests, 'after the second save');
        },
      );

      await step(
        '03 GATE-2: with auto-save on, the gate updated while the chat was scrolled up comes into view; focus stays in the editor',
        async () => {
          updateWorkspaceSettings(workspace, { 'files.autoSave': 'afterDelay', 'files.autoSaveDelay': 1000 });
          // The user reads the start of the conversation: a wheel over the chat moves no focus.
          await frame.locator('main.body').hover();
          await waitFor(
            'the chat scrolled to the top',
            async () => {
              await page.mouse.wheel(0, -2_000);
              return (await frame.locator('main.body').evaluate((el) => el.scrollTop)) === 0;
            },
            10_000,
          );
          await frame.locator('.jump-latest').waitFor({ timeout: 5_000 });
          assert.ok((await outOfView(gate.locator('.card-title'))) > 0, 'the gate is out of view');
          await journeyShot(page, DIR, '03-scrolled-up');
          await frame
            .locator('.transcript-frame')
            .screenshot({ path: join(repoRoot, 'test-results', DIR, '03-jump-to-latest.png'), scale: 'device' });
          await typeAtSummaryEnd(page, ' Auto-saved.');
          await waitFor(
            'the auto-saved edit on disk',
            () => readFileSync(join(workspace, PLAN_FILE), 'utf8').includes('Auto-saved.'),
            15_000,
          );
          await gate.locator('.synopsis-summary', { hasText: 'Auto-saved.' }).waitFor({ timeout: 15_000 });
          await settled(chat());
          await assertFocusInEditor(page, chat(), 'after the auto-save');
          assert.equal(await outOfView(gate.locator('.card-title')), 0, 'the updated gate was scrolled into view');
          assert.equal(await frame.locator('.jump-latest').count(), 0, 'following again: no "Jump to latest"');
          await journeyShot(page, DIR, '03-auto-saved');

          const requests = server.requests.length;
          const before = readFileSync(join(workspace, PLAN_FILE), 'utf8');
          await page.keyboard.press('Control+End');
          for (const key of ['Space', 'Enter', '1']) await page.keyboard.press(key);
          // Auto-save writes them a second later and the plan is re-validated once more.
          // At the end of the file: a space, a new line (auto-indented like the one before) and 1.
          await waitFor(
            'the typed keys auto-saved',
            () => {
              const now = readFileSync(join(workspace, PLAN_FILE), 'utf8');
              return now.startsWith(before) && /^ \n ?1$/.test(now.slice(before.length));
            },
            15_000,
          );
          await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor({ timeout: 15_000 });
          await settled(chat());
          await assertStillPending(frame, workspace, server, requests, 'Space, Enter, 1 with auto-save');
          await assertFocusInEditor(page, chat(), 'after typing with auto-save');
          await journeyShot(page, DIR, '03-typed-auto-saved');
        },
      );

      await step(
        '04 UI-1: after approval the chat follows the build turn; its last message is in view without scrolling',
        async () => {
          updateWorkspaceSettings(workspace, { 'files.autoSave': 'off' });
          // A gate taller than the chat area is shown from its heading, above the end, and the view must
          // still count as following: shrink the window until the gate does not fit.
          const area = frame.locator('main.body');
          const viewport = page.viewportSize() ?? { width: 1400, height: 860 };
          const gateHeight = await gate.evaluate((el) => el.getBoundingClientRect().height);
          for (let height = viewport.height; (await area.evaluate((el) => el.clientHeight)) > gateHeight - 60;) {
            height -= 80;
            assert.ok(
              height >= 400,
              `the chat area stays ${await area.evaluate((el) => el.clientHeight)} px tall for a ${gateHeight} px gate`,
            );
            await page.setViewportSize({ width: viewport.width, height });
            await settled(chat());
          }
          // Read above, then save once more: the updated gate is brought back, from its heading.
          await area.hover();
          await waitFor(
            'the chat scrolled to the top',
            async () => {
              await page.mouse.wheel(0, -2_000);
              return (await area.evaluate((el) => el.scrollTop)) === 0;
            },
            10_000,
          );
          await frame.locator('.jump-latest').waitFor({ timeout: 5_000 });
          await typeAtSummaryEnd(page, ' Tall.');
          await page.keyboard.press('Control+S');
          await gate.locator('.synopsis-summary', { hasText: 'Tall.' }).waitFor({ timeout: 15_000 });
          await settled(chat());
          assert.equal(await outOfView(gate.locator('.card-title')), 0, 'the tall gate is shown from its heading');
          assert.ok(
            await area.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight > 48),
            'resting above the end',
          );
          assert.equal(await frame.locator('.jump-latest').count(), 0, 'and following');
          await journeyShot(page, DIR, '04-tall-gate');

          server.enqueue(...buildScript());
          const before = server.requests.length;
          // The palette's Approve (the same handoff as the gate, GATE-6): no click scrolls the chat.
          await runCommand(page, 'VT Code: Approve Plan');
          await waitFor('the implementation request', () => server.requests.length > before, 20_000);
          await frame.locator('.msg-assistant', { hasText: LAST_BUILD_MESSAGE }).waitFor({ timeout: 60_000 });
          await frame.locator('.status-line', { hasText: 'Ready' }).waitFor({ timeout: 20_000 });
          await settled(chat());
          assert.equal(
            await frame.locator('.tool', { hasText: 'edit_file' }).count(),
            2,
            "the build turn's tool cards are there",
          );
          const last = frame.locator('.msg-assistant').last();
          assert.match(await last.innerText(), new RegExp(LAST_BUILD_MESSAGE.replace(/[.;]/g, '\\$&')));
          assert.equal(await outOfView(last.locator('p').last()), 0, 'the closing message is in view');
          assert.equal(await frame.locator('.jump-latest').count(), 0);
          assert.equal(server.pending(), 0, 'every scripted turn was used');
          await journeyShot(page, DIR, '04-build-followed');
          await page.setViewportSize(viewport);
        },
      );

      await step(
        '05 UI-1: only the transcript scrolls: Space and PageDown on the panel background leave the chat document at 0',
        async () => {
          const pageScroll = () =>
            chat().evaluate(() => {
              const root = document.scrollingElement;
              return root
                ? { top: root.scrollTop, overflow: root.scrollHeight - root.clientHeight }
                : { top: -1, overflow: -1 };
            });
          // The header's empty space, then the transcript's own background.
          const header = frame.locator('.header');
          const box = await header.boundingBox();
          assert.ok(box);
          await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
          for (const key of ['Space', 'PageDown', 'End', 'Space']) await page.keyboard.press(key);
          await settled(chat());
          // Nothing in the chat makes its document taller than the view, so nothing can scroll it.
          assert.deepEqual(await pageScroll(), { top: 0, overflow: 0 }, 'after keys on the header background');
          const body = frame.locator('main.body');
          const area = await body.boundingBox();
          assert.ok(area);
          await page.mouse.click(area.x + area.width - 6, area.y + 4);
          for (const key of ['PageUp', 'Space', 'PageDown', 'PageUp']) await page.keyboard.press(key);
          await settled(chat());
          assert.deepEqual(await pageScroll(), { top: 0, overflow: 0 }, 'after keys on the transcript background');
          assert.equal(await header.evaluate((el) => el.getBoundingClientRect().top), 0, 'the header stays at the top');
          const composerBottom = await frame
            .locator('.composer')
            .evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight);
          assert.equal(composerBottom, true, 'the composer stays in view');
          await journeyShot(page, DIR, '05-keys-on-background');

          // The transcript itself scrolled up: "Jump to latest", from the keyboard, brings the end back
          // and leaves focus in the transcript.
          const jump = frame.locator('.jump-latest');
          await jump.waitFor({ timeout: 5_000 });
          await jump.focus();
          await page.keyboard.press('Enter');
          await jump.waitFor({ state: 'detached', timeout: 5_000 });
          await settled(chat());
          assert.equal(
            await outOfView(frame.locator('.msg-assistant').last().locator('p').last()),
            0,
            'back at the latest message',
          );
          assert.equal(
            await body.evaluate((el) => el === document.activeElement),
            true,
            'focus stays in the transcript',
          );
          await journeyShot(page, DIR, '05-jumped-to-latest');
        },
      );
    });
  },
);
