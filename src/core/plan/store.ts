/**
 * Plan files under `.vtcode/plans/<slug>.md` (STORE-1). The store validates every candidate
 * before anything is written: an invalid draft never touches the disk, so neither a valid plan
 * nor an existing malformed file (kept for the user until a valid synthesis repairs it) is ever
 * overwritten by it. Writes go through the private atomic writer (STORE-2).
 */
import { posix as path } from 'node:path';
import type { Clock, FileSystem } from '../ports';
import { systemClock } from '../ports';
import { StoreError, writePrivateAtomic, type ExternalEdit } from '../store/atomic';
import { canonicalPlan } from './canonical';
import { PLANS_DIR, planFileContent } from './files';
import { parsePlan, stripTrackerRegion } from './parse';
import { validatePlan, type ValidationReport } from './validate';

/** A plan file's name without `.md`: lower-case letters, digits and single dashes. */
export const PLAN_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG = 80;

function timestampSlug(now: number): string {
  const iso = new Date(now).toISOString(); // 2026-11-29T21:40:05.123Z
  return `plan-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** Lower-case words of the title joined by `-`; a timestamped slug when there is no usable title. */
export function slugFor(title: string | null, now: number): string {
  const words = (title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .match(/[a-z0-9]+/g);
  if (words === null) return timestampSlug(now);
  let slug = '';
  for (const w of words) {
    const next = slug === '' ? w : `${slug}-${w}`;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug === '' ? (words[0] as string).slice(0, MAX_SLUG) : slug;
}

export interface StoredPlan {
  slug: string;
  path: string;
  content: string;
  report: ValidationReport;
}

export type SaveOutcome =
  | { status: 'written' | 'unchanged'; slug: string; path: string; content: string; report: ValidationReport }
  /** Invalid candidate: nothing written; `kept` says what stays on disk. */
  | { status: 'rejected'; slug: string; path: string; report: ValidationReport; kept: 'valid' | 'malformed' | 'none' }
  /** The file changed since the caller read it: the external edit was kept, nothing written. */
  | { status: 'external_edit'; slug: string; path: string; report: ValidationReport; externalEdit: ExternalEdit };

export interface SaveOptions {
  /** Keep an existing plan's slug (revisions, mid-execution replans); default: from the title. */
  slug?: string;
  /** What the caller last read from the plan file (`null`: absent); enables external-edit detection. */
  expected?: string | null;
}

export class PlanStore {
  private readonly clock: Clock;

  constructor(
    private readonly fs: FileSystem,
    private readonly root: string,
    clock: Clock = systemClock,
  ) {
    this.clock = clock;
  }

  get dir(): string {
    return path.join(this.root, PLANS_DIR);
  }

  pathFor(slug: string): string {
    if (!PLAN_SLUG.test(slug)) {
      throw new StoreError(
        'invalid_name',
        `invalid plan name '${slug}': use lower-case letters, digits and single dashes`,
        slug,
      );
    }
    return path.join(this.dir, `${slug}.md`);
  }

  /**
   * Validates `candidate` as written and, when it is ready, writes its canonical form (see
   * canonical.ts): VT Code and this extension then read the saved file the same way.
   */
  async save(candidate: string, options: SaveOptions = {}): Promise<SaveOutcome> {
    const doc = parsePlan(planFileContent(candidate));
    const report = validatePlan(doc);
    const slug = options.slug ?? slugFor(doc.title, this.clock.now());
    const target = this.pathFor(slug);
    const existing = await this.fs.readText(target);
    if (!report.ready) {
      const kept = existing === null ? 'none' : validatePlan(existing).ready ? 'valid' : 'malformed';
      return { status: 'rejected', slug, path: target, report, kept };
    }
    const content = `${canonicalPlan(doc)}\n`;
    const canonicalReport = validatePlan(content);
    if (!canonicalReport.ready) {
      // An invariant, not bad input: the canonical form keeps every rule's inputs.
      throw new Error(
        `the canonical form of a ready plan did not validate (${canonicalReport.errors.map((e) => e.code).join(', ')}); nothing was written`,
      );
    }
    if (existing !== null && planFileContent(stripTrackerRegion(existing)) === content) {
      return { status: 'unchanged', slug, path: target, content: existing, report };
    }
    const written = await writePrivateAtomic(this.fs, {
      root: this.root,
      path: target,
      content,
      ...(options.expected !== undefined ? { expected: options.expected } : {}),
    });
    if (written.externalEdit)
      return { status: 'external_edit', slug, path: target, report, externalEdit: written.externalEdit };
    return { status: written.written ? 'written' : 'unchanged', slug, path: target, content, report };
  }

  /** Reads and validates a plan file; `null` when it does not exist. */
  async load(slug: string): Promise<StoredPlan | null> {
    const target = this.pathFor(slug);
    const content = await this.fs.readText(target);
    if (content === null) return null;
    return { slug, path: target, content, report: validatePlan(content) };
  }

  /**
   * Slugs of the plan files, sorted. Tracker sidecars (`<slug>.tasks.md`) and temp files
   * (`.<slug>.md.<unique>.tmp`) are left out because their names are not slugs.
   */
  async list(): Promise<string[]> {
    const stat = await this.fs.lstat(this.dir);
    if (stat === null || stat.kind !== 'directory') return [];
    const entries = await this.fs.readDir(this.dir);
    return entries
      .filter((e) => e.kind === 'file' && e.name.endsWith('.md'))
      .map((e) => e.name.slice(0, -'.md'.length))
      .filter((s) => PLAN_SLUG.test(s))
      .sort();
  }
}
