/** Small text facts shared by the file tools. */

const SNIFF_CHARS = 8192;

/**
 * NUL characters, or mostly undecodable bytes (U+FFFD after UTF-8 decoding), in the first 8 KiB
 * mark a file as binary, as git and ripgrep judge it.
 */
export function looksBinary(text: string): boolean {
  const head = text.slice(0, SNIFF_CHARS);
  if (head.includes('\0')) return true;
  let replaced = 0;
  for (const ch of head) if (ch === '\uFFFD') replaced += 1;
  return head.length > 0 && replaced / head.length > 0.3;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** 1-based line number of the character at `index`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * `line` cut to at most `maxChars` characters around the match at [`start`, `end`) (UTF-16
 * offsets), with `…` where something was cut: a match deep in a minified line must be visible,
 * and a search must not hold megabytes of one line per match.
 */
export function excerptAround(line: string, start: number, end: number, maxChars: number): string {
  if (line.length <= maxChars) return line;
  const room = maxChars - 2; // the two ellipses
  const matchEnd = Math.min(end, start + room);
  let from = Math.max(0, start - Math.floor((room - (matchEnd - start)) / 2));
  let to = Math.min(line.length, from + room);
  from = Math.max(0, to - room);
  // Never split a surrogate pair.
  if (from > 0 && isLowSurrogate(line.charCodeAt(from))) from += 1;
  if (to < line.length && isLowSurrogate(line.charCodeAt(to))) to -= 1;
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
