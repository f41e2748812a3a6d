/**
 * `shell-quote`'s reading of one scanned segment, parsed once and shared by the read-only policy
 * (shell.ts) and the workspace path check (paths.ts): parsing is most of a check's time.
 *
 * Parameter expansions come back marked (MARK + name + MARK) instead of as the empty string
 * shell-quote would put there, so the path check can refuse a path it cannot resolve. The policy
 * only parses segments the scan found free of expansions, where the marker never appears.
 */
import { parse, type ParseEntry } from 'shell-quote';
import type { Redirect, ScannedSegment } from './shell-scan';

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

/** What shell-quote made of a text, or why it gave up (it throws on input such as `${x`). */
export type Parsed = { ok: true; entries: ParseEntry[] } | { ok: false; reason: string };

/**
 * Text shell-quote would only split at blanks: no quotes, escapes, expansions, globs, comments or
 * operators. Parsing it is skipped, because shell-quote's cost is per call (a check of a 16 KiB
 * command of short segments was mostly that overhead); test/unit/policy/robustness.test.ts
 * checks that both readings agree.
 */
const PLAIN = /^[\w \t./:@%+,=-]*$/;

function parseSafely(text: string): Parsed {
  if (PLAIN.test(text)) {
    const trimmed = text.trim();
    return { ok: true, entries: trimmed === '' ? [] : trimmed.split(/[ \t]+/) };
  }
  try {
    return { ok: true, entries: parse(text, keepExpansions) };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `the shell parser cannot read the command (${detail}), so it cannot be checked` };
  }
}

export function segmentEntries(segment: ScannedSegment): Parsed {
  // Kept on the segment rather than in a WeakMap: with thousands of segments the map's
  // bookkeeping cost more than the parse.
  segment.parsed ??= parseSafely(segment.words);
  return segment.parsed;
}

/** The entries of a redirection's target word (call only for redirections that have one). */
export function targetEntries(redirect: Redirect): Parsed {
  redirect.parsedTarget ??= parseSafely(redirect.targetWord ?? '');
  return redirect.parsedTarget;
}
