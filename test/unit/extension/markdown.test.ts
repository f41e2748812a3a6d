/**
 * The host's markdown renderer (src/extension/markdown.ts): the only source of HTML the chat
 * webview injects, so its configuration is the sanitiser (UI-1), and its streaming renderer
 * settles finished blocks once so that a long message costs only its tail per delta (UI-1).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  isSafeHref,
  MAX_LIST_TAIL,
  renderMarkdown,
  stableCut,
  StreamingMarkdown,
  type HtmlUpdate,
} from '../../../src/extension/markdown';

test('UI-1: raw HTML in model text is escaped, never passed through', () => {
  assert.equal(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
  assert.equal(renderMarkdown('<img src=x onerror=alert(1)>'), '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n');
});

test('UI-1: only http, https and mailto targets become links; anything else stays text', () => {
  for (const ok of ['https://example.com', 'http://localhost:3000/x', 'mailto:a@example.com', ' HTTPS://EXAMPLE.COM'])
    assert.equal(isSafeHref(ok), true, ok);
  for (const bad of [
    'javascript:alert(1)',
    'data:text/html,x',
    'vscode:extension/x',
    'command:x',
    'file:///etc/passwd',
    './a.md',
    '#top',
    '//evil.example',
  ]) {
    assert.equal(isSafeHref(bad), false, bad);
  }
  assert.equal(
    renderMarkdown('[ok](https://example.com) [no](javascript:alert(1))'),
    '<p><a href="https://example.com">ok</a> [no](javascript:alert(1))</p>\n',
  );
  assert.match(
    renderMarkdown('see https://example.org/x'),
    /<a href="https:\/\/example\.org\/x">https:\/\/example\.org\/x<\/a>/,
  );
});

test('UI-1: an image becomes a link to its source, with escaped attributes, never an <img>', () => {
  const html = renderMarkdown('![x" onerror="alert(1)](https://e.example/a.png) ![evil](javascript:alert(1))');
  assert.doesNotMatch(html, /<img/);
  assert.match(
    html,
    /<a href="https:\/\/e\.example\/a\.png" class="md-image-link" title="Image: https:\/\/e\.example\/a\.png">x&quot; onerror=&quot;alert\(1\)<\/a>/,
  );
  assert.match(html, /!\[evil\]\(javascript:alert\(1\)\)/);
});

test('UI-1: table alignment becomes a class, never a style attribute', () => {
  const html = renderMarkdown('| name | size | mid |\n|:-----|-----:|:---:|\n| a.ts | 12 | x |');
  assert.doesNotMatch(html, /style=/);
  assert.deepEqual(html.match(/class="md-align-\w+"/g), [
    'class="md-align-left"',
    'class="md-align-right"',
    'class="md-align-center"',
    'class="md-align-left"',
    'class="md-align-right"',
    'class="md-align-center"',
  ]);
});

test('UI-1: fenced and indented code blocks carry a copy button; their code is escaped', () => {
  const fenced = renderMarkdown('```html\n<b>x</b>\n```');
  assert.equal(
    fenced,
    '<div class="code-block"><button type="button" class="copy-code" aria-label="Copy code">Copy</button><pre><code class="language-html">&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n</div>',
  );
  assert.match(
    renderMarkdown('text\n\n    indented code'),
    /<div class="code-block"><button[^>]*>Copy<\/button><pre><code>indented code\n<\/code><\/pre>/,
  );
});

test('UI-1: named and numeric character references decode with the full HTML table', () => {
  assert.equal(
    renderMarkdown('&copy; 2026 &mdash; a &amp; b &bogus; &#169; &NotNestedGreaterGreater;'),
    '<p>© 2026 — a &amp; b &amp;bogus; © ⪢̸</p>\n',
  );
});

test('UI-1: a stream is cut after a blank line outside code fences, before a line that starts a new block', () => {
  assert.equal(stableCut('one paragraph still growing'), 0);
  assert.equal(stableCut('first\n\nsecond'), 'first\n\n'.length);
  assert.equal(stableCut('first\n\n'), 0, 'no cut before the next line has started');
  assert.equal(stableCut('first\n\n\n\nsecond'), 'first\n\n\n\n'.length);
  const fenced = 'intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
  assert.equal(stableCut(fenced), 'intro\n\n'.length, 'a blank line inside an open fence is not a cut');
  const closed = `${fenced}\`\`\`\n\nafter`;
  assert.equal(stableCut(closed), closed.length - 'after'.length);
  assert.equal(stableCut('- item\n\n  continued in the item'), 0, 'an indented line may continue the block above');
  assert.equal(stableCut('para\n\n    indented code\n\n    more code'), 0, 'nor is one inside an indented code block');
  const tilde = 'a\n\n~~~\nx\n\n```\nstill code\n\n~~~\n\nb';
  assert.equal(stableCut(tilde), tilde.length - 1, 'a ``` line does not close a ~~~ fence');
  assert.equal(stableCut('a\n\n````\nx\n```\n\ny'), 'a\n\n'.length, 'a shorter fence does not close a longer one');
  assert.equal(
    stableCut('a\n\n```js `x`\n\nb'),
    'a\n\n```js `x`\n\n'.length,
    'a backtick "fence" with a backtick in its info string is inline code',
  );
});

/** Feeds `text` to a streaming renderer in pieces of `size`, the way the host receives deltas. */
function streamInPieces(
  text: string,
  size: number,
): { renderer: StreamingMarkdown; updates: HtmlUpdate[]; lists: string[][] } {
  const renderer = new StreamingMarkdown();
  const updates: HtmlUpdate[] = [];
  const lists: string[][] = [];
  let shown: string[] = [];
  for (let end = size; end < text.length + size; end += size) {
    const update = renderer.update(text.slice(0, end));
    updates.push(update);
    shown = [...shown.slice(0, update.keep), ...update.chunks];
    lists.push(shown);
  }
  return { renderer, updates, lists };
}

