/**
 * Plans that another process saved through the gates (`vtplan mcp`, issue 18) wait for the user's
 * approval in VS Code (GATE-6). VS Code cannot hear of them in-process, so savePlan records each
 * one under `.vtcode/approvals/<slug>.json`; the extension watches that folder, asks "Ready to
 * code?", and approving removes the record, so an approved plan is not offered again after a
 * reload. Only the gates write records: a plan the chat session persists, or a plan file the user
 * edits, has none and is never offered this way.
 *
 * The record is written with the private atomic writer (STORE-2: symlink redirects refused) and
 * read back through zod; a record that does not parse is reported, never guessed at.
 */
import { posix as path } from 'node:path';
import { z } from 'zod';
import type { Clock, FileSystem } from '../ports';
import { APPROVALS_DIR, PLANS_DIR } from '../plan/files';
import { PLAN_SLUG } from '../plan/store';
import { StoreError, writePrivateAtomic } from '../store/atomic';
import { firstUnsafeComponent } from '../store/no-symlink-walk';
import { errorMessage } from '../errors';

const approvalRecordSchema = z.strictObject({
  version: z.literal(1),
  /** Workspace-relative plan file, `.vtcode/plans/<slug>.md`, the slug being the record's file name. */
  plan: z.string(),
  title: z.string().nullable(),
  /** Who saved it, e.g. `vtplan mcp`. */
  savedBy: z.string().min(1),
  savedAt: z.iso.datetime(),
});

type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

/** A record read back, with the plan it names. */
interface PendingApproval extends ApprovalRecord {
  slug: string;
  /** Absolute path of the record. */
  recordPath: string;
}

interface ApprovalRecordProblem {
  /** Absolute path of the record (or of the approvals folder). */
  path: string;
  message: string;
}

function recordPathOf(root: string, slug: string): string {
  if (!PLAN_SLUG.test(slug))
    throw new StoreError('invalid_name', `invalid plan name '${slug}' for an approval record`, slug);
  return path.join(root, APPROVALS_DIR, `${slug}.json`);
}

/** Records `slug`'s plan as awaiting the user's approval (a newer save replaces the record). */
export async function recordForApproval(
  fs: FileSystem,
  root: string,
  plan: { slug: string; title: string | null },
  savedBy: string,
  clock: Clock,
): Promise<string> {
  const record: ApprovalRecord = {
    version: 1,
    plan: `${PLANS_DIR}/${plan.slug}.md`,
    title: plan.title,
    savedBy,
    savedAt: new Date(clock.now()).toISOString(),
  };
  const target = recordPathOf(root, plan.slug);
  await writePrivateAtomic(fs, { root, path: target, content: `${JSON.stringify(record, null, 2)}\n` });
  return target;
}

/** The plan was approved: its record goes, whoever wrote it. Nothing to do when there is none. */
export async function clearApprovalRecord(fs: FileSystem, root: string, slug: string): Promise<void> {
  const target = recordPathOf(root, slug);
  const unsafe = await firstUnsafeComponent(fs, root, path.relative(root, target), 'file');
  if (unsafe?.problem === 'missing') return;
  if (unsafe !== null)
    throw new StoreError(
      unsafe.problem === 'symlink' ? 'symlink' : 'not_a_file',
      `refusing to remove the approval record ${target}: ${unsafe.at} is ${unsafe.problem === 'symlink' ? 'a symbolic link' : `not a ${unsafe.last ? 'regular file' : 'folder'}`}`,
      target,
    );
  await fs.removeFile(target);
}

function parseRecord(slug: string, text: string): ApprovalRecord | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return `not JSON: ${errorMessage(err)}`;
  }
  const parsed = approvalRecordSchema.safeParse(json);
  if (!parsed.success) return z.prettifyError(parsed.error).replace(/\n/g, '; ');
  const expected = `${PLANS_DIR}/${slug}.md`;
  if (parsed.data.plan !== expected) return `it names ${parsed.data.plan}, expected ${expected} (its file name)`;
  return parsed.data;
}

/**
 * Every record under `<root>/.vtcode/approvals/`, oldest save first. Files that are not records
 * (temp files of a write in progress, anything not `<slug>.json`) are passed over; a record that
 * is unreadable or malformed is a problem. A symlinked folder on the way is not looked into.
 */
export async function readApprovalRecords(
  fs: FileSystem,
  root: string,
): Promise<{ pending: PendingApproval[]; problems: ApprovalRecordProblem[] }> {
  const dir = path.join(root, APPROVALS_DIR);
  const unsafe = await firstUnsafeComponent(fs, root, APPROVALS_DIR, 'directory');
  if (unsafe?.problem === 'missing') return { pending: [], problems: [] };
  if (unsafe !== null)
    return { pending: [], problems: [{ path: dir, message: `not read: ${unsafe.at} is not a real folder` }] };
  const pending: PendingApproval[] = [];
  const problems: ApprovalRecordProblem[] = [];
  for (const entry of await fs.readDir(dir)) {
    const slug = entry.name.endsWith('.json') ? entry.name.slice(0, -'.json'.length) : null;
    if (slug === null || !PLAN_SLUG.test(slug)) continue;
    const recordPath = path.join(dir, entry.name);
    try {
      const text = await fs.readText(recordPath);
      if (text === null) continue; // removed since the listing: approved meanwhile
      const record = parseRecord(slug, text);
      if (typeof record === 'string') problems.push({ path: recordPath, message: `not an approval record: ${record}` });
      else pending.push({ ...record, slug, recordPath });
    } catch (err) {
      problems.push({ path: recordPath, message: errorMessage(err) });
    }
  }
  pending.sort((a, b) => a.savedAt.localeCompare(b.savedAt) || a.slug.localeCompare(b.slug));
  return { pending, problems };
}
