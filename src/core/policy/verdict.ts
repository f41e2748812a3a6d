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
