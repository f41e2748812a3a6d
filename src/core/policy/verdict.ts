/**
 * Verdict vocabulary shared by the shell policy modules.
 * `mutation` covers everything outside the read-only contract that the policy recognises:
 * writing files, running arbitrary code (interpreters, wrappers, `xargs`), or reaching the
 * network. `unknown` is what it cannot prove either way (an unlisted program, dynamic syntax).
 */

export type CommandClass = 'inspection' | 'verification' | 'mutation' | 'unknown';

export type SegmentVerdict =
  | { allowed: true; class: 'inspection' | 'verification'; reason: null }
  | { allowed: false; class: 'mutation' | 'unknown'; reason: string };

export function allow(cls: 'inspection' | 'verification'): SegmentVerdict {
  return { allowed: true, class: cls, reason: null };
}

export function reject(cls: 'mutation' | 'unknown', reason: string): SegmentVerdict {
  return { allowed: false, class: cls, reason };
}

/** One segment of a command's `&&` / `||` / `;` chain or `|` pipeline, judged on its own. */
export interface SegmentResult {
  /** The segment as written, redirections included. */
  command: string;
  allowed: boolean;
  reason: string | null;
}

/** A whole command's verdict over its segments: what the read-only policy and the path rule report. */
export interface SegmentsVerdict {
  allowed: boolean;
  /** The first refused segment's reason, naming the segment when there are several; `null` when allowed. */
  reason: string | null;
  segments: SegmentResult[];
}

/** The one aggregation of segment results into a command's verdict (policy and path rule alike). */
export function aggregate(segments: SegmentResult[]): SegmentsVerdict {
  const failedIndex = segments.findIndex((s) => !s.allowed);
  const failed = segments[failedIndex];
  if (failed === undefined) return { allowed: true, reason: null, segments };
  const reason =
    segments.length === 1
      ? failed.reason
      : `segment ${failedIndex + 1} of ${segments.length} (\`${failed.command}\`): ${failed.reason}`;
  return { allowed: false, reason, segments };
}

/** The verdict on a command refused as a whole (it cannot be read, or the check itself failed). */
export function refuseWhole(command: string, reason: string): SegmentsVerdict {
  return { allowed: false, reason, segments: [{ command: command.trim(), allowed: false, reason }] };
}
