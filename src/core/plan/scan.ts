/**
 * Quote-aware scanning shared by the step parser and the verify-item splitter (PLAN-3, PLAN-4).
 *
 * A `'` opens a quote only when it does not follow a letter or digit, so prose apostrophes
 * (`doesn't`, `user's`) never swallow the rest of a line, while shell quotes (`rg -n 'a,b'`) do.
 * `"` and `` ` `` always quote. Brackets, parentheses and braces outside quotes nest.
 */

type Quote = "'" | '"' | '`';

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Walks `text` and calls `visit(index, state)` for every character that is outside quotes
 * (before the character changes the state). Returning `true` from `visit` stops the walk.
 */
export function scanTopLevel(text: string, visit: (index: number, depth: number) => boolean | void): void {
  let quote: Quote | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== null) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (visit(i, depth) === true) return;
    if (ch === '\\') {
      i++;
    } else if (ch === '"' || ch === '`') {
      if (text.indexOf(ch, i + 1) !== -1) quote = ch;
    } else if (ch === "'") {
      const prev = i > 0 ? (text[i - 1] as string) : '';
      if (!WORD_CHAR.test(prev) && text.indexOf("'", i + 1) !== -1) quote = "'";
    } else if (ch === '[' || ch === '(' || ch === '{') {
      depth++;
    } else if ((ch === ']' || ch === ')' || ch === '}') && depth > 0) {
      depth--;
    }
  }
}

/** Splits on `separator` where it is outside quotes and at bracket depth 0; items are trimmed, empty ones dropped. */
export function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let start = 0;
  scanTopLevel(text, (i, depth) => {
    if (depth === 0 && text.startsWith(separator, i)) {
      out.push(text.slice(start, i));
      start = i + separator.length;
    }
  });
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Index of the `]` closing the `[` at `open`, honouring quotes and nesting; -1 when unclosed. */
export function matchingBracket(text: string, open: number): number {
  let found = -1;
  const inner = text.slice(open);
  scanTopLevel(inner, (i, depth) => {
    if (i > 0 && depth === 1 && inner[i] === ']') {
      found = open + i;
      return true;
    }
    return false;
  });
  return found;
}

/** Removes one pair of wrapping backticks (`` `npm test` `` → `npm test`). */
export function unwrapCode(text: string): string {
  const t = text.trim();
  const m = /^(`+)([\s\S]*?)\1$/.exec(t);
  return m && !(m[2] as string).includes(m[1] as string) ? (m[2] as string).trim() : t;
}

/** Text with inline code spans blanked out (same length), for prose-only checks. */
export function blankCodeSpans(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));
}

/** Text with quoted strings and code spans blanked out (same length): what is left is prose. */
export function blankQuoted(text: string): string {
  if (!/['"`]/.test(text)) return text;
  const keep = new Uint8Array(text.length);
  scanTopLevel(text, (i) => {
    keep[i] = 1;
  });
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || keep[i] !== 1) {
      if (i > start) parts.push(text.slice(start, i));
      if (i < text.length) parts.push(' ');
      start = i + 1;
    }
  }
  return parts.join('');
}
