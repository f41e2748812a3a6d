/**
 * The words of a shell command (RO-2, RO-3, NAV-2..NAV-4): `shell-quote` splits the text the
 * scan (shell-scan.ts) hands over, one segment or redirection target at a time, while scanning.
 * So a command is read once, and the read-only policy (shell.ts), the workspace path rule
 * (paths.ts) and the navigation accounting (guards/navigation.ts) all consume that one reading.
 *
 * Parameter expansions come back marked (MARK + name + MARK) instead of as the empty string
 * shell-quote would put there, so the path rule can refuse a path it cannot resolve. The policy
 * refuses every segment the scan found dynamic before it looks at words, so it never sees a marker.
 */
import { parse, type ParseEntry } from 'shell-quote';
import type { Word } from './args';
import { errorMessage } from '../errors';

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

/**
 * The words of one text, or why shell-quote gave up (it throws on input such as `${x`).
 * `syntax` names the first operator or comment shell-quote found (`(`, `&`, `#`): the scan has
 * then already flagged the segment, since it splits at every operator it allows and escapes a `#`
 * inside a word. Their text is kept among the words all the same, so that the path rule checks
 * it too: reading more words can only refuse more.
 */
export type SegmentWords = { ok: true; words: Word[]; syntax: string | null } | { ok: false; reason: string };

/**
 * Text shell-quote would only split at blanks: no quotes, escapes, expansions, globs, comments or
 * operators. Parsing it is skipped, because shell-quote's cost is per call (a check of a 16 KiB
 * command of short segments was mostly that overhead); test/unit/policy/robustness.test.ts
 * checks that both readings agree.
 */
const PLAIN = /^[\w \t./:@%+,=-]*$/;

/** The words of one segment's text or one redirection target, as the scan hands them over. */
export function splitWords(text: string): SegmentWords {
  if (PLAIN.test(text)) {
    const trimmed = text.trim();
    return {
      ok: true,
      words: trimmed === '' ? [] : trimmed.split(/[ \t]+/).map((t) => ({ text: t, glob: false })),
      syntax: null,
    };
  }
  let entries: ParseEntry[];
  try {
    entries = parse(text, keepExpansions);
  } catch (err) {
    const detail = errorMessage(err);
    return { ok: false, reason: `the shell parser cannot read the command (${detail}), so it cannot be checked` };
  }
  return { ok: true, ...wordsOf(entries) };
}

/** The only conversion of shell-quote's entries into words; see `SegmentWords` for `syntax`. */
function wordsOf(entries: readonly ParseEntry[]): { words: Word[]; syntax: string | null } {
  const words: Word[] = [];
  let syntax: string | null = null;
  for (const entry of entries) {
    if (typeof entry === 'string') {
      words.push({ text: entry, glob: false });
    } else if ('op' in entry && entry.op === 'glob') {
      words.push({ text: entry.pattern, glob: true });
    } else if ('comment' in entry) {
      // shell-quote ends a word at any `#` and swallows the rest of the line as one comment.
      syntax ??= '#';
      words.push(
        ...entry.comment
          .split(/[ \t]+/)
          .filter((part) => part !== '')
          .map((part) => ({ text: part, glob: false })),
      );
    } else {
      syntax ??= entry.op;
      words.push({ text: entry.op, glob: false });
    }
  }
  return { words, syntax };
}
