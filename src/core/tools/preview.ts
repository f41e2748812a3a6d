/**
 * Cutting a tool's text to its preview limit (NAV-5). The cut falls on a line break where one is
 * near, never inside a UTF-8 character, and the text then says how much was cut and how to see
 * the rest, so the model pages instead of guessing.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Room kept for the note appended to a cut text. */
const NOTE_RESERVE = 320;
/** A cut moves back to a line break when one lies within this many bytes. */
const LINE_SNAP = 2048;

export function byteLength(text: string): number {
  return encoder.encode(text).length;
}

export interface Cut {
  text: string;
  shownBytes: number;
  totalBytes: number;
  /** Complete lines kept from the start. */
  headLines: number;
}

function charBoundary(bytes: Uint8Array, n: number): number {
  let i = Math.max(0, Math.min(n, bytes.length));
  while (i > 0 && i < bytes.length && ((bytes[i] as number) & 0xc0) === 0x80) i -= 1;
  return i;
}

function headBytes(bytes: Uint8Array, limit: number): number {
  const end = charBoundary(bytes, limit);
  if (end >= bytes.length) return bytes.length;
  for (let i = end - 1; i >= Math.max(0, end - LINE_SNAP); i -= 1) if (bytes[i] === 0x0a) return i + 1;
  return end;
}

function tailStart(bytes: Uint8Array, limit: number): number {
  let start = bytes.length - limit;
  if (start <= 0) return 0;
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
  for (let i = start; i < Math.min(bytes.length, start + LINE_SNAP); i += 1) if (bytes[i - 1] === 0x0a) return i;
  return start;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

function bodyLimit(limit: number): number {
  return Math.max(Math.min(limit, 64), limit - NOTE_RESERVE);
}

/** The start of `text` within `limit` bytes, or `null` when it already fits. */
export function cutHead(text: string, limit: number): Cut | null {
  const bytes = encoder.encode(text);
  if (bytes.length <= limit) return null;
  const end = headBytes(bytes, bodyLimit(limit));
  const shown = decoder.decode(bytes.subarray(0, end));
  return { text: shown, shownBytes: end, totalBytes: bytes.length, headLines: countLines(shown) };
}

/**
 * A third of the room for the start and the rest for the end, the middle replaced by a marker:
 * command output carries its verdict (failures, summaries) at the end.
 */
export function cutHeadTail(text: string, limit: number): Cut | null {
  const bytes = encoder.encode(text);
  if (bytes.length <= limit) return null;
  const room = bodyLimit(limit) - 48;
  const headEnd = headBytes(bytes, Math.floor(room / 3));
  const tailFrom = Math.max(headEnd, tailStart(bytes, room - headEnd));
  const head = decoder.decode(bytes.subarray(0, headEnd));
  const tail = decoder.decode(bytes.subarray(tailFrom));
  const omitted = tailFrom - headEnd;
  const sep = head === '' || head.endsWith('\n') ? '' : '\n';
  return {
    text: `${head}${sep}[… ${omitted} bytes cut here …]\n${tail}`,
    shownBytes: headEnd + (bytes.length - tailFrom),
    totalBytes: bytes.length,
    headLines: countLines(head),
  };
}

/** The note closing a cut text: `[output cut: showed 8190 of 52000 bytes. <hint>]`. */
export function cutNote(cut: Cut, hint: string): string {
  const sep = cut.text.endsWith('\n') ? '' : '\n';
  return `${sep}[output cut to the preview limit: showed ${cut.shownBytes} of ${cut.totalBytes} bytes. ${hint}]`;
}
