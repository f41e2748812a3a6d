/** `find_files`: workspace files whose path matches a glob, through the Search port. */
import { z } from 'zod';
import { displayPath } from './paths';
import { existingBase, listingResult, searchOrFail } from './listing';
import { defineTool, type ToolResult } from './tool';
import { plural } from './text';

const FIND_FILES_DEFAULT_MAX = 200;
const FIND_FILES_MAX = 1000;

const schema = z.strictObject({
  glob: z
    .string()
    .min(1)
    .describe('Glob such as "*.ts" (any depth), "src/**/*.test.ts" (anchored at path), "{package,tsconfig}.json".'),
  path: z.string().optional().describe('Folder to search below, relative to the workspace root; default ".".'),
  max_results: z
    .int()
    .min(1)
    .max(FIND_FILES_MAX)
    .optional()
    .describe(`Most paths to return; default ${FIND_FILES_DEFAULT_MAX}.`),
});

export const findFilesTool = defineTool({
  name: 'find_files',
  description: [
    'Find files by name or path pattern. A glob without "/" matches file names at any depth ("*.md", "README*"); one with "/" is matched against the path below `path` ("src/**/*.ts").',
    'Skips .git, node_modules, .vtcode and files ignored by .gitignore. Returns workspace-relative paths in path order.',
  ].join(' '),
  schema,
  mutates: false,
  async handler(args, ctx): Promise<ToolResult> {
    const base = await existingBase(ctx, args.path ?? '.', ['directory'], {
      code: 'not_a_directory',
      says: 'is not a folder.',
    });
    const where = base.relative;
    const max = args.max_results ?? FIND_FILES_DEFAULT_MAX;
    const found = await searchOrFail(ctx, 'find_files', `use the glob \`${args.glob}\``, () =>
      ctx.ports.search.findFiles({ root: base.real, glob: args.glob, maxResults: max, signal: ctx.signal }),
    );
    const paths = found.files.map((f) => displayPath(ctx.root, base.realRoot, f));
    const scope = where === '.' ? '' : ` under ${where}`;
    const target = `${args.glob}${scope}`;
    if (paths.length === 0) {
      return {
        ok: true,
        content: `No files match \`${args.glob}\`${scope}.`,
        summary: `found no files for ${target}`,
        target,
        empty: true,
        data: { count: 0 },
      };
    }
    return listingResult(
      {
        body: `${paths.join('\n')}\n`,
        summary: `found ${plural(paths.length, 'file')}${found.limitReached ? '+' : ''} for ${target}`,
        target,
        data: { count: paths.length, limitReached: found.limitReached },
        tail: found.limitReached ? `\n[stopped at ${max} paths; narrow the glob or the path to see the rest]` : '',
        hint: (cut) =>
          found.limitReached
            ? `${cut.headLines} of the first ${max} paths shown; the search stopped at ${max} paths and there are more. Narrow the glob or the path.`
            : `${paths.length} paths found, ${cut.headLines} shown; narrow the glob or the path.`,
      },
      ctx.previewBytes,
    );
  },
});
