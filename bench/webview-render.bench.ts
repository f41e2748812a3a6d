/**
 * Chat webview rendering in headless Debian Chromium (issue #8): the built webview bundle
 * (dist/webview.js + .css, as `npm run bench` builds it for production) on a static page that
 * stubs acquireVsCodeApi, fed through window.postMessage with what the extension host sends:
 * entries and notifications made in Node by the host's TranscriptBuilder and markdown renderer.
 *   1. A `state` message with a 2,000-message transcript (host-rendered HTML): time from posting
 *      it until the rows are in the DOM and one frame has been produced, median of 5.
 *   2. Streaming on top of that transcript: 2,000 tokens/s of `message.delta` events go through
 *      the host's TranscriptBuilder in Node first (its cost per delta is the host figure), and the
 *      notifications it returns (one `append` per token, with the settled chunks and the tail)
 *      are posted into the page at that rate for ~3 s.
 *      Chromium runs with vsync and the frame-rate limit off, so a frame starts as soon as the
 *      previous one is done: a requestAnimationFrame delta is the time one frame really took
 *      (message handling, render, style, layout, paint), not a multiple of the 16.7 ms vsync
 *      period. Main-thread work comes from Chromium's own counters (CDP Performance.getMetrics).
 * Run: npx tsx bench/webview-render.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { EventSequencer, type EventInput } from '../src/core/session/events';
import { renderMarkdown } from '../src/extension/markdown';
import { TranscriptBuilder } from '../src/extension/transcript';
import type { HostNotification, TranscriptEntry } from '../src/protocol';
import { launchBrowser } from '../test/harness/browser';

/** The session every streamed transcript of this bench starts with. */
const SESSION_STARTED: EventInput = {
  type: 'session.started',
  agent: 'plan',
  provider: 'openai',
  model: 'bench',
  workspace: '/ws',
  resumed: false,
};

const root = resolve(__dirname, '..');
const MESSAGES = 2_000;
const TOKENS_PER_SECOND = 2_000;
const STREAM_MS = 3_000;
const RUNS = 5;
/** A frame that takes longer than one 60 Hz period would have missed its vsync. */
const FRAME_BUDGET_MS = 1000 / 60;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** The bundle as built; builds it (production) when there is none. Read once: a concurrent rebuild cannot pull it away. */
function loadBundle(): { js: string; css: string; minified: boolean } {
  const js = join(root, 'dist', 'webview.js');
  if (!existsSync(js)) {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('the production build failed');
  }
  const code = readFileSync(js, 'utf8');
  return { js: code, css: readFileSync(join(root, 'dist', 'webview.css'), 'utf8'), minified: !existsSync(`${js}.map`) };
}

/**
 * A transcript as a long planning session looks: goals, answers with markdown, tool cards, notices.
 * Its ids cannot clash with those the host gives the streamed turn.
 */
function transcript(count: number): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (let i = 0; entries.length < count; i++) {
    const goal = `Step ${i}: add input validation to \`handler_${i}\` and cover it with a test.`;
    entries.push({ kind: 'user', id: `earlier-u${i}`, text: goal, html: renderMarkdown(goal) });
    entries.push({
      kind: 'tool',
      id: `earlier-t${i}`,
      name: i % 2 ? 'read_file' : 'grep',
      target: i % 2 ? `src/handlers/h${i}.ts` : `rg -n handler_${i} src`,
      status: 'ok',
      blockedReason: null,
      output: `src/handlers/h${i}.ts:${i + 1}: export function handler_${i}(input: unknown) {`,
      truncated: false,
    });
    const answer = `Found **handler_${i}** in \`src/handlers/h${i}.ts\`. It accepts untyped JSON:\n\n- validate with a zod schema\n- return \`{ error: "invalid_input" }\` on failure\n- see [the docs](https://zod.dev)\n\n\`\`\`ts\nconst Input = z.object({ id: z.string() });\nexport function handler_${i}(input: unknown) {\n  return Input.parse(input);\n}\n\`\`\``;
    entries.push({
      kind: 'assistant',
      id: `earlier-a${i}`,
      streaming: false,
      text: answer,
      html: [renderMarkdown(answer)],
    });
    entries.push({ kind: 'notice', id: `earlier-n${i}`, level: 'info', text: `Checked ${i + 1} handlers so far.` });
  }
  return entries.slice(0, count);
}

const WORDS = [
  'the ',
  'handler ',
  'validates ',
  '`input` ',
  'with ',
  'a ',
  '**zod** ',
  'schema',
  ', ',
  'then ',
  'returns ',
  'typed ',
  'errors',
  '.\n\n',
  '- item ',
  '[link](https://example.com) ',
];

