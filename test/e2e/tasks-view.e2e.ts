import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { runCommand, screenshot, withWorkbench } from '../harness/workbench';
import { repoRoot } from '../harness/vscode-server';

const PLAN = `# Add a shout flag to the greeter

## Summary
Let \`greet\` in src/greet.js upper-case its greeting when asked.

## Implementation Steps
1. Read the greeter and its tests -> files: [src/greet.js, test/greet.test.js] -> outcome: the call sites of \`greet\` are known
2. Add a \`shout\` parameter to \`greet\` -> files: [src/greet.js] -> verify: [node --test test/]
3. Wire a \`--shout\` flag into the CLI -> files: [src/cli.js] -> verify: [node src/cli.js --shout Ada]
4. Document the flag in the README -> files: [README.md] -> verify: [rg -n 'shout' README.md]

## Test Cases and Validation
- \`node --test test/\` passes.

## Assumptions and Defaults
- Lower-case stays the default.
`;

// Every status, a child level, and the metadata lines the tooltip shows (file-formats.md).
const SIDECAR = `# Add a shout flag to the greeter

## Plan of Work

- [x] Read the greeter and its tests
  files: src/greet.js, test/greet.test.js
  outcome: the call sites of \`greet\` are known
- [~] Add a \`shout\` parameter to \`greet\`
  files: src/greet.js
  verify: node --test test/
  - [x] Upper-case the greeting when \`shout\` is **true**
  - [~] Keep lower-case as the default
    verify: node --test test/
- [!] Wire a \`--shout\` flag into the CLI (there is no CLI entry point yet)
  files: src/cli.js
- [ ] Document the flag in the README
  files: README.md
  outcome: the README shows \`--shout\` with an example
  verify:
    - rg -n 'shout' README.md
    - node --test test/
`;

function row(tasks: Locator, label: string): Locator {
  return tasks.locator('.monaco-list-row', { hasText: label }).first();
}

async function labelColor(rowLocator: Locator): Promise<string> {
  return rowLocator
    .locator('.label-name')
    .first()
    .evaluate((el) => getComputedStyle(el).color);
}

