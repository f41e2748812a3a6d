/**
 * `list_dir`: the entries of a workspace folder, up to three levels deep. Folders end in `/`,
 * symlinks in `@` (not followed); `.git` and `node_modules` are shown but not expanded.
 */
import { posix as path } from 'node:path';
import { z } from 'zod';
import type { DirEntry, FileSystem } from '../ports';
import { existingBase, listingResult } from './listing';
import { defineTool, type ToolResult } from './tool';
import { plural } from './text';
import { errorMessage } from '../errors';

export const LIST_DIR_MAX_ENTRIES = 500;
const NOT_EXPANDED = new Set(['.git', 'node_modules']);

const schema = z.strictObject({
  path: z.string().optional().describe('Folder relative to the workspace root; default "." (the root).'),
  depth: z.int().min(1).max(3).optional().describe('Levels to show, 1-3; default 1 (only the folder itself).'),
});

function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

interface Listing {
  lines: string[];
  count: number;
  omitted: number;
}

async function list(fs: FileSystem, dir: string, depth: number, indent: string, out: Listing): Promise<void> {
  let entries: DirEntry[];
  try {
    entries = (await fs.readDir(dir)).sort(byName);
  } catch (err) {
    out.lines.push(`${indent}[not readable: ${errorMessage(err)}]`);
    return;
  }
  for (const entry of entries) {
    if (out.count >= LIST_DIR_MAX_ENTRIES) {
      out.omitted += 1;
      continue;
    }
    out.count += 1;
    if (entry.kind === 'directory') {
      const skip = NOT_EXPANDED.has(entry.name) && depth > 1;
      out.lines.push(`${indent}${entry.name}/${skip ? ' (not expanded)' : ''}`);
      if (depth > 1 && !skip) await list(fs, path.join(dir, entry.name), depth - 1, `${indent}  `, out);
    } else {
      out.lines.push(`${indent}${entry.name}${entry.kind === 'symlink' ? '@' : ''}`);
    }
  }
}

export const listDirTool = defineTool({
  name: 'list_dir',
  description: [
    'List a folder of the workspace. Folders end in "/", symbolic links in "@". depth 2 or 3 shows subfolders indented (two spaces a level); .git and node_modules are not expanded.',
    `At most ${LIST_DIR_MAX_ENTRIES} entries; list a subfolder for more. Prefer find_files for "where is X" questions across the tree.`,
  ].join(' '),
  schema,
  mutates: false,
  async handler(args, ctx): Promise<ToolResult> {
    const target = await existingBase(ctx, args.path ?? '.', ['directory'], {
      code: 'not_a_directory',
      says: 'is a file, not a folder; use read_file to read it.',
    });
    const rel = target.relative;
    const depth = args.depth ?? 1;
    const out: Listing = { lines: [], count: 0, omitted: 0 };
    await list(ctx.ports.fs, target.real, depth, '', out);
    if (out.count === 0) {
      return {
        ok: true,
        content: `${rel}/ is empty.`,
        summary: `listed ${rel} (empty)`,
        target: rel,
        empty: true,
        data: { entries: 0 },
      };
    }
    // Entries below a folder past the cap are not read, so the count of the rest is a lower bound.
    const omitted =
      out.omitted > 0
        ? `at least ${out.omitted} more entries not listed (the listing stops at ${LIST_DIR_MAX_ENTRIES}); list a subfolder or use find_files.`
        : null;
    if (omitted !== null) out.lines.push(`… ${omitted}`);
    return listingResult(
      {
        body: `${rel === '.' ? './' : `${rel}/`}\n${out.lines.join('\n')}\n`,
        summary: `listed ${rel}${depth > 1 ? ` (depth ${depth})` : ''}: ${plural(out.count + out.omitted, 'entry', 'entries')}`,
        target: rel,
        data: { entries: out.count + out.omitted },
        // The cut drops the last line, which may be the one saying that entries were left out.
        hint: (cut) =>
          omitted === null
            ? 'List a subfolder, or use a smaller depth.'
            : `${cut.headLines - 1} entries shown, ${omitted}`,
      },
      ctx.previewBytes,
    );
  },
});
