import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeHTMLStrict as full } from 'entities';
import { NAMED, decodeHTMLStrict } from '../../webview/src/entities-lite';

test('UI-1: every named reference the bundle decodes matches the full HTML table', () => {
  assert.ok(Object.keys(NAMED).length > 50);
  for (const name of Object.keys(NAMED)) assert.equal(decodeHTMLStrict(`&${name};`), full(`&${name};`), name);
});

test('UI-1: unknown or unterminated references stay literal, as markdown-it shows them', () => {
  assert.equal(decodeHTMLStrict('&notanentity;'), '&notanentity;');
  assert.equal(decodeHTMLStrict('&amp'), '&amp');
  assert.equal(decodeHTMLStrict('&constructor;'), '&constructor;');
  assert.equal(decodeHTMLStrict('&toString;'), '&toString;');
});

test('UI-1: with the markdown-it-slim plugin the bundled renderer uses the small table and leaves `entities` out', async () => {
  const esbuild = await import('esbuild');
  const { markdownItSlim } = await import('../../webview/build/markdown-it-slim.mjs');
  const result = await esbuild.build({
    stdin: { contents: "import { renderMarkdown } from './webview/src/markdown'; globalThis.render = renderMarkdown;", resolveDir: process.cwd(), loader: 'ts' },
    bundle: true, write: false, format: 'iife', platform: 'browser', metafile: true, plugins: [markdownItSlim],
  });
  const inputs = Object.keys(result.metafile.inputs);
  assert.ok(inputs.some((p) => p.endsWith('webview/src/entities-lite.ts')), 'the lite table is bundled');
  assert.ok(!inputs.some((p) => /node_modules[\\/]entities[\\/]/.test(p)), 'the full table is not');
  const sandbox: { render?: (s: string) => string } = {};
  new Function('globalThis', result.outputFiles[0]?.text ?? '')(sandbox);
  assert.equal(sandbox.render?.('&copy; 2026 &mdash; a &amp; b &bogus; &#169;'), '<p>© 2026 — a &amp; b &amp;bogus; ©</p>\n');
});
