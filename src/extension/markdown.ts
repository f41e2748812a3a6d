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
import MarkdownIt from 'markdown-it';

const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.validateLink = isSafeHref;

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

const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
/** A line that surely starts a new top-level block: not indented, and not possibly a list item. */
const NEW_BLOCK = /^[^\s\-*+\d]/;
/** A top-level list item with content (`- x`, `12. x`), and not a thematic break such as `- - -`. */
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]+\S/;
const THEMATIC_BREAK = /^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
/**
 * The longest unsettled tail a loose list may keep. Past it, a line that may continue a list is a
 * cut too: the list then shows as two until the message completes, but each update stays cheap.
 */
export const MAX_LIST_TAIL = 2_048;

/**
 * Where streamed text can be cut so that the part before it is final: the start of a line that
 * begins a new top-level block, after a blank line outside a fenced code block. An indented line
 * after the blank is not a cut (it may continue a list item or an indented code block), nor is a
 * blank line whose next line has not started yet. A line that starts like a list item (`-`, `*`,
 * `+`, a digit) may continue a loose list, so it is a cut only once the tail would otherwise
 * exceed MAX_LIST_TAIL characters; so is the next item of a tight list (a plan's steps), where
 * the line above is an item too.
 */
export function stableCut(text: string): number {
  let cut = 0;
  let listCut = 0;
  let fenceOpen: string | null = null;
  let afterBlank = false;
  /** The last line that was not indented, blank or inside a fence. */
  let lastTopLine = '';
  let lineStart = 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, end);
    if (fenceOpen === null && afterBlank && /^\S/.test(line)) {
      if (NEW_BLOCK.test(line)) cut = lineStart;
      else listCut = lineStart;
    } else if (fenceOpen === null && isListItem(line) && isListItem(lastTopLine)) {
      listCut = lineStart;
    }
    if (fenceOpen === null && /^\S/.test(line)) lastTopLine = line;
    const marker = FENCE.exec(line);
    if (newline === -1) break;
    if (fenceOpen === null) {
      // A backtick fence's info string cannot hold backticks; such a line is inline code.
      if (marker?.[1] && !(marker[1].startsWith('`') && marker[2]?.includes('`'))) fenceOpen = marker[1];
      afterBlank = line.trim() === '';
    } else if (marker?.[1] && marker[1][0] === fenceOpen[0] && marker[1].length >= fenceOpen.length && marker[2]?.trim() === '') {
      fenceOpen = null;
      afterBlank = false;
    }
    lineStart = newline + 1;
  }
  return listCut > cut && text.length - cut > MAX_LIST_TAIL ? listCut : cut;
}

function isListItem(line: string): boolean {
  return LIST_ITEM.test(line) && !THEMATIC_BREAK.test(line.trimEnd());
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
    const cut = stableCut(rest);
    if (cut > 0) {
      this.settled.push(renderMarkdown(rest.slice(0, cut)));
      this.settledTo += cut;
    }
    this.tail = renderMarkdown(rest.slice(cut));
    return { keep, chunks: [...this.settled.slice(keep), this.tail] };
  }
}
