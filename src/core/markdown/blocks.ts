/**
 * A line-level view of markdown-it's block tokens: for every source line, whether it is code,
 * part of a paragraph, which list item holds it; plus the headings and code blocks with their
 * lines. The plan model reads a plan through this view, and the streaming renderer cuts a
 * growing message at the top-level blocks it lists (src/extension/markdown.ts).
 *
 * Line numbers here are 0-based, as in markdown-it's `map` (start inclusive, end exclusive).
 */
import type { Token } from 'markdown-it';

export interface MarkdownHeading {
  line: number;
  /** Line after the heading (a setext heading spans its underline too). */
  end: number;
  level: number;
  text: string;
}

/** A fenced block (``` or ~~~ of any length, fence lines included) or an indented one. */
export interface MarkdownCodeBlock {
  start: number;
  end: number;
}

export interface MarkdownListItem {
  line: number;
  end: number;
  ordered: boolean;
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
          const item: MarkdownListItem = { line: map[0], end: Math.min(map[1], n), ordered: ordered.at(-1) === true };
          this.itemStart[item.line] = item;
          // Nested items come later in the token stream, so the innermost item wins.
          for (let l = item.line; l < item.end; l++) this.innermost[l] = item;
          break;
        }
        case 'heading_open':
          if (map)
            this.headings.push({
              line: map[0],
              end: map[1],
              level: Number(t.tag.slice(1)),
              text: (tokens[i + 1]?.content ?? '').trim(),
            });
          break;
        case 'paragraph_open':
          if (map) this.paragraph.fill(1, map[0], Math.min(map[1], n));
          break;
        case 'fence':
        case 'code_block':
          if (map) {
            this.codeBlocks.push({ start: map[0], end: Math.min(map[1], n) });
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

/** The blocks directly in the document, in order. */
export function topLevelBlocks(tokens: readonly Token[]): TopLevelBlock[] {
  const out: TopLevelBlock[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.level === 0 && t.nesting >= 0 && t.map) out.push({ type: t.type, start: t.map[0], end: t.map[1], token: i });
  }
  return out;
}