test('UI-1: streaming settles each finished paragraph once; later updates only resend the tail', () => {
  const text =
    'First paragraph with **bold**.\n\nSecond one, with a [link](https://example.com).\n\n# Heading\n\nThe tail keeps growing and growing';
  const { renderer, updates, lists } = streamInPieces(text, 3);
  const final = lists.at(-1) ?? [];
  assert.deepEqual(final, renderer.chunks);
  assert.equal(final.length, 4, 'three settled chunks and the tail');
  assert.equal(final.join(''), renderMarkdown(text), 'settled chunks plus the tail read as the whole text rendered');
  // A settled chunk is sent once, in the update that settled it, and is byte-identical from then on.
  for (let i = 0; i < final.length - 1; i++) {
    const sentIn = updates.filter((u) => u.keep <= i && u.chunks.length > i - u.keep + 1);
    assert.equal(sentIn.length, 1, `chunk ${i} is sent as settled exactly once`);
    const from = lists.findIndex((l) => l.length > i + 1);
    for (const later of lists.slice(from)) assert.equal(later[i], final[i], `chunk ${i} never changes once settled`);
  }
  // Every update keeps all settled chunks and sends the tail again.
  for (const [n, u] of updates.entries()) {
    assert.ok(u.chunks.length >= 1);
    assert.equal(u.keep, (lists[n - 1]?.length ?? 1) - 1, 'only the previous tail is dropped');
  }
});

test('UI-1: a loose list (items separated by blank lines) streams as one list, never split into two', () => {
  assert.equal(stableCut('1. one\n\n2'), 0, 'a digit after the blank may continue an ordered list');
  assert.equal(stableCut('- one\n\n-'), 0, 'a dash may continue a bullet list (or start a rule): no cut yet');
  for (const text of [
    'Steps:\n\n1. Read the code.\n\n2. Change `greet`.\n\n3. Run the tests.\n\nDone.',
    'Options:\n\n- first\n\n- second\n\n  with more text\n\n* third\n\nThat is all.',
    '1. only item\n\n---\n\nAfter the rule.',
  ]) {
    for (const size of [1, 3, 8]) {
      const { lists } = streamInPieces(text, size);
      for (const list of lists) {
        const settled = list.slice(0, -1).join('');
        assert.equal(
          (settled.match(/<[ou]l/g) ?? []).length,
          (settled.match(/<\/[ou]l>/g) ?? []).length,
          'settled chunks hold whole lists',
        );
      }
      const final = lists.at(-1) ?? [];
      assert.equal(
        final.join(''),
        renderMarkdown(text),
        `size ${size}: the streamed chunks read as the whole text rendered`,
      );
    }
  }
});

test('UI-1: a long loose list still settles, so every update stays cheap however long it grows', () => {
  const item = (n: number) =>
    `- item ${n}: the handler validates \`input\` with a **zod** schema, then returns typed errors.\n\n`;
  const text = Array.from({ length: 300 }, (_, n) => item(n)).join('');
  assert.ok(text.length > 10 * MAX_LIST_TAIL, `${text.length} characters`);
  const renderer = new StreamingMarkdown();
  let longestTail = 0;
  for (let end = 5; end <= text.length + 5; end += 5) {
    renderer.update(text.slice(0, end));
    longestTail = Math.max(longestTail, (renderer.chunks.at(-1) ?? '').length);
  }
  assert.ok(renderer.chunks.length > 5, `the list settled in pieces (${renderer.chunks.length} chunks)`);
  assert.ok(longestTail < 3 * MAX_LIST_TAIL, `the re-rendered tail stays bounded (${longestTail} characters of HTML)`);
  const items = renderer.chunks.join('').match(/<li>/g) ?? [];
  assert.equal(items.length, 300, 'no item lost or doubled across chunks');
});