/** Token `i` of the streamed answer: prose, list items, links, and now and then a code fence (open or close). */
function token(i: number): string {
  return i % 400 === 399
    ? '\n```ts\nconst x = 1;\n'
    : i % 400 === 150
      ? '\n```\n'
      : (WORDS[i % WORDS.length] as string);
}

interface HostStream {
  /** What the host sends before the answer starts (the user's entry, the busy status). */
  prelude: HostNotification[];
  /** What the host sends for each token, in order: the entry for the first, then `append`s. */
  perToken: HostNotification[][];
  /** TranscriptBuilder.apply per delta (reducer + markdown render), µs. */
  costUs: number[];
}

/**
 * A plan draft streamed through the real TranscriptBuilder (issue 16 item 4): a 12 KB plan in
 * 16-character plan.delta events; the bytes of what the host posts for each, and its cost.
 */
function hostPlanStream(): { bytes: number[]; costUs: number[]; planBytes: number } {
  const step = (i: number) =>
    `${i}. Validate \`handler_${i}\` input with the shared zod schema -> files: [src/core/handlers/h${i}.ts] -> verify: [node --test test/h${i}.test.ts]`;
  const plan = `# Validate handler input\n\n## Summary\nHandlers accept untyped JSON.\n\n## Implementation Steps\n${Array.from({ length: 80 }, (_, i) => step(i + 1)).join('\n')}\n`;
  const seq = new EventSequencer('bench-plan', { now: () => 1_700_000_000_000 });
  const builder = new TranscriptBuilder();
  builder.apply(seq.stamp(SESSION_STARTED));
  seq.beginTurn();
  builder.apply(seq.stamp({ type: 'turn.started', agent: 'plan', kind: 'user', input: 'plan it' }));
  const bytes: number[] = [];
  const costUs: number[] = [];
  for (let i = 0; i < plan.length; i += 16) {
    const event = seq.stamp({ type: 'plan.delta', text: plan.slice(i, i + 16) });
    const t0 = process.hrtime.bigint();
    const out = builder.apply(event);
    costUs.push(Number(process.hrtime.bigint() - t0) / 1_000);
    bytes.push(out.reduce((sum, m) => sum + Buffer.byteLength(JSON.stringify(m)), 0));
  }
  return { bytes, costUs, planBytes: Buffer.byteLength(plan) };
}

/** The host's side of the stream: every token through the real TranscriptBuilder, timed. */
function hostStream(tokens: number): HostStream {
  const seq = new EventSequencer('bench', { now: () => 1_700_000_000_000 });
  const builder = new TranscriptBuilder();
  const apply = (input: EventInput) => {
    if (input.type === 'turn.started') seq.beginTurn();
    return builder.apply(seq.stamp(input));
  };
  const prelude = [
    ...apply(SESSION_STARTED),
    ...apply({ type: 'turn.started', agent: 'plan', kind: 'user', input: 'Validate every handler input.' }),
  ];
  const perToken: HostNotification[][] = [];
  const costUs: number[] = [];
  for (let i = 0; i < tokens; i++) {
    const event = seq.stamp({ type: 'message.delta', text: token(i) });
    const t0 = process.hrtime.bigint();
    perToken.push(builder.apply(event));
    costUs.push(Number(process.hrtime.bigint() - t0) / 1_000);
  }
  return { prelude, perToken, costUs };
}

function page(nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'self'; connect-src 'self'">
<link rel="stylesheet" href="/webview.css"><title>VT Code bench</title></head>
<body><div id="app"></div>
<script nonce="${nonce}">
  window.__sent = [];
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m), getState: () => undefined, setState: () => {} });
</script>
<script nonce="${nonce}" src="/webview.js"></script>
</body></html>`;
}

/** The same stylesheet and an empty #app, no app code: the baseline of the same size with no updates. */
function baselinePage(): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none'; style-src 'self'; connect-src 'self'">
<link rel="stylesheet" href="/webview.css"><title>VT Code bench baseline</title></head>
<body><div id="app"></div></body></html>`;
}

