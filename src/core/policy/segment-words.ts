/**
 * `shell-quote`'s reading of one scanned segment, parsed once and shared by the read-only policy
 * (shell.ts) and the workspace path check (paths.ts): parsing is most of a check's time.
 *
 * Parameter expansions come back marked (MARK + name + MARK) instead of as the empty string
 * shell-quote would put there, so the path check can refuse a path it cannot resolve. The policy
 * only parses segments the scan found free of expansions, where the marker never appears.
 */
import { parse, type ParseEntry } from 'shell-quote';
import type { ScannedSegment } from './shell-scan';

/** Marks a parameter expansion inside a word; NUL cannot occur in a scanned command. */
export const MARK = '\u0000';

/**
 * The environment shell-quote expands variables from: every name reads as a marked name. An object
 * rather than a function, because shell-quote re-splits every word when `env` is a function (that
 * alone doubled the check's time). A bare `$` stays `$` (undefined here), as in sh.
 */
const keepExpansions: Record<string, string> = new Proxy(
  {},
  { get: (_, name) => (typeof name === 'string' && name !== '' ? `${MARK}${name}${MARK}` : undefined) },
);

const parsed = new WeakMap<ScannedSegment, ParseEntry[]>();

export function segmentEntries(segment: ScannedSegment): ParseEntry[] {
  let entries = parsed.get(segment);
  if (entries === undefined) {
    entries = parse(segment.words, keepExpansions);
    parsed.set(segment, entries);
  }
  return entries;
}

/** The entries of one redirection target word. */
export function targetEntries(target: string): ParseEntry[] {
  return parse(target, keepExpansions);
}
