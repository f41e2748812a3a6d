import './dom';
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanup } from '@testing-library/preact';
import { EventSequencer, type EventInput } from '../../src/core/session/events';
import { TranscriptBuilder } from '../../src/extension/transcript';
import { assistant, hostStream, mountApp, plan, user } from './fixtures';
import { sessionStarted } from '../fixtures/events';

afterEach(cleanup);

/** Payloads that try to get markup, scripts or navigation out of model text. */
const PAYLOADS: readonly string[] = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<div onclick="alert(1)" onmouseover=alert(1)>hover</div>',
  '<a href="javascript:alert(1)">html link</a>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](java\nscript:alert(1))',
  '[click](<javascript:alert(1)>)',
  '[data](data:text/html,<script>alert(1)</script>)',
  '[b64](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[vs](vscode:extension/evil.ext)',
  '[cmd](command:workbench.action.terminal.new)',
  '[file](file:///etc/passwd)',
  '<javascript:alert(1)>',
  '[ref][x]\n\n[x]: javascript:alert(1)',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![x](https://tracker.example/pixel.png)',
  '![x" onerror="alert(1)](https://e.example/a.png)',
  '[x](https://e.example/" onmouseover="alert(1))',
  '```html\n<script>alert(1)</script>\n```',
  '`<img src=x onerror=alert(1)>`',
  '<style>body{display:none}</style>',
  '<form action="https://evil.example"><input></form>',
  '<object data="javascript:alert(1)"></object><embed src=x>',
  '| left | right |\n|:-----|------:|\n| <b onclick=x>1</b> | [x](javascript:alert(1)) |',
];

const FORBIDDEN = 'script, img, svg, iframe, math, style, form, input, object, embed, frame, link, meta, base';

function assertInert(container: Element, label: string) {
  assert.equal(container.querySelector(FORBIDDEN), null, `no active element for ${label}: ${container.innerHTML}`);
  for (const el of container.querySelectorAll('*')) {
    for (const attr of el.getAttributeNames()) {
      assert.ok(!/^on/i.test(attr), `no event-handler attribute (${attr}) for ${label}`);
      assert.ok(attr !== 'style' && attr !== 'srcdoc', `no ${attr} attribute for ${label}`);
    }
  }
  for (const a of container.querySelectorAll('a')) {
    const href = a.getAttribute('href') ?? '';
    assert.match(href, /^(https?:|mailto:)/i, `only http(s)/mailto links for ${label}: ${href}`);
  }
}

test('UI-1 XSS: known payloads in assistant text render inert (no script/img/svg/iframe, no on* attributes, no unsafe links)', async () => {
  const app = mountApp();
  await app.show(PAYLOADS.map((p, i) => assistant(`a${i}`, p)));
  const rows = app.container.querySelectorAll('.msg-assistant');
  assert.equal(rows.length, PAYLOADS.length);
  rows.forEach((row, i) => assertInert(row, PAYLOADS[i] ?? ''));
  assertInert(app.container.querySelector('.transcript') ?? app.container, 'the whole transcript');
});

test('UI-1 XSS: the same payloads are inert in user messages, streamed text, plan drafts and tool output', async () => {
  const app = mountApp();
  const joined = PAYLOADS.join('\n\n');
  const stream = hostStream('a1');
  await app.show([
    user('u1', joined),
    stream.entry,
    plan({
      id: 'p1',
      planFile: null,
      status: 'rejected',
      synopsis: null,
      markdown: joined,
      reasons: [{ code: 'E1', message: '<img src=x onerror=alert(1)>' }],
    }),
    plan({ id: 'p2', planFile: null, status: 'streaming', synopsis: null, markdown: joined, reasons: [] }),
    {
      kind: 'tool',
      id: 't1',
      name: '<svg onload=alert(1)>',
      target: '<img src=x onerror=alert(1)>',
      status: 'error',
      blockedReason: '<script>alert(1)</script>',
      output: joined,
      truncated: false,
    },
  ]);
  for (const p of PAYLOADS) await app.deliver(stream.append(`${p}\n\n`));
  await app.flushFrames();
  const transcript = app.container.querySelector('.transcript');
  assert.ok(transcript);
  assertInert(transcript, 'mixed entries');
  assert.ok(
    app.container.querySelector('.msg-assistant')?.textContent?.includes('<script>alert(1)</script>'),
    'raw HTML is shown as text',
  );
});

