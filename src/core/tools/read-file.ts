/**
 * `read_file`: a text file of the workspace with line numbers, a line range at a time. Binary
 * files are refused; output past the preview limit is cut at a line with the next `start_line`.
 */
import { z } from 'zod';
import { resolveWorkspacePath } from './paths';
import { cutHead, cutNote } from './preview';
import { defineTool, ToolFailure, type ToolContext, type ToolResult } from './tool';
import { looksBinary } from './text';

/** Files larger than this are not read at all; grep or a ranged `sed -n` gets at them. */
const READ_FILE_MAX_BYTES = 16 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;

const schema = z
  .strictObject({
    path: z.string().min(1).describe('File path relative to the workspace root, e.g. "src/index.ts".'),
    start_line: z.int().min(1).optional().describe('First line to show, 1-based. Default 1.'),
    end_line: z
      .int()
      .min(1)
      .optional()
      .describe('Last line to show, inclusive. Default: as far as the preview limit allows.'),
    offset: z
      .int()
      .min(1)
      .optional()
      .describe('Same as start_line (for callers used to offset/limit); do not combine with start_line/end_line.'),
    limit: z.int().min(1).optional().describe('With offset: how many lines to show.'),
  })
  .superRefine((a, ctx) => {
    if ((a.offset !== undefined || a.limit !== undefined) && (a.start_line !== undefined || a.end_line !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['offset'],
        message: 'use either start_line/end_line or offset/limit, not both',
      });
    }
    if (a.start_line !== undefined && a.end_line !== undefined && a.end_line < a.start_line) {
      ctx.addIssue({
        code: 'custom',
        path: ['end_line'],
        message: `end_line (${a.end_line}) is before start_line (${a.start_line})`,
      });
    }
  });

function clipLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length} characters]`;
}

/** The file's text; refuses a path that is missing, not a regular file, too large or binary. */
async function readTextFile(ctx: ToolContext, path: string): Promise<{ rel: string; text: string }> {
  const target = await resolveWorkspacePath(ctx.ports.fs, ctx.root, path);
  const rel = target.relative;
  if (target.stat === null)
    throw new ToolFailure('not_found', `\`${rel}\` does not exist. Check the name with list_dir or find_files.`, rel);
  if (target.stat.kind === 'directory')
    throw new ToolFailure('not_a_file', `\`${rel}\` is a folder; use list_dir to see what it contains.`, rel);
  if (target.stat.kind !== 'file') throw new ToolFailure('not_a_file', `\`${rel}\` is not a regular file.`, rel);
  if (target.stat.size > READ_FILE_MAX_BYTES) {
    throw new ToolFailure(
      'too_large',
      `\`${rel}\` is ${target.stat.size} bytes, more than read_file handles (${READ_FILE_MAX_BYTES}). Use grep to find the part you need, or run_command with \`sed -n 'A,Bp' ${rel}\`.`,
      rel,
    );
  }
  const text = await ctx.ports.fs.readText(target.real);
  if (text === null) throw new ToolFailure('not_found', `\`${rel}\` does not exist.`, rel);
  if (looksBinary(text))
    throw new ToolFailure(
      'binary',
      `\`${rel}\` is a binary file (${target.stat.size} bytes); read_file shows text only.`,
      rel,
    );
  return { rel, text };
}

/** Lines `start`..`end` (1-based) as "  12\tcode", CR dropped and over-long lines clipped. */
function numberedLines(lines: readonly string[], start: number, end: number): string {
  const width = String(end).length;
  return lines
    .slice(start - 1, end)
    .map(
      (line, i) => `${String(start + i).padStart(width)}\t${clipLine(line.endsWith('\r') ? line.slice(0, -1) : line)}`,
    )
    .join('\n');
}

export const readFileTool = defineTool({
  name: 'read_file',
  description: [
    'Read a text file of the workspace. Returns numbered lines ("  12\\tcode"); the number and the tab are not part of the file.',
    'Read a range with start_line/end_line (1-based, inclusive) when you know where to look; long files are cut at the preview limit and the result names the start_line to continue from.',
    'Binary files are refused. Use list_dir/find_files to discover paths and grep to locate text first.',
  ].join(' '),
  schema,
  mutates: false,
  async handler(args, ctx): Promise<ToolResult> {
    const { rel, text } = await readTextFile(ctx, args.path);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const total = lines.length;
    if (total === 0) {
      return {
        ok: true,
        content: `${rel} is empty (0 lines).`,
        summary: `read ${rel} (empty)`,
        target: rel,
        empty: true,
        data: { totalLines: 0 },
      };
    }
    const start = args.start_line ?? args.offset ?? 1;
    if (start > total) {
      throw new ToolFailure(
        'invalid_args',
        `start_line ${start} is past the end of \`${rel}\`, which has ${total} line${total === 1 ? '' : 's'}.`,
        rel,
      );
    }
    const requestedEnd = args.end_line ?? (args.limit !== undefined ? start + args.limit - 1 : total);
    const end = Math.min(requestedEnd, total);
    const body = numberedLines(lines, start, end);
    const cut = cutHead(`${body}\n`, ctx.previewBytes);
    if (cut === null) {
      const range = start === 1 && end === total ? `all ${total} lines` : `lines ${start}-${end} of ${total}`;
      return {
        ok: true,
        content: `${body}\n[${rel}: ${range}]`,
        summary: `read ${rel} (lines ${start}-${end})`,
        target: rel,
        data: { startLine: start, endLine: end, totalLines: total },
      };
    }
    const lastShown = start + Math.max(cut.headLines, 1) - 1;
    const hint =
      cut.headLines === 0
        ? `Line ${start} alone is longer than the limit; use run_command with \`cut -c\` or grep for the part you need.`
        : `Lines ${start}-${lastShown} of ${total} shown; continue with start_line=${lastShown + 1}.`;
    return {
      ok: true,
      content: cut.text + cutNote(cut, hint),
      summary: `read ${rel} (lines ${start}-${lastShown}, cut)`,
      target: rel,
      truncated: { shownBytes: cut.shownBytes, totalBytes: cut.totalBytes },
      data: { startLine: start, endLine: lastShown, totalLines: total },
    };
  },
});