test("UI-1: a long tight list (a plan's steps, no blank lines) settles too, and its pieces keep their numbering", () => {
  const step = (n: number) =>
    `${n}. Validate \`handler_${n}\` input -> files: [src/h${n}.ts] -> verify: [node --test test/h${n}.test.ts]\n`;
  const text = `## Implementation Steps\n${Array.from({ length: 300 }, (_, i) => step(i + 1)).join('')}`;
  assert.ok(text.length > 10 * MAX_LIST_TAIL, `${text.length} characters`);
  const renderer = new StreamingMarkdown();
  let longestTail = 0;
  for (let end = 7; end <= text.length + 7; end += 7) {
    renderer.update(text.slice(0, end));
    longestTail = Math.max(longestTail, (renderer.chunks.at(-1) ?? '').length);
  }
  assert.ok(renderer.chunks.length > 5, `the list settled in pieces (${renderer.chunks.length} chunks)`);
  assert.ok(longestTail < 3 * MAX_LIST_TAIL, `the re-rendered tail stays bounded (${longestTail} characters of HTML)`);
  // Each piece is an <ol> that starts where the one before it stopped: 1..300, none lost or doubled.
  let next = 1;
  for (const [, start, body] of renderer.chunks.join('').matchAll(/<ol(?: start="(\d+)")?>([\s\S]*?)<\/ol>/g)) {
    assert.equal(Number(start ?? 1), next, 'the numbering goes on');
    next += (body?.match(/<li>/g) ?? []).length;
  }
  assert.equal(next, 301);
  assert.equal(stableCut('1. a\n- - -\n'), 0, 'a thematic break is not a list item');
  assert.equal(stableCut('para\n1. a'), 0, 'an item after a paragraph line is not a cut');
  const long = `1. ${'a'.repeat(MAX_LIST_TAIL)}\n`;
  assert.equal(stableCut(`${long}2. b`), long.length, 'the next item of a tight list is a cut once the tail is long');
  assert.equal(stableCut('1. a\n2. b'), 0, 'and not before');
});

test('UI-1: a fenced code block with blank lines is never cut while it streams', () => {
  const code = 'const a = 1;\n\n\nconst b = 2;\n\nexport { a, b };\n';
  const text = `Here is the code:\n\n\`\`\`ts\n${code}\`\`\`\n\nAnd a closing remark.`;
  const { lists } = streamInPieces(text, 1);
  for (const list of lists) {
    for (const chunk of list.slice(0, -1)) {
      assert.equal(
        (chunk.match(/<pre>/g) ?? []).length,
        (chunk.match(/<\/pre>/g) ?? []).length,
        'a settled chunk holds whole code blocks only',
      );
      if (chunk.includes('<pre>'))
        assert.ok(
          chunk.includes(code.replace(/</g, '&lt;')),
          'the settled code block has all its lines, blank ones included',
        );
    }
  }
  const final = lists.at(-1) ?? [];
  assert.equal(final.filter((c) => c.includes('<pre>')).length, 1, 'the code block is one chunk');
  assert.equal(final.join(''), renderMarkdown(text));
});

test('UI-1: the renderer streams markup split across deltas without ever emitting it as markup', () => {
  const text = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[x](javascript:alert(1))',
    '```html\n<iframe src=x>\n\n</iframe>\n```',
  ].join('\n\n');
  for (const size of [1, 2, 5, 7]) {
    const { lists } = streamInPieces(text, size);
    for (const list of lists)
      for (const chunk of list)
        assert.doesNotMatch(chunk, /<(script|img|iframe)|href="javascript/i, `size ${size}: ${chunk}`);
  }
});

test("UI-1 (issue 14): the cut follows markdown-it's blocks: a ``` line in indented code opens no fence; a fence inside a list item is the item's", () => {
  const indented = 'para\n\n    ```\n    code\n\nAfter';
  assert.equal(stableCut(indented), indented.length - 'After'.length);
  const inItem = '- item\n\n  ```\n  a\n\n  b\n  ```\n\nAfter';
  assert.equal(stableCut(inItem), inItem.length - 'After'.length);
  const closedByItem = 'x\n\n- item\n\n  ```\n  a\n\nAfter';
  assert.equal(
    stableCut(closedByItem),
    closedByItem.length - 'After'.length,
    'an unclosed fence inside a list item ends with the item',
  );
});
