/**
 * Quote-aware scanning shared by the step parser, the verify-item splitter, the validator's prose
 * checks and the tracker's step suffixes (PLAN-3, PLAN-4, TRK-6).
 *
 * A `'` opens a quote only when it does not follow a letter or digit, so prose apostrophes
 * (`doesn't`, `user's`) never swallow the rest of a line, while shell quotes (`rg -n 'a,b'`) do.
 * `"` always quotes. Backticks make CommonMark code spans: a run of N backticks opens a span that
 * only a run of exactly N closes, so the fence `canonicalPlan` writes around an entry holding a
 * shorter run (`` ```` rg -c '```' docs, a.md ```` ``) protects the whole entry; a run with no
 * closer is literal text. Brackets, parentheses and braces outside quotes and spans nest.
 */

type Quote = "'" | '"';

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Length of the backtick run starting at `at`. */
function runLength(text: string, at: number): number {
  let end = at;
  while (text[end] === '`') end++;
  return end - at;
}

/** Index of the last backtick of the first run of exactly `length` at or after `from`; -1 when none. */
function codeSpanEnd(text: string, from: number, length: number): number {
  for (let i = text.indexOf('`', from); i !== -1; i = text.indexOf('`', i)) {
    const run = runLength(text, i);
    if (run === length) return i + run - 1;
    i += run;
  }
  return -1;
}

/**
 * Walks `text` and calls `visit(index, state)` for every character that is outside quotes and
 * code spans, and for the first character of each (before it changes the state). Returning
 * `true` from `visit` stops the walk.
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
    } else if (ch === '`') {
      const run = runLength(text, i);
      const end = codeSpanEnd(text, i + run, run);
      if (end !== -1) {
        i = end;
        continue;
      }
      // An unclosed run is literal text: its other backticks are visited and open nothing.
      for (let k = i + 1; k < i + run; k++) if (visit(k, depth) === true) return;
      i += run - 1;
    } else if (ch === '"') {
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

/**
 * The content of a code span wrapping all of `text` (`` `npm test` `` → `npm test`), else `text`
 * trimmed. Text made only of backticks names nothing and becomes empty.
 */
export function unwrapCode(text: string): string {
  const t = text.trim();
  const run = runLength(t, 0);
  if (run === t.length) return '';
  return run > 0 && codeSpanEnd(t, run, run) === t.length - 1 ? t.slice(run, -run).trim() : t;
}

/** Text with inline code spans blanked out (same length), for prose-only checks. */
export function blankCodeSpans(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const run = Math.max(1, runLength(text, i));
    const end = text[i] === '`' ? codeSpanEnd(text, i + run, run) : -1;
    const next = end === -1 ? i + run : end + 1;
    out += end === -1 ? text.slice(i, next) : ' '.repeat(next - i);
    i = next;
  }
  return out;
}

/** Text with quoted strings and code spans blanked out (same length): what is left is prose. */
export function blankQuoted(text: string): string {
  if (!/['"`]/.test(text)) return text;
  const keep = new Uint8Array(text.length);
  scanTopLevel(text, (i) => {
    keep[i] = 1;
    // The scanner skips an escaped character so that it quotes or splits nothing, but it is prose,
    // as it is on a line without quotes (returned whole above).
    if (text[i] === '\\') keep[i + 1] = 1;
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