/** A theme colour as the workbench resolves it, e.g. `textLink.foreground` → `rgb(…)`. */
async function themeColor(page: Page, id: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(--vscode-${name.replace(/\./g, '-')})`;
    document.querySelector('.monaco-workbench')?.appendChild(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, id);
}

/**
 * Waits until a row's label has the theme colour `id`. Both are read at the same moment: the
 * workbench starts in the built-in light theme and switches to the configured one a moment later.
 */
async function untilColor(page: Page, rowLocator: Locator, id: string, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    const [seen, expected] = [await labelColor(rowLocator), await themeColor(page, id)];
    if (seen === expected) return;
    if (Date.now() > end) assert.fail(`${what}: the label colour is ${seen}, ${id} is ${expected}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('UI-3, TRK-5, TRK-6: the Tasks view shows the sidecar checklist with status styling and a metadata tooltip', async () => {
  await withWorkbench({ failureShot: 'e2e-tasks-view-failure' }, async ({ page, workspace }) => {
    const plans = join(workspace, '.vtcode', 'plans');
    mkdirSync(plans, { recursive: true });
    writeFileSync(join(plans, 'add-a-shout-flag-to-the-greeter.md'), PLAN);
    writeFileSync(join(plans, 'add-a-shout-flag-to-the-greeter.tasks.md'), SIDECAR);

    // The workbench opens in the built-in light theme and applies the configured one (the harness
    // default is Default Dark Modern) a moment later: the screenshot waits for it.
    if (/dark/i.test(process.env.VTPLAN_THEME ?? 'Default Dark Modern'))
      await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 30_000 });
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.activitybar .action-item [aria-label^="VT Code"]').first().click();
    const tasksPane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Tasks' }) });
    const chatHeader = page.locator('.pane-header', { hasText: 'Chat' }).first();
    await chatHeader.waitFor({ timeout: 30_000 });
    // The chat takes three quarters of the container by default: collapse it so every row shows.
    if ((await chatHeader.getAttribute('aria-expanded')) === 'true') await chatHeader.click();

    // Room for whole labels: drag the side bar's sash to the right.
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    assert.ok(sidebar, 'the side bar is visible');
    const edge = sidebar.x + sidebar.width;
    const sashes = await page
      .locator('.monaco-sash.vertical')
      .evaluateAll((els) =>
        els
          .map((el) => el.getBoundingClientRect())
          .map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height })),
      );
    const sash = sashes.filter((r) => r.h > 100).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
    assert.ok(sash && Math.abs(sash.x - edge) < 8, 'the side bar has a sash on its edge');
    await page.mouse.move(sash.x, sash.y);
    await page.mouse.down();
    await page.mouse.move(sash.x + 240, sash.y, { steps: 12 });
    await page.mouse.up();

    const tasks = tasksPane.locator('.pane-body');
    const labels = [
      'Read the greeter and its tests',
      'Add a shout parameter to greet',
      'Upper-case the greeting when shout is true',
      'Keep lower-case as the default',
      'Wire a --shout flag into the CLI (there is no CLI entry point yet)',
      'Document the flag in the README',
    ];
    for (const label of labels) await row(tasks, label).waitFor({ timeout: 30_000 });
    const header = tasksPane.locator('.pane-header');
    await header.locator('.description', { hasText: '2/6' }).waitFor({ timeout: 10_000 });
    assert.match(
      (await tasks.textContent()) ?? '',
      /Add a shout flag to the greeter/,
      'the checklist title shows as the view message',
    );

    // TRK-6 in the rendered DOM, against the theme's own colours: done rows dimmed, the current
    // task in the link/accent colour, blocked rows in the warning colour, the rest in the default.
    await untilColor(page, row(tasks, labels[0] as string), 'disabledForeground', 'a done task is dimmed');
    await untilColor(page, row(tasks, labels[2] as string), 'disabledForeground', 'a done child task is dimmed');
    await untilColor(
      page,
      row(tasks, labels[3] as string),
      'textLink.foreground',
      'the current task is in the accent colour',
    );
    await untilColor(
      page,
      row(tasks, labels[4] as string),
      'list.warningForeground',
      'a blocked task is in the warning colour',
    );
    const statusColours = await Promise.all(
      ['disabledForeground', 'textLink.foreground', 'list.warningForeground'].map((id) => themeColor(page, id)),
    );
    assert.equal(new Set(statusColours).size, 3, 'the theme tells the three status colours apart');
    for (const plain of [labels[1], labels[5]] as string[]) {
      assert.ok(
        !statusColours.includes(await labelColor(row(tasks, plain))),
        `${plain}: in-progress parents and pending tasks keep the default colour`,
      );
    }
    assert.ok(
      await row(tasks, labels[3] as string)
        .locator('.codicon-arrow-right')
        .count(),
      'the current task carries an arrow icon',
    );
    assert.ok(
      await row(tasks, labels[0] as string)
        .locator('.codicon-check')
        .count(),
      'done rows carry a check icon',
    );
    assert.ok(
      await row(tasks, labels[4] as string)
        .locator('.codicon-warning')
        .count(),
      'blocked rows carry a warning icon',
    );

    await row(tasks, labels[5] as string)
      .locator('.label-name')
      .hover();
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Outcome' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const tip = (await hover.textContent()) ?? '';
    assert.match(tip, /Document the flag in the README/);
    assert.match(tip, /Status: Pending/);
    assert.match(tip, /README\.md/);
    assert.match(tip, /rg -n 'shout' README\.md/);
    await page.waitForTimeout(300);
    await screenshot(page, 'e2e-tasks-view');
    // The side bar with the tooltip, for the README.
    const bar = await page.locator('.part.sidebar').boundingBox();
    const tipBox = await hover.boundingBox();
    assert.ok(bar && tipBox);
    const bottom = Math.max(tipBox.y + tipBox.height, bar.y + 200) + 16;
    await page.screenshot({
      path: join(repoRoot, 'test-results', 'e2e-tasks-view-sidebar.png'),
      clip: { x: 0, y: bar.y, width: Math.max(bar.x + bar.width, tipBox.x + tipBox.width) + 8, height: bottom - bar.y },
    });

    // A checkbox ticked on disk (by hand or by the build agent) reaches the open view.
    await page.mouse.move(bar.x + bar.width + 300, bar.y + 400);
    writeFileSync(
      join(plans, 'add-a-shout-flag-to-the-greeter.tasks.md'),
      SIDECAR.replace('  - [~] Keep lower-case', '  - [x] Keep lower-case'),
    );
    await header.locator('.description', { hasText: '3/6' }).waitFor({ timeout: 15_000 });
    await untilColor(page, row(tasks, labels[3] as string), 'disabledForeground', 'the ticked task is dimmed now');
    // The blocked task is the current one now (TRK-5) and keeps the warning colour.
    await untilColor(
      page,
      row(tasks, labels[4] as string),
      'list.warningForeground',
      'a blocked current task stays in the warning colour',
    );
  });
});
