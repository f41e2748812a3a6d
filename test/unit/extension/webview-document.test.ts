import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chatDocument, contentSecurityPolicy } from '../../../src/extension/webview-document';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
  scriptNonce: 'c2NyaXB0LW5vbmNl',
  styleNonce: 'c3R5bGUtbm9uY2U=',
};

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

test('UI-1 security: the webview CSP loads nothing by default, scripts only by nonce, no inline or eval', () => {
  const csp = directives(contentSecurityPolicy(parts));
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  assert.deepEqual(csp.get('script-src'), [`'nonce-${parts.scriptNonce}'`]);
  assert.deepEqual(csp.get('style-src'), [parts.cspSource, `'nonce-${parts.styleNonce}'`]);
  assert.deepEqual(csp.get('font-src'), [parts.cspSource]);
  assert.deepEqual(csp.get('img-src'), [parts.cspSource, 'data:']);
  assert.equal(
    [...csp.keys()].some((d) => d === 'connect-src' || d === 'frame-src'),
    false,
  );
  assert.doesNotMatch(contentSecurityPolicy(parts), /unsafe-/);
});

test('UI-1 security: the document carries the policy, the style nonce for the toolkit, and the nonced script', () => {
  const html = chatDocument(parts);
  assert.match(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-c2NyaXB0LW5vbmNl'; /,
  );
  // The toolkit reads this tag to nonce its one probe <style>; it must never expose the script nonce.
  assert.match(html, /<meta property="csp-nonce" content="c3R5bGUtbm9uY2U=">/);
  assert.equal(
    html.split(parts.scriptNonce).length - 1,
    2,
    'the script nonce appears in the policy and on the script only',
  );
  assert.match(
    html,
    /<script nonce="c2NyaXB0LW5vbmNl" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\.js"><\/script>/,
  );
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script, no inline script');
});

test('UI-1 security: one nonce for scripts and styles is refused', () => {
  assert.throws(() => chatDocument({ ...parts, styleNonce: parts.scriptNonce }), /must differ/);
});

test('UI-1 security: attribute values are escaped', () => {
  const html = chatDocument({ ...parts, styleUri: 'https://x/"><script>alert(1)</script>' });
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /href="https:\/\/x\/&quot;>&lt;script>alert\(1\)&lt;\/script>"/);
});
