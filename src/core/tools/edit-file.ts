/**
 * `edit_file`: replace an exact piece of a workspace file. The piece must occur exactly once
 * unless `replace_all` is set; a missing or ambiguous match is an error that says how many
 * occurrences there are and where, and nothing is written.
 */
import { z } from 'zod';
import { resolveWritablePath } from './paths';
import { cutHead, cutNote } from './preview';
import { defineTool, ToolFailure, type ToolContext, type ToolResult } from './tool';
import { refuseInPlanMode } from './write-file';
import { lineAt, looksBinary, plural } from './text';

const SNIPPET_CONTEXT = 2;
const MAX_LISTED_LINES = 10;

const schema = z
  .strictObject({
    path: z.string().min(1).describe('File path relative to the workspace root; the file must exist.'),
    old_string: z
      .string()
      .min(1)
      .describe('Exact text to replace, including whitespace and indentation (no line numbers).'),
    new_string: z.string().describe('Replacement text.'),
    replace_all: z
      .boolean()
      .optional()
      .describe('Replace every occurrence instead of requiring exactly one. Default false.'),
  })
  .refine((a) => a.old_string !== a.new_string, {
    path: ['new_string'],
    message: 'is identical to old_string; nothing would change',
  });

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function listLines(text: string, at: readonly number[]): string {
  const lines = at.slice(0, MAX_LISTED_LINES).map((i) => lineAt(text, i));
  return `line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}${at.length > MAX_LISTED_LINES ? ', …' : ''}`;
}

/** Numbered lines around [from, to] of the new content, so the model sees the result. */
function snippet(text: string, fromLine: number, toLine: number): string {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const first = Math.max(1, fromLine - SNIPPET_CONTEXT);
  const last = Math.min(lines.length, toLine + SNIPPET_CONTEXT);
  const width = String(last).length;
  return lines
    .slice(first - 1, last)
    .map((l, i) => `${String(first + i).padStart(width)}\t${l}`)
    .join('\n');
}

type EditArgs = z.output<typeof schema>;

/** The file's current text; refuses a path that is missing, not a regular file, or binary. */
async function readEditableText(ctx: ToolContext, path: string): Promise<{ real: string; rel: string; text: string }> {
  const target = await resolveWritablePath(ctx.ports.fs, ctx.root, path, 'edit_file');
  const rel = target.relative;
  if (target.stat === null)
    throw new ToolFailure('not_found', `\`${rel}\` does not exist; create it with write_file.`, rel);
  if (target.stat.kind !== 'file') throw new ToolFailure('not_a_file', `\`${rel}\` is not a regular file.`, rel);
  const text = await ctx.ports.fs.readText(target.real);
  if (text === null) throw new ToolFailure('not_found', `\`${rel}\` does not exist; create it with write_file.`, rel);
  if (looksBinary(text))
    throw new ToolFailure('binary', `\`${rel}\` is a binary file; edit_file changes text files only.`, rel);
  return { real: target.real, rel, text };
}

/**
 * Where old_string occurs, with the strings to use: a model usually sends LF, so in a CRLF file
 * both are converted rather than failing the edit. Refuses no match and, without replace_all, several.
 */
function matchEdit(text: string, args: EditArgs, rel: string): { oldString: string; newString: string; at: number[] } {
  let oldString = args.old_string;
  let newString = args.new_string;
  let at = occurrences(text, oldString);
  if (at.length === 0 && text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    const crlf = oldString.replace(/\n/g, '\r\n');
    const crlfAt = occurrences(text, crlf);
    if (crlfAt.length > 0) {
      oldString = crlf;
      newString = newString.replace(/\r?\n/g, '\r\n');
      at = crlfAt;
    }
  }
  if (at.length === 0) {
    const trimmed = args.old_string.trim();
    const loose = trimmed === '' || trimmed === args.old_string ? [] : occurrences(text, trimmed);
    const near =
      loose.length > 0
        ? ` Text equal to it apart from leading/trailing whitespace is at ${listLines(text, loose)}.`
        : '';
    throw new ToolFailure(
      'no_match',
      `old_string was not found in \`${rel}\` (0 occurrences); nothing was changed. It must match the file exactly, including whitespace and indentation; read the lines again with read_file and copy them without the line numbers.${near}`,
      rel,
    );
  }
  if (at.length > 1 && args.replace_all !== true) {
    throw new ToolFailure(
      'not_unique',
      `old_string occurs ${at.length} times in \`${rel}\` (${listLines(text, at)}); nothing was changed. Include more surrounding lines to pick one, or set replace_all to true to replace all ${at.length}.`,
      rel,
    );
  }
  return { oldString, newString, at };
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description: [
    'Replace an exact piece of an existing file: old_string must match the file byte for byte (whitespace and indentation included, without read_file line numbers) and occur exactly once.',
    'Include enough surrounding lines to make it unique, or set replace_all to change every occurrence. To create a file or rewrite it entirely, use write_file.',
  ].join(' '),
  schema,
  mutates: true,
  async handler(args, ctx): Promise<ToolResult> {
    refuseInPlanMode('edit_file', ctx);
    const { real, rel, text } = await readEditableText(ctx, args.path);
    const { oldString, newString, at } = matchEdit(text, args, rel);
    const updated = text.split(oldString).join(newString);
    await ctx.ports.writer.writeText(real, updated);

    const firstLine = lineAt(text, at[0] as number);
    const newLines = newString.split('\n').length - 1;
    const view = snippet(updated, firstLine, firstLine + newLines);
    const head = `Replaced ${plural(at.length, 'occurrence')} in \`${rel}\` (${listLines(text, at)}).`;
    const body = `${head}\n${view}\n`;
    const cut = cutHead(body, ctx.previewBytes);
    return {
      ok: true,
      content:
        cut === null
          ? body.trimEnd()
          : cut.text + cutNote(cut, `Read \`${rel}\` from line ${firstLine} to see the rest.`),
      summary: `edited ${rel} (${plural(at.length, 'replacement')})`,
      target: rel,
      data: { replacements: at.length, line: firstLine },
    };
  },
});
