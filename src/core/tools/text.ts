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
