/**
 * A streaming parser that looks for a tag must not release text that may still become that tag
 * when the next delta arrives (`<propo` + `sed_plan>`). This tells how much of the end to hold.
 */

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
export function partialTagSuffix(text: string, tag: string): number {
  const first = tag[0];
  if (first === undefined) return 0;
  // Only a suffix that starts with the tag's first character can be a prefix of it; scanning
  // for that character keeps a long text without one cheap.
  for (
    let p = text.indexOf(first, Math.max(0, text.length - (tag.length - 1)));
    p !== -1;
    p = text.indexOf(first, p + 1)
  ) {
    if (tag.startsWith(text.slice(p))) return text.length - p;
  }
  return 0;
}
