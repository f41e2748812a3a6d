/** A value the CLI prints as JSON. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json | undefined };

/**
 * One line of JSON with `", "` and `": "` separators: the form every CLI contract in the issues is
 * written in, so `--json` output reads the same everywhere. Undefined properties are left out.
 */
export function contractJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map((v: Json) => contractJson(v)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as { [key: string]: Json | undefined }).filter(
      (e): e is [string, Json] => e[1] !== undefined,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${contractJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}
