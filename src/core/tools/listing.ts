/**
 * The frame shared by the read-only search tools (grep, find_files, list_dir): the existing path
 * they start from, and their one-entry-a-line result cut to the preview limit (NAV-5) with a note
 * saying how to see the rest.
 */
import type { EntryKind } from '../ports';
import { resolveWorkspacePath, type WorkspacePath } from './paths';
import { cutHead, cutNote, type Cut } from './preview';
import { ToolFailure, type ToolContext, type ToolErrorCode, type ToolResult } from './tool';
import { errorMessage } from '../errors';

/** The refusal for a path that exists but is of a kind the tool does not search. */
interface WrongKind {
  code: ToolErrorCode;
  /** Follows the quoted path, e.g. "is not a folder." */
  says: string;
}

/** `given` resolved in the workspace; refuses a missing path and one whose kind is not in `kinds`. */
export async function existingBase(
  ctx: ToolContext,
  given: string,
  kinds: readonly EntryKind[],
  wrongKind: WrongKind,
): Promise<WorkspacePath> {
  const base = await resolveWorkspacePath(ctx.ports.fs, ctx.root, given);
  const where = base.relative;
  if (base.stat === null) throw new ToolFailure('not_found', `\`${where}\` does not exist.`, where);
  if (!kinds.includes(base.stat.kind)) throw new ToolFailure(wrongKind.code, `\`${where}\` ${wrongKind.says}`, where);
  return base;
}

/**
 * The Search port's answer; a failure becomes `cancelled` when the call was stopped, otherwise
 * `failed` with "<tool> could not <couldNot>: <reason>".
 */
export async function searchOrFail<T>(
  ctx: ToolContext,
  tool: string,
  couldNot: string,
  search: () => Promise<T>,
): Promise<T> {
  try {
    return await search();
  } catch (err) {
    if (ctx.signal.aborted) throw new ToolFailure('cancelled', `${tool} was cancelled.`);
    throw new ToolFailure('failed', `${tool} could not ${couldNot}: ${errorMessage(err)}`);
  }
}

interface ListingParts {
  /** One entry a line, each line ending in a newline. */
  body: string;
  summary: string;
  target: string;
  data: ToolResult['data'];
  /** Appended when the whole body fits, e.g. that the search stopped at its limit. */
  tail?: string;
  /** How to see what a cut left out; the cut tells how many lines were shown. */
  hint: (cut: Cut) => string;
}

/** The listing as the model sees it: whole, or cut to `previewBytes` with the hint in the closing note. */
export function listingResult(listing: ListingParts, previewBytes: number): ToolResult {
  const { body, summary, target, data } = listing;
  const cut = cutHead(body, previewBytes);
  if (cut === null) return { ok: true, content: body.trimEnd() + (listing.tail ?? ''), summary, target, data };
  return {
    ok: true,
    content: cut.text + cutNote(cut, listing.hint(cut)),
    summary,
    target,
    truncated: { shownBytes: cut.shownBytes, totalBytes: cut.totalBytes },
    data,
  };
}