test('UI-1 XSS: unsafe link targets stay plain text and are never links', async () => {
  const app = mountApp();
  await app.show([
    assistant(
      'a1',
      '[run](javascript:alert(1)) [page](data:text/html,x) [ext](vscode:extension/x) [f](file:///etc/passwd) [ok](https://example.com)',
    ),
  ]);
  const links = [...app.container.querySelectorAll('.msg-assistant a')];
  assert.deepEqual(
    links.map((a) => a.getAttribute('href')),
    ['https://example.com'],
  );
  const text = app.container.querySelector('.msg-assistant')?.textContent ?? '';
  for (const literal of [
    '[run](javascript:alert(1))',
    '[page](data:text/html,x)',
    '[ext](vscode:extension/x)',
    '[f](file:///etc/passwd)',
  ]) {
    assert.ok(text.includes(literal), `${literal} is shown as text`);
  }
});

test('UI-1 XSS: markdown images become links to their source, never <img>', async () => {
  const app = mountApp();
  await app.show([assistant('a1', '![diagram](https://example.com/d.png) and ![evil](javascript:alert(1))')]);
  const msg = app.container.querySelector('.msg-assistant');
  assert.equal(msg?.querySelector('img'), null);
  const link = msg?.querySelector('a.md-image-link');
  assert.equal(link?.getAttribute('href'), 'https://example.com/d.png');
  assert.equal(link?.textContent, 'diagram');
  assert.ok(msg?.textContent?.includes('![evil](javascript:alert(1))'));
});

test('UI-1 XSS: payloads streamed through the host (transcript builder, markdown renderer, chunked appends) render inert', async () => {
  const joined = PAYLOADS.join('\n\n');
  // Small deltas: tags, attributes and link targets arrive split across appends, as real streams cut them.
  const pieces = (text: string) => text.match(/[\s\S]{1,7}/g) ?? [];
  const inputs: EventInput[] = [
    sessionStarted(),
    { type: 'turn.started', agent: 'plan', kind: 'user', input: joined },
    ...pieces(joined).map((text): EventInput => ({ type: 'message.delta', text })),
    ...pieces(joined).map((text): EventInput => ({ type: 'plan.delta', text })),
  ];
  const seq = new EventSequencer('s-xss', { now: () => 1_700_000_000_000 });
  const builder = new TranscriptBuilder();
  const app = mountApp();
  await app.show([]);
  for (const input of inputs) {
    if (input.type === 'turn.started') seq.beginTurn();
    await app.deliver(...builder.apply(seq.stamp(input)));
  }
  await app.flushFrames();
  const transcript = app.container.querySelector('.transcript');
  assert.ok(transcript);
  assert.ok(
    app.container.querySelectorAll('.msg-assistant.is-streaming .md-stream > .md').length > PAYLOADS.length / 2,
    'the message streamed in settled chunks',
  );
  assertInert(transcript, 'streamed through the host');
  for (const selector of ['.msg-user', '.msg-assistant', '.plan-card']) {
    assert.ok(
      app.container.querySelector(selector)?.textContent?.includes('<script>alert(1)</script>'),
      `raw HTML is shown as text in ${selector}`,
    );
  }
  const links = [...transcript.querySelectorAll('a')].map((a) => a.getAttribute('href'));
  assert.ok(links.includes('https://tracker.example/pixel.png'), 'the image became a link to its source');
  // The webview ends up with exactly the chunks the host holds.
  const hostEntry = builder.snapshot().transcript.find((e) => e.kind === 'assistant');
  assert.ok(hostEntry?.kind === 'assistant');
  const shown = [...app.container.querySelectorAll('.msg-assistant .md-stream > .md')].map((el) => el.innerHTML);
  assert.deepEqual(
    shown,
    hostEntry.html.map((html) => Object.assign(document.createElement('div'), { innerHTML: html }).innerHTML),
  );
});
