/**
 * XSS proof in real Chromium (issue #8 item 8): the scripted model streams known payloads as
 * assistant text, tool arguments, interview questions and a plan, through the real extension into
 * the real chat webview. Every payload tries to run (set `__pwned`, change the title, post a
 * message, paint the page); nothing may run, nothing active may be rendered, the payload text
 * must still be there as text, and the page's Content Security Policy reports no violation.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ConsoleMessage, Frame } from 'playwright-core';
import { startModelServer, splitEvery, type ScriptedTurn } from '../fixtures/model-server';
import {
  chatDocument,
  chatFrame,
  runCommand,
  screenshot,
  withWorkbench,
  scriptedModelSettings,
} from '../harness/workbench';

const RUN = (tag: string) =>
  `window.__pwned='${tag}';document.title='pwned-${tag}';parent.postMessage({type:'pwned',tag:'${tag}'},'*')`;

/** Model text: raw HTML and markdown tricks, each with a tag that says which one ran. */
const PAYLOADS: readonly string[] = [
  `<script>${RUN('script')}</script>`,
  `<img src=x onerror="${RUN('img')}">`,
  `<div id="hover" onmouseover="${RUN('div')}" onclick="${RUN('div')}">hover me</div>`,
  `<a href="javascript:${RUN('html-link')}">html link</a>`,
  `<svg onload="${RUN('svg')}"><circle r="5"/></svg>`,
  `<iframe src="javascript:${RUN('iframe')}"></iframe>`,
  `<iframe srcdoc="<script>parent.__pwned='srcdoc'</script>"></iframe>`,
  `<details open ontoggle="${RUN('details')}">toggle</details>`,
  `<style>body{background:rgb(255,0,0)!important}</style>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN('mxss')}">`,
  `<object data="javascript:${RUN('object')}"></object><embed src="javascript:${RUN('embed')}">`,
  `<form action="javascript:${RUN('form')}"><button>submit</button></form>`,
  `[md link](javascript:${RUN('md-link')})`,
  `[md link mixed case](JaVaScRiPt:${RUN('md-case')})`,
  `[entity link](&#106;avascript:${RUN('md-entity')})`,
  `![md image](javascript:${RUN('md-image')})`,
  `![tracking pixel](https://tracker.invalid/pixel.png)`,
  `![x" onerror="${RUN('img-alt')}](https://e.invalid/a.png)`,
  `[data link](data:text/html,<script>${RUN('data')}</script>)`,
  `[vscode link](vscode:extension/evil.ext) [command link](command:workbench.action.terminal.new)`,
  `[ref link][evil]\n\n[evil]: javascript:${RUN('ref')}`,
  `<javascript:${RUN('autolink')}>`,
  '| a | b |\n|:--|--:|\n| <b onclick="x">1</b> | [x](javascript:void(0)) |',
  '```html\n<script>window.__pwned="fence"</script>\n```',
  '`<img src=x onerror=alert(1)>`',
  '[the safe link](https://example.com/ok)',
];

const FORBIDDEN =
  'script, img, svg, iframe, frame, object, embed, style, link, meta, base, math, form, input, button[formaction]';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

const PLAN = `# Harden <img src=x onerror="${RUN('plan-title')}"> the greeter

## Summary
Make <script>${RUN('plan-summary')}</script> \`greet\` in src/greet.js safe.

## Implementation Steps
1. Guard <svg onload="${RUN('plan-step')}"> input in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/]

## Test Cases and Validation
- \`node --test test/\` passes.

## Assumptions and Defaults
- <iframe src="javascript:${RUN('plan-assumption')}"></iframe> nothing else changes.`;

/** The validator refuses markdown links in plans: this draft is rejected and shown with its reasons (SYN-4). */
const REJECTED_PLAN = PLAN.replace(
  'safe.',
  `safe. [x](javascript:${RUN('plan-link')}) ![y](javascript:${RUN('plan-image')})`,
);

const OPTION = `<img src=x onerror="window.__pwned='option'"> first`;

function script(): ScriptedTurn[] {
  const text = PAYLOADS.join('\n\n');
  return [
    {
      chunkDelayMs: 5,
      // Small deltas: tags and attributes arrive split across appends, as real streams cut them.
      text: splitEvery(text, 23),
      toolCalls: [call('read_file', { path: `<img src=x onerror="${RUN('tool-target')}">.js` })],
    },
    {
      toolCalls: [
        call('request_user_input', {
          questions: [
            {
              id: 'payload',
              header: '<b onclick=x>hdr</b>',
              question: `<script>${RUN('question')}</script> Which one?`,
              options: [
                { label: OPTION, description: `<svg onload="${RUN('option-desc')}">`, recommended: true },
                { label: '[second](javascript:alert(1))' },
              ],
            },
          ],
        }),
      ],
    },
    {
      chunkDelayMs: 5,
      text: ['Plan follows. ', ...splitEvery(`<proposed_plan>\n${REJECTED_PLAN}\n</proposed_plan>`, 31)],
    },
    // The repair request gets a valid plan, still full of payloads.
    { chunkDelayMs: 5, text: splitEvery(`<proposed_plan>\n${PLAN}\n</proposed_plan>`, 31) },
  ];
}

