/** `grep`: lines of workspace files matching a pattern, through the Search port. */
import { z } from 'zod';
import { displayPath } from './paths';
import type { GrepResult } from '../ports';
import { existingBase, listingResult, searchOrFail } from './listing';
import { defineTool, type ToolResult } from './tool';
import { plural } from './text';

const GREP_DEFAULT_MAX = 100;
const GREP_MAX = 500;
const MAX_MATCH_CHARS = 300;

const schema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('Regular expression (ripgrep/JavaScript syntax), or a literal string with fixed_strings: true.'),
  path: z
    .string()
    .optional()
    .describe('File or folder to search, relative to the workspace root; default "." (everything).'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.py".'),
  fixed_strings: z.boolean().optional().describe('Treat pattern as literal text (no regex). Default false.'),
  case_insensitive: z.boolean().optional().describe('Ignore case. Default false.'),
  max_results: z
    .int()
    .min(1)
    .max(GREP_MAX)
    .optional()
    .describe(`Most matching lines to return; default ${GREP_DEFAULT_MAX}.`),
});

/** "path:line: text" lines, cut at the preview limit with a note that says how to narrow the search. */
function matchesResult(
  found: GrepResult,
  shown: { pattern: string; scope: string; target: string; max: number; previewBytes: number },
  displayOf: (path: string) => string,
): ToolResult {
  const { pattern, scope, target, max } = shown;
  const lines = found.matches.map((m) => `${displayOf(m.path)}:${m.line}: ${m.text.trim()}`);
  const files = new Set(found.matches.map((m) => m.path)).size;
  const summary = `grep ${JSON.stringify(pattern)}${scope}: ${plural(found.matches.length, 'match', 'matches')}${found.limitReached ? '+' : ''} in ${plural(files, 'file')}`;
  const data = { matches: found.matches.length, files, limitReached: found.limitReached };
  const tail = found.limitReached
    ? `\n[stopped at ${max} matches; narrow the pattern, path or glob to see the rest]`
    : '';
  return listingResult(
    {
      body: `${lines.join('\n')}\n`,
      summary,
      target,
      data,
      tail,
      hint: (cut) =>
        found.limitReached
          ? `${cut.headLines} of the first ${max} matching lines shown; the search stopped at ${max} matches and there are more. Narrow the pattern, path or glob.`
          : `${cut.headLines} of ${found.matches.length} matching lines shown; narrow the pattern, path or glob.`,
    },
    shown.previewBytes,
  );
}

export const grepTool = defineTool({
  name: 'grep',
  description: [
    'Search file contents for a regular expression (or literal text with fixed_strings). Returns "path:line: text" lines, in path order.',
    'Narrow with path and glob; skips .git, node_modules, .vtcode, binary and .gitignore-d files. Use it to locate definitions and usages before reading files.',
  ].join(' '),
  schema,
  mutates: false,
  async handler(args, ctx): Promise<ToolResult> {
    const base = await existingBase(ctx, args.path ?? '.', ['file', 'directory'], {
      code: 'not_a_file',
      says: 'is not a regular file or a folder; grep searches those only.',
    });
    const where = base.relative;
    const max = args.max_results ?? GREP_DEFAULT_MAX;
    const found = await searchOrFail(ctx, 'grep', `search for \`${args.pattern}\``, () =>
      ctx.ports.search.grep({
        root: base.real,
        pattern: args.pattern,
        fixed: args.fixed_strings ?? false,
        caseInsensitive: args.case_insensitive ?? false,
        include: args.glob === undefined ? [] : [args.glob],
        maxResults: max,
        maxLineChars: MAX_MATCH_CHARS,
        signal: ctx.signal,
      }),
    );
    const scope = `${where === '.' ? '' : ` in ${where}`}${args.glob === undefined ? '' : ` (${args.glob})`}`;
    const target = `${args.pattern}${scope}`;
    if (found.matches.length === 0) {
      return {
        ok: true,
        content: `No matches for \`${args.pattern}\`${scope}.`,
        summary: `grep ${JSON.stringify(args.pattern)}${scope}: no matches`,
        target,
        empty: true,
        data: { matches: 0, files: 0 },
      };
    }
    const shown = { pattern: args.pattern, scope, target, max, previewBytes: ctx.previewBytes };
    return matchesResult(found, shown, (path) => displayPath(ctx.root, base.realRoot, path));
  },
});
