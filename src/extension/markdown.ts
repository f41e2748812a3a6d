/**
 * The one markdown renderer of the chat view, run in the extension host: the webview receives
 * only the HTML made here and injects it as is (webview/src/components/Markdown.tsx), so this
 * configuration is the sanitiser (UI-1):
 * - `html: false`: raw HTML in model output is escaped, never parsed;
 * - links only for http, https and mailto; anything else (javascript:, data:, vscode:, file:,
 *   relative paths) stays plain text because markdown-it does not turn rejected targets into links;
 * - images become links to their source (no remote loads; the webview's CSP forbids them anyway);
 * - table alignment is a class, not a style attribute;
 * - code blocks carry a copy button, wired by delegation in the webview's transcript.
 * Rendering here keeps markdown-it out of the webview bundle and markdown parsing off the
 * webview's main thread while text streams. Pure: no `vscode` import.
 */
import type { Token } from 'markdown-it';
import { topLevelBlocks } from '../core/markdown/blocks';
import { createMarkdownIt, isSafeHref } from '../core/markdown/parser';

export { isSafeHref };

// The shared configuration (src/core/markdown/parser.ts): the plan validator parses with the
// same rules, so what renders as a heading or as code here is a heading or code there too.
const md = createMarkdownIt();

const escape = md.utils.escapeHtml;

// Table alignment arrives as style attributes, which the webview's CSP (no 'unsafe-inline') would
// refuse with a console error per cell; a class does the same job.
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

/**
 * The longest unsettled tail a loose list may keep. Past it, a line that may continue a list is a
 * cut too: the list then shows as two until the message completes, but each update stays cheap.
 */
export const MAX_LIST_TAIL = 2_048;

/** Where a growing text may be cut; `token` is the first token after a cut at a top-level block. */
interface Cut {
  offset: number;
  token: number | null;
}

function lineOffsets(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/**
 * Where streamed text can be cut so that the part before it is final, read from markdown-it's
 * top-level blocks (so fences of any length, indented code and lists are what the renderer says
 * they are): the start of a top-level block that follows a blank line and starts in column 0 (an
 * indented line may still continue a list item or an indented code block). A block that starts
 * like a list item right after a list (`-`, `*`, `+`, a digit) may still continue that loose list,
 * so it, and every later item of a top-level list (loose or tight), is a cut only once the tail
 * would otherwise exceed MAX_LIST_TAIL characters.
 */
function cutOf(text: string, tokens: readonly Token[]): Cut {
  const lines = lineOffsets(text);
  const lineAt = (n: number): string => text.slice(lines[n] ?? text.length, (lines[n + 1] ?? text.length + 1) - 1);
  const afterBlank = (n: number): boolean => n > 0 && lineAt(n - 1).trim() === '' && /^\S/.test(lineAt(n));
  let cut: Cut = { offset: 0, token: null };
  let listCut = 0;
  const blocks = topLevelBlocks(tokens);
  for (const [k, block] of blocks.entries()) {
    const prev = blocks[k - 1];
    if (prev === undefined || !afterBlank(block.start)) continue;
    const offset = lines[block.start] ?? text.length;
    const prevIsList = prev.type === 'bullet_list_open' || prev.type === 'ordered_list_open';
    if (prevIsList && /^[-*+\d]/.test(text.charAt(offset))) listCut = offset;
    else cut = { offset, token: block.token };
  }
  // Every later item of a top-level list, loose or tight (a plan's steps are one tight list that
  // settles only when the message ends), may be a list cut.
  let afterItem = false;
  for (const t of tokens) {
    if (t.level === 0) afterItem = false;
    if (t.type === 'list_item_open' && t.level === 1 && t.map && (afterItem || afterBlank(t.map[0])))
      listCut = Math.max(listCut, lines[t.map[0]] ?? 0);
    if (t.type === 'list_item_close' && t.level === 1) afterItem = true;
  }
  return listCut > cut.offset && text.length - cut.offset > MAX_LIST_TAIL ? { offset: listCut, token: null } : cut;
}

/** Offset where `text` can be cut (see cutOf); 0 when nothing is final yet. */
export function stableCut(text: string): number {
  return cutOf(text, md.parse(text, {})).offset;
}

/** A streamed message's HTML change: keep the first `keep` chunks, then append `chunks`. */
export interface HtmlUpdate {
  keep: number;
  chunks: string[];
}

/**
 * Renders a growing markdown text in chunks (UI-1: streaming without jank). Blocks before the
 * stable cut are rendered once into "settled" chunks that never change again, so each update
 * costs the tail alone however long the message grows; the last chunk is the tail.
 */
export class StreamingMarkdown {
  private readonly settled: string[] = [];
  private settledTo = 0;
  private tail = '';

  /** Every chunk now: the settled ones, then the tail. */
  get chunks(): string[] {
    return [...this.settled, this.tail];
  }

  /** `text` is the whole text so far; it only ever grows by appending. */
  update(text: string): HtmlUpdate {
    const keep = this.settled.length;
    const rest = text.slice(this.settledTo);
    const env = {};
    const tokens = md.parse(rest, env);
    const cut = cutOf(rest, tokens);
    if (cut.offset > 0 && cut.token !== null) {
      // A cut between top-level blocks: both sides render from the one parse.
      this.settled.push(md.renderer.render(tokens.slice(0, cut.token), md.options, env));
      this.tail = md.renderer.render(tokens.slice(cut.token), md.options, env);
      this.settledTo += cut.offset;
    } else if (cut.offset > 0) {
      // A cut inside a long loose list: the two parts are parsed as two lists.
      this.settled.push(renderMarkdown(rest.slice(0, cut.offset)));
      this.tail = renderMarkdown(rest.slice(cut.offset));
      this.settledTo += cut.offset;
    } else {
      this.tail = md.renderer.render(tokens, md.options, env);
    }
    return { keep, chunks: [...this.settled.slice(keep), this.tail] };
  }
}
