/**
 * `write_file`: create or replace a workspace file with the given content, through the Writer
 * port (atomic on disk; a host may route it through its editor). Refused in plan mode (RO-1):
 * the dispatch gate blocks it first, this is the second lock.
 */
import { z } from 'zod';
import { resolveWritablePath } from './paths';
import { defineTool, ToolFailure, type ToolContext, type ToolResult } from './tool';
import { byteLength } from './preview';
import { countLines, plural } from './text';

const schema = z.strictObject({
  path: z.string().min(1).describe('File path relative to the workspace root; missing folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

export function refuseInPlanMode(tool: string, ctx: ToolContext): void {
  if (ctx.mode === 'plan') {
    throw new ToolFailure(
      'refused',
      `Mutation blocked: \`${tool}\` is not available in plan mode (plan mode is read-only; approve the plan to implement it).`,
    );
  }
}

export const writeFileTool = defineTool({
  name: 'write_file',
  description: [
    'Create a file, or replace a whole file, with the given content. Missing parent folders are created. Only paths inside the workspace.',
    'For changing part of an existing file prefer edit_file: it cannot lose the rest of the file.',
  ].join(' '),
  schema,
  mutates: true,
  async handler(args, ctx): Promise<ToolResult> {
    refuseInPlanMode('write_file', ctx);
    const target = await resolveWritablePath(ctx.ports.fs, ctx.root, args.path, 'write_file');
    const rel = target.relative;
    if (target.stat !== null && target.stat.kind !== 'file') {
      throw new ToolFailure(
        'not_a_file',
        `\`${rel}\` is a ${target.stat.kind === 'directory' ? 'folder' : target.stat.kind}; write_file writes regular files only.`,
        rel,
      );
    }
    const existed = target.stat !== null;
    const size = `${plural(countLines(args.content), 'line')}, ${plural(byteLength(args.content), 'byte')}`;
    if (existed && (await ctx.ports.fs.readText(target.real)) === args.content) {
      return {
        ok: true,
        content: `\`${rel}\` already has exactly this content; nothing was written.`,
        summary: `wrote ${rel} (unchanged)`,
        target: rel,
        data: { created: false, changed: false },
      };
    }
    await ctx.ports.writer.writeText(target.real, args.content);
    const verb = existed ? 'Replaced' : 'Created';
    return {
      ok: true,
      content: `${verb} \`${rel}\` (${size}).`,
      summary: `${existed ? 'wrote' : 'created'} ${rel} (${size})`,
      target: rel,
      data: { created: !existed, changed: true, bytes: byteLength(args.content) },
    };
  },
});