interface Evidence {
  pwned: unknown;
  title: string;
  background: string;
  messages: unknown[];
  csp: { directive: string; blocked: string; sample: string }[];
}

/** Installs the observers in a frame: CSP violation reports and stray `pwned` messages. */
async function observe(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const w = window as unknown as { __csp: unknown[]; __messages: unknown[]; __canaryMessages: number };
    w.__csp = [];
    w.__messages = [];
    w.__canaryMessages = 0;
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }),
    );
    window.addEventListener('message', (e) => {
      const data = e.data as { type?: unknown } | null;
      if (data && typeof data === 'object' && data.type === 'pwned') w.__messages.push(data);
      if (data && typeof data === 'object' && data.type === 'canary') w.__canaryMessages += 1;
    });
  });
}

/**
 * Positive control instead of a fixed wait. Added after every payload rendered, a broken image,
 * an open <details> and a message to the host frame must fire their error, toggle and message
 * events; each is queued like a rendered payload's onerror/ontoggle/postMessage would have been,
 * ahead of the canary's, so once the canary fired every payload had its chance. In the webview
 * `parent` is the document's own window (VS Code sets `window.parent = window`), so a posted
 * message lands in the document's observer. The canary is added by the test (past the CSP),
 * outside the transcript, and removed again.
 */
async function canaryFired(doc: Frame): Promise<void> {
  await doc.evaluate(() => {
    const w = window as unknown as { __canary: { error: boolean; toggle: boolean } };
    w.__canary = { error: false, toggle: false };
    const box = document.createElement('div');
    box.id = 'canary';
    const img = document.createElement('img');
    img.addEventListener('error', () => (w.__canary.error = true));
    img.src = 'data:image/png;base64,AAAA';
    const details = document.createElement('details');
    details.addEventListener('toggle', () => (w.__canary.toggle = true));
    details.open = true;
    box.append(img, details);
    document.body.append(box);
    parent.postMessage({ type: 'canary' }, '*');
  });
  await doc.waitForFunction(
    () => {
      const c = (window as unknown as { __canary: { error: boolean; toggle: boolean } }).__canary;
      return c.error && c.toggle;
    },
    undefined,
    { timeout: 30_000 },
  );
  await doc.waitForFunction(() => (window as unknown as { __canaryMessages: number }).__canaryMessages > 0, undefined, {
    timeout: 30_000,
  });
  await doc.evaluate(() => document.getElementById('canary')?.remove());
}

async function evidence(frame: Frame): Promise<Evidence> {
  return frame.evaluate(() => {
    const w = window as unknown as { __pwned?: unknown; __csp: Evidence['csp']; __messages: unknown[] };
    return {
      pwned: w.__pwned,
      title: document.title,
      background: getComputedStyle(document.body).backgroundColor,
      messages: w.__messages,
      csp: w.__csp,
    };
  });
}

