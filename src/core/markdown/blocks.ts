/**
 * A line-level view of markdown-it's block tokens: for every source line, whether it is code,
 * part of a paragraph, which list item holds it; plus the headings and code blocks with their
 * lines. The plan model reads a plan through this view, and the streaming renderer cuts a
 * growing message at the top-level blocks it lists (src/extension/markdown.ts).
 *
 * Line numbers here are 0-based, as in markdown-it's `map` (start inclusive, end exclusive).
 */
import type { Token } from 'markdown-it';
import { parseBlockTokens } from './parser';

export interface MarkdownHeading {
  line: number;
  /** Line after the heading (a setext heading spans its underline too). */
  end: number;
  level: number;
  text: string;
}

export interface MarkdownCodeBlock {
  start: number;
  end: number;
  /** A fence (```/~~~ of any length) rather than an indented block. */
  fenced: boolean;
}

export interface MarkdownListItem {
  line: number;
  end: number;
  ordered: boolean;
  /** The item's number in an ordered list, as written. */
  number: number | null;
  /** The list item this one is nested in. */
  parent: MarkdownListItem | null;
}

/** A block directly in the document (not inside a list or quote), for cutting a stream. */
export interface TopLevelBlock {
  type: string;
  start: number;
  end: number;
  /** Index of the block's first token. */
  token: number;
}

export class MarkdownBlocks {
  readonly headings: MarkdownHeading[] = [];
  readonly codeBlocks: MarkdownCodeBlock[] = [];
  readonly items: MarkdownListItem[] = [];
  private readonly code: Uint8Array;
  private readonly paragraph: Uint8Array;
  private readonly itemStart: Array<MarkdownListItem | undefined>;
  private readonly innermost: Array<MarkdownListItem | undefined>;

  constructor(
    readonly lines: readonly string[],
    tokens: readonly Token[],
  ) {
    const n = lines.length;
    this.code = new Uint8Array(n);
    this.paragraph = new Uint8Array(n);
    this.itemStart = new Array<MarkdownListItem | undefined>(n);
    this.innermost = new Array<MarkdownListItem | undefined>(n);
    const items: MarkdownListItem[] = [];
    const ordered: boolean[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      const map = t.map;
      switch (t.type) {
        case 'bullet_list_open':
        case 'ordered_list_open':
          ordered.push(t.type === 'ordered_list_open');
          break;
        case 'bullet_list_close':
        case 'ordered_list_close':
          ordered.pop();
          break;
        case 'list_item_open': {
          if (!map) break;
          const isOrdered = ordered.at(-1) === true;
          const item: MarkdownListItem = {
            line: map[0],
            end: Math.min(map[1], n),
            ordered: isOrdered,
            number: isOrdered && t.info !== '' ? Number(t.info) : null,
            parent: items.at(-1) ?? null,
          };
          items.push(item);
          this.items.push(item);
          this.itemStart[item.line] = item;
          for (let l = item.line; l < item.end; l++) this.innermost[l] = item;
          break;
        }
        case 'list_item_close':
          items.pop();
          break;
        case 'heading_open':
          if (map) this.headings.push({ line: map[0], end: map[1], level: Number(t.tag.slice(1)), text: (tokens[i + 1]?.content ?? '').trim() });
          break;
        case 'paragraph_open':
          if (map) this.paragraph.fill(1, map[0], Math.min(map[1], n));
          break;
        case 'fence':
        case 'code_block':
          if (map) {
            this.codeBlocks.push({ start: map[0], end: Math.min(map[1], n), fenced: t.type === 'fence' });
            this.code.fill(1, map[0], Math.min(map[1], n));
          }
          break;
      }
    }
  }

  /** The line is inside a fenced or indented code block (its fence lines included). */
  isCode(line: number): boolean {
    return this.code[line] === 1;
  }

  /** The line belongs to a paragraph (lazy continuation lines included). */
  isParagraph(line: number): boolean {
    return this.paragraph[line] === 1;
  }

  /** The list item whose first line this is. */
  itemStartingAt(line: number): MarkdownListItem | undefined {
    return this.itemStart[line];
  }

  /** The innermost list item that holds the line. */
  itemHolding(line: number): MarkdownListItem | undefined {
    return this.innermost[line];
  }
}

/** `text` split into lines (`\r\n` and `\r` read as `\n`, as markdown-it reads them) and its block view. */
export function markdownBlocks(text: string): MarkdownBlocks {
  const normalized = text.replace(/\r\n?/g, '\n');
  return new MarkdownBlocks(normalized.split('\n'), parseBlockTokens(normalized));
}

/** The blocks directly in the document, in order. */
export function topLevelBlocks(tokens: readonly Token[]): TopLevelBlock[] {
  const out: TopLevelBlock[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.level === 0 && t.nesting >= 0 && t.map) out.push({ type: t.type, start: t.map[0], end: t.map[1], token: i });
  }
  return out;
}
