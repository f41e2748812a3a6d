/**
 * The one markdown renderer of the webview. Its output is the only HTML ever injected
 * (dangerouslySetInnerHTML), so the configuration is the sanitiser:
 * - `html: false`: raw HTML in model output is escaped, never parsed;
 * - links only for http, https and mailto; anything else (javascript:, data:, vscode:, file:,
 *   relative paths) stays plain text because markdown-it does not turn rejected targets into links;
 * - images become links to their source (no remote loads; the CSP forbids them anyway);
 * - code blocks carry a copy button, wired by delegation in the transcript.
 */
import MarkdownIt from 'markdown-it';

const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.validateLink = isSafeHref;

const escape = md.utils.escapeHtml;

// Table alignment arrives as style attributes, which the CSP (no 'unsafe-inline') would refuse
// with a console error per cell; a class does the same job.
md.core.ruler.push('align_class', (state) => {
  for (const block of state.tokens) {
    if (block.type !== 'th_open' && block.type !== 'td_open') continue;
    const align = /text-align:(left|right|center)/.exec(String(block.attrGet('style') ?? ''))?.[1];
    block.attrs = (block.attrs ?? []).filter(([name]) => name !== 'style');
    if (align) block.attrSet('class', `md-align-${align}`);
  }
});

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  if (!token) return '';
  const src = String(token.attrGet('src') ?? '');
  const alt = token.content || src;
  return `<a href="${escape(src)}" class="md-image-link" title="Image: ${escape(src)}">${escape(alt)}</a>`;
};

const fence = md.renderer.rules.fence;
const codeBlock = md.renderer.rules.code_block;
const withCopy = (html: string) =>
  `<div class="code-block"><button type="button" class="copy-code" aria-label="Copy code">Copy</button>${html}</div>`;
if (fence) md.renderer.rules.fence = (...args) => withCopy(fence(...args));
if (codeBlock) md.renderer.rules.code_block = (...args) => withCopy(codeBlock(...args));

export function renderMarkdown(source: string): string {
  return md.render(source);
}