test(
  'issue #8 item 8: payloads streamed by the model stay inert in the real webview (UI-1, UI-2, INT-1, GATE-1)',
  { timeout: 300_000 },
  async () => {
    const server = await startModelServer(script());
    const consoleCsp: string[] = [];
    const run = {
      settings: scriptedModelSettings(server),
      failureShot: 'xss/failure',
      alsoClose: server,
    };
    await withWorkbench(run, async ({ page }) => {
      page.on('console', (m: ConsoleMessage) => {
        if (/Content[- ]Security[- ]Policy/i.test(m.text())) consoleCsp.push(m.text());
      });
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'VT Code: Start Planning');
      const frame = chatFrame(page);
      await frame.locator('textarea.composer-input').waitFor({ timeout: 60_000 });
      const doc = await chatDocument(page);
      const host = doc.parentFrame();
      assert.ok(host, 'the webview document sits in the webview host frame');
      await observe(doc);
      await observe(host);
      const titleBefore = await doc.evaluate(() => document.title);
      const backgroundBefore = await doc.evaluate(() => getComputedStyle(document.body).backgroundColor);

      // Typing goes to the focused element: wait until Start Planning has focused the composer.
      await doc.waitForFunction(() => document.activeElement?.matches('textarea.composer-input') === true, undefined, {
        timeout: 30_000,
      });
      await page.keyboard.type('Harden the greeter');
      await page.keyboard.press('Enter');

      // The interview: payloads in the question, header, labels and descriptions render as text.
      const wizard = frame.locator('.wizard');
      await wizard.waitFor({ timeout: 30_000 });
      assert.match(await wizard.locator('.wizard-question').innerText(), /<script>window\.__pwned='question'/);
      assert.equal(await wizard.locator('.wizard-option.is-selected .option-label').innerText(), OPTION);
      await page.keyboard.press('Enter');

      await frame.locator('.gate').waitFor({ timeout: 30_000 });
      await frame.locator('.msg-assistant', { hasText: 'Plan follows.' }).waitFor();
      const rejected = frame.locator('.plan-card.plan-rejected');
      await rejected.locator('.plan-draft summary').click();
      assert.match(
        await rejected.locator('.plan-markdown').innerText(),
        /\[x\]\(javascript:window\.__pwned='plan-link'/,
      );
      await frame.locator('.status-line', { hasText: 'Waiting for approval' }).waitFor();
      // Give anything that could fire (onload, onerror, ontoggle, postMessage) its turn: a canary
      // added after every payload rendered must fire the same kinds of events first.
      await page.locator('body').hover();
      await frame.locator('.transcript').hover();
      await canaryFired(doc);
      await screenshot(page, 'xss/gate');

      // Nothing ran: in the webview document nor in the host frame around it.
      for (const [name, f] of [
        ['webview document', doc],
        ['webview host frame', host],
      ] as const) {
        const seen = await evidence(f);
        assert.equal(seen.pwned, undefined, `${name}: a payload ran (${String(seen.pwned)})`);
        assert.deepEqual(seen.messages, [], `${name}: a payload posted a message`);
        assert.doesNotMatch(seen.title, /pwned/, `${name}: a payload changed the title`);
      }
      const after = await evidence(doc);
      assert.equal(after.title, titleBefore);
      assert.equal(after.background, backgroundBefore, 'no injected style applies');
      assert.doesNotMatch(await page.title(), /pwned/);

      // Nothing active was rendered anywhere in the transcript (messages, cards, interview, gate).
      const audit = await doc.evaluate((forbidden) => {
        const panel = document.querySelector('.transcript');
        if (!panel) return { missing: true, forbidden: [], handlers: [], links: [] };
        const handlers: string[] = [];
        for (const el of panel.querySelectorAll('*')) {
          for (const attr of el.getAttributeNames())
            if (/^on/i.test(attr) || attr === 'srcdoc' || attr === 'style')
              handlers.push(`${el.tagName.toLowerCase()}[${attr}]`);
        }
        return {
          missing: false,
          forbidden: [...panel.querySelectorAll(forbidden)].map((e) => e.outerHTML.slice(0, 120)),
          handlers,
          links: [...panel.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
        };
      }, FORBIDDEN);
      assert.equal(audit.missing, false, 'the transcript rendered');
      assert.deepEqual(audit.forbidden, [], 'no active elements');
      assert.deepEqual(audit.handlers, [], 'no event-handler, srcdoc or style attributes');
      for (const href of audit.links) assert.match(href, /^(https?:|mailto:)/i, `only http(s)/mailto links: ${href}`);
      assert.ok(
        audit.links.includes('https://example.com/ok'),
        `the safe markdown link is a link: ${audit.links.join(', ')}`,
      );

      // The payloads arrived and show as text (the test would mean nothing otherwise).
      const shown = await frame.locator('.transcript').innerText();
      for (const text of [
        `<script>${RUN('script')}</script>`,
        `<img src=x onerror="${RUN('img')}">`,
        `<svg onload="${RUN('svg')}">`,
        '<iframe srcdoc=',
        '[md link](javascript:',
        'onerror=alert(1)',
      ]) {
        assert.ok(shown.includes(text), `payload shown as text: ${text}`);
      }
      assert.ok(
        shown.includes(`<img src=x onerror="${RUN('tool-target')}">.js`),
        'the tool card target shows the payload path as text',
      );
      assert.match(await frame.locator('.gate .gate-plan-title').innerText(), /^Harden <img src=x onerror=/);
      assert.match(
        await frame.locator('.gate .synopsis-summary').innerText(),
        /<script>window\.__pwned='plan-summary'/,
      );
      await frame.locator('.interview-summary', { hasText: OPTION }).waitFor();

      // INT-1: the label, markup and all, went back to the model unchanged.
      const third =
        (server.requests[2]?.body as { messages?: { role: string; content?: unknown }[] } | undefined)?.messages ?? [];
      assert.ok(
        third.some((m) => m.role === 'tool' && String(m.content).includes(`selected "${OPTION}"`)),
        'the exact label reached the next request',
      );

      // The webview's CSP saw nothing to block: model output never turned into markup that loads or runs.
      assert.deepEqual((await evidence(doc)).csp, [], 'no CSP violation in the webview document');
      assert.deepEqual(consoleCsp, [], 'no Content Security Policy errors on the console');

      // Control: the observers do see a violation. An inline script injected past the renderer is
      // refused by the CSP (no nonce), reported, logged, and does not run.
      await doc.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = "window.__pwned = 'control'";
        document.body.append(s);
      });
      // The violation report is the event to wait for; an inline script that runs runs at insertion.
      await doc.waitForFunction(
        () =>
          (window as unknown as { __csp: { directive: string }[] }).__csp.some((v) =>
            v.directive.startsWith('script-src'),
          ),
        undefined,
        { timeout: 30_000 },
      );
      const control = await evidence(doc);
      assert.equal(control.pwned, undefined, 'the CSP refused the injected inline script');
      assert.ok(
        control.csp.some((v) => v.directive.startsWith('script-src')),
        `the violation was reported: ${JSON.stringify(control.csp)}`,
      );
      assert.ok(consoleCsp.length > 0, 'the console listener sees CSP errors');
    });
  },
);