function serve(bundle: { js: string; css: string }, stream: string): Promise<Server> {
  const server = createServer((req, res) => {
    const nonce = randomBytes(12).toString('base64');
    const routes: Record<string, [string, string]> = {
      '/': ['text/html', page(nonce)],
      '/baseline': ['text/html', baselinePage()],
      '/webview.js': ['text/javascript', bundle.js],
      '/webview.css': ['text/css', bundle.css],
      '/stream.json': ['application/json', stream],
    };
    const hit = routes[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': hit[0], 'cache-control': 'no-store' }).end(hit[1]);
  });
  return new Promise((res) => server.listen(0, '127.0.0.1', () => res(server)));
}

async function openApp(p: Page, url: string): Promise<void> {
  await p.goto(url);
  await p.waitForFunction(() =>
    (window as unknown as { __sent: { type: string }[] }).__sent.some((m) => m.type === 'ready'),
  );
}

/** Posts the state and resolves with the ms until the rows are in the DOM and a frame has been produced. */
async function timeInitialRender(p: Page, state: HostNotification): Promise<{ ms: number; rows: number }> {
  return p.evaluate(
    (message) =>
      new Promise<{ ms: number; rows: number }>((done) => {
        const t0 = performance.now();
        window.postMessage(message, '*');
        const check = () => {
          const rows = document.querySelector('.transcript')?.childElementCount ?? 0;
          // rAF runs before this frame's style/layout/paint; the task after it runs once the frame is out.
          if (rows > 0) setTimeout(() => done({ ms: performance.now() - t0, rows }), 0);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    state,
  );
}

/**
 * The baseline of the initial render: the DOM the app produced for the same transcript, set as
 * HTML into the static page (parse, style, layout, paint, no app code); same stop condition.
 */
async function timeBaselineRender(p: Page, html: string): Promise<number> {
  // The baseline page runs no scripts of its own (CSP), but Playwright's evaluate does.
  return p.evaluate(
    (markup) =>
      new Promise<number>((done) => {
        const t0 = performance.now();
        const app = document.getElementById('app') as HTMLElement;
        app.innerHTML = markup;
        requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
      }),
    html,
  );
}

interface StreamResult {
  deltas: number[];
  /** When each frame started, ms after the stream started. */
  at: number[];
  tokens: number;
  messages: number;
}

/**
 * Posts the host's notifications for `rate` tokens per second for `ms` (fetched from the server
 * first, so the page holds them before the clock starts); records requestAnimationFrame deltas.
 */
async function stream(p: Page, rate: number, ms: number, touch = false): Promise<StreamResult> {
  return p.evaluate(
    async ({ rate, ms, touch }) => {
      const perToken = (await (await fetch('/stream.json')).json()) as unknown[][];
      // The baseline's one change a frame (an unchanged page gets no frames of its own): a counter
      // out of the document flow, so the frame costs no more than any frame on this DOM.
      const tick = touch
        ? document.body.appendChild(
            Object.assign(document.createElement('div'), { style: 'position:fixed;top:0;right:0;font-size:8px' }),
          )
        : null;
      return new Promise<StreamResult>((done) => {
        const deltas: number[] = [];
        const at: number[] = [];
        let tokens = 0;
        let messages = 0;
        const start = performance.now();
        let last = start;
        const frame = (now: number) => {
          if (tick) tick.textContent = String(deltas.length);
          deltas.push(now - last);
          at.push(now - start);
          last = now;
          if (now - start < ms + 200) requestAnimationFrame(frame);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
        const timer = setInterval(() => {
          const elapsed = performance.now() - start;
          const due = Math.min(Math.floor((elapsed / 1000) * rate), Math.floor((ms / 1000) * rate), perToken.length);
          for (; tokens < due; tokens++) {
            for (const message of perToken[tokens] ?? []) {
              window.postMessage(message, '*');
              messages++;
            }
          }
          if (elapsed >= ms) {
            clearInterval(timer);
            setTimeout(() => done({ deltas, at, tokens, messages }), 300);
          }
        }, 4);
      });
    },
    { rate, ms, touch },
  );
}

async function main(): Promise<void> {
  const bundle = loadBundle();
  const tokens = Math.round((TOKENS_PER_SECOND * STREAM_MS) / 1000);
  hostStream(tokens); // warm-up: the host has rendered markdown before the measured stream starts
  const host = hostStream(tokens);
  const streamJson = JSON.stringify(host.perToken);
  const server = await serve(bundle, streamJson);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const runDir = mkdtempSync(join(tmpdir(), 'vtp-bench-webview-'));
  const browser = await launchBrowser(
    runDir,
    { ...process.env, HOME: runDir, TMPDIR: runDir },
    { width: 420, height: 900 },
    ['--disable-gpu-vsync', '--disable-frame-rate-limit'],
  );
  try {
    const p = browser.page;
    // tsx keeps function names with a `__name` helper that the page does not have.
    await p.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const state: HostNotification = {
      type: 'state',
      status: { mode: 'plan', model: 'bench', status: null, busy: false, inputLockedReason: null, sandbox: null },
      transcript: transcript(MESSAGES),
    };
    const stateBytes = Buffer.byteLength(JSON.stringify(state));

    // Main-thread durations as CPU time (thread ticks): what a frame costs, not how long it
    // waited for a core on a busy machine.
    const kinds = ['ThreadTime', 'TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'] as const;
    const metrics = async (): Promise<() => Promise<number[]>> => {
      const cdp = await browser.context.newCDPSession(p);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      const read = async (): Promise<number[]> => {
        const all = (await cdp.send('Performance.getMetrics')).metrics;
        return kinds.map((k) => (all.find((m) => m.name === k)?.value ?? 0) * 1000);
      };
      const before = await read();
      return async () => (await read()).map((v, i) => v - (before[i] ?? 0));
    };

    // The app's initial render, interleaved with the baseline: the DOM the app produced, set as
    // HTML into a page with the same stylesheet and no app code.
    const times: number[] = [];
    const baseTimes: number[] = [];
    let rows = 0;
    let appHtml = '';
    for (let i = 0; i < RUNS; i++) {
      await openApp(p, url);
      const r = await timeInitialRender(p, state);
      times.push(r.ms);
      rows = r.rows;
      if (i === 0) appHtml = await p.evaluate(() => document.getElementById('app')?.innerHTML ?? '');
      await p.goto(`${url}baseline`);
      baseTimes.push(await timeBaselineRender(p, appHtml));
    }
    times.sort((a, b) => a - b);
    baseTimes.sort((a, b) => a - b);

    // Baseline frames: the same DOM, nothing posted, one counter changed a frame (the page from the
    // last baseline run).
    const idleMetrics = await metrics();
    const idle = await stream(p, 0, STREAM_MS, true);
    const [idleCpuMs = 0] = await idleMetrics();
    const idleDeltas = [...idle.deltas].sort((a, b) => a - b);

    // Streaming on top of the full transcript.
    await openApp(p, url);
    await timeInitialRender(p, state);
    await p.evaluate((messages) => messages.forEach((m) => window.postMessage(m, '*')), host.prelude);
    await p.waitForTimeout(300);
    const streamMetrics = await metrics();
    const result = await stream(p, TOKENS_PER_SECOND, STREAM_MS);
    const [cpuMs = 0, busyMs = 0, scriptMs = 0, styleMs = 0, layoutMs = 0] = await streamMetrics();
    const streamedText = await p.evaluate(
      () => document.querySelector('.msg-assistant.is-streaming')?.textContent ?? '',
    );
    // Every token reached the DOM: each 'validates ' token shows once (markdown syntax itself does not show).
    let expected = 0;
    for (let i = 0; i < result.tokens; i++) if (i % 16 === 2 && i % 400 !== 399 && i % 400 !== 150) expected++;
    const shown = streamedText.split('validates').length - 1;

    const deltas = [...result.deltas].sort((a, b) => a - b);
    const over = deltas.filter((d) => d > FRAME_BUDGET_MS).length;
    const late = result.deltas
      .filter((_, i) => (result.at[i] ?? 0) > STREAM_MS - 1_000 && (result.at[i] ?? 0) <= STREAM_MS)
      .sort((a, b) => a - b);
    const frames = deltas.length;
    const span = (result.at.at(-1) ?? STREAM_MS) / 1000;
    const cost = [...host.costUs].sort((a, b) => a - b);
    const appendBytes = host.perToken
      .flat()
      .filter((m) => m.type === 'append')
      .map((m) => Buffer.byteLength(JSON.stringify(m)));

    console.log(
      `bundle used: dist/webview.js ${(bundle.js.length / 1024).toFixed(1)} KB (${bundle.minified ? 'production, minified' : 'development build'})`,
    );
    const [render, baseRender] = [percentile(times, 50), percentile(baseTimes, 50)];
    console.log(
      `initial render of a ${MESSAGES}-message transcript (state ${(stateBytes / 1024).toFixed(0)} KB, ${rows} rows in the DOM): ${render.toFixed(1)} ms (target ≤ 200 ms; median of ${RUNS}, max ${(times.at(-1) ?? NaN).toFixed(1)} ms)`,
    );
    console.log(
      `  vs the same DOM (${(appHtml.length / 1024).toFixed(0)} KB of HTML) set into a page with the same stylesheet and no app code: ${baseRender.toFixed(1)} ms in the same run (interleaved, median of ${RUNS}); ratio ${(render / baseRender).toFixed(2)}× (the app's own share; no target)`,
    );
    console.log(
      `host cost per streamed delta, median (TranscriptBuilder.apply: markdown render of the tail + append, ${tokens} deltas into one message): ${percentile(cost, 50).toFixed(0)} µs (target ≤ 500 µs: 2,000 tokens/s leaves 500 µs per token)`,
    );
    console.log(
      `host cost per streamed delta, p95: ${percentile(cost, 95).toFixed(0)} µs (target ≤ 500 µs; max ${(cost.at(-1) ?? NaN).toFixed(0)} µs)`,
    );
    hostPlanStream(); // warm-up
    const planStream = hostPlanStream();
    const planSorted = [...planStream.bytes].sort((a, b) => a - b);
    const planCost = [...planStream.costUs].sort((a, b) => a - b);
    console.log(
      `host message per plan.delta (a ${(planStream.planBytes / 1024).toFixed(0)} KB plan in 16-character deltas): mean ${(planStream.bytes.reduce((a, b) => a + b, 0) / planStream.bytes.length).toFixed(0)} bytes, max ${planSorted.at(-1)} bytes, ${(planStream.bytes.reduce((a, b) => a + b, 0) / 1024).toFixed(0)} KB in all (target ≤ 4 KB a delta however long the plan grows: appends like assistant text); host cost per delta p95 ${percentile(planCost, 95).toFixed(0)} µs (target ≤ 500 µs)`,
    );
    console.log(
      `host append message size, mean: ${(appendBytes.reduce((a, b) => a + b, 0) / Math.max(1, appendBytes.length)).toFixed(0)} bytes (target ≤ 4 KB however long the message grows: settled chunks go once, then only the tail; max ${Math.max(...appendBytes)} bytes)`,
    );
    console.log(
      `streaming rate achieved: ${((result.tokens / STREAM_MS) * 1000).toFixed(0)} tokens/s, ${result.messages} host messages, ${(streamedText.length / 1024).toFixed(0)} KB of text in the message at the end (target 2000 tokens/s)`,
    );
    console.log(
      `streaming frames produced (vsync and frame-rate limit off: a frame starts when the previous one is done): ${(frames / span).toFixed(0)} frames/s (${frames} frames; target ≥ 60 frames/s)`,
    );
    console.log(`streaming frame time p50: ${percentile(deltas, 50).toFixed(1)} ms (target ≤ 16.7 ms)`);
    const [p95, idleP95] = [percentile(deltas, 95), percentile(idleDeltas, 95)];
    console.log(`streaming frame time p95: ${p95.toFixed(1)} ms (target ≤ 16.7 ms when the machine is idle)`);
    console.log(
      `  vs frames of the baseline page (same DOM, no updates but a counter) in the same run: p95 ${idleP95.toFixed(1)} ms (${idleDeltas.length} frames); ratio ${(p95 / idleP95).toFixed(2)}× (no target: the baseline frame is the floor of what a frame costs on this DOM and machine)`,
    );
    console.log(
      `streaming frame time p95 in the last second (message > 25 KB): ${percentile(late, 95).toFixed(1)} ms (target ≤ 16.7 ms)`,
    );
    console.log(`streaming frame time max: ${(deltas.at(-1) ?? NaN).toFixed(1)} ms (target ≤ 50 ms)`);
    console.log(`streaming frames over 16.7 ms (each would miss a 60 Hz vsync): ${over} of ${frames} (target 0)`);
    const perFrame = (ms: number) => (ms / Math.max(1, frames)).toFixed(2);
    console.log(
      `streaming main-thread CPU time per frame: ${perFrame(cpuMs)} ms (target ≤ 8 ms; in tasks ${perFrame(busyMs)} ms: script ${perFrame(scriptMs)} ms, style ${perFrame(styleMs)} ms, layout ${perFrame(layoutMs)} ms)`,
    );
    console.log(
      `  vs the baseline page's frames: ${(idleCpuMs / Math.max(1, idleDeltas.length)).toFixed(2)} ms CPU per frame in the same run; ratio ${(cpuMs / Math.max(1, frames) / (idleCpuMs / Math.max(1, idleDeltas.length))).toFixed(2)}× (no target)`,
    );
    if (shown !== expected)
      throw new Error(`streamed tokens went missing: ${shown} of ${expected} 'validates' tokens are in the DOM`);
  } finally {
    await browser.close();
    server.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
