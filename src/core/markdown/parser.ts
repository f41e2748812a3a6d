/**
 * The one markdown configuration (PLAN-1, UI-1): the chat renderer (src/extension/markdown.ts)
 * and the plan model (src/core/plan/parse.ts) both parse with a parser made here, so a plan's
 * structure is exactly what the chat shows: a heading the chat renders is a heading the
 * validator sees, and whatever the chat shows as code is code for the validator too.
 *
 * Block structure does not depend on the inline rules, so the plan model runs the block rules
 * alone (cheaper); the renderer runs everything.
 */
import MarkdownIt, { type MarkdownIt as MarkdownParser, type Token } from 'markdown-it';

const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

/** Links the chat may render: http, https and mailto; anything else stays plain text. */
export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

/** A parser with the shared configuration: raw HTML is text, only safe targets become links. */
export function createMarkdownIt(): MarkdownParser {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  md.validateLink = isSafeHref;
  return md;
}

let blockParser: MarkdownParser | null = null;

/** Block tokens only (their `inline` children are not parsed): headings, lists, code, paragraphs, with line maps. */
export function parseBlockTokens(text: string): Token[] {
  if (blockParser === null) {
    blockParser = createMarkdownIt();
    blockParser.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);
  }
  return blockParser.parse(text, {});
}
