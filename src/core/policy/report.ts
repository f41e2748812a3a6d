/**
 * A command verdict in the form people and other agents read (RO-2, RO-3, MODE-1, ADD-2):
 * `vtplan check-command` prints it and the `checkCommand` gate (issue 18) returns it, so both say
 * the same thing about the same command.
 */
import type { AgentMode } from '../vocabulary';
import type { CommandClass } from './verdict';
import type { WorkspaceCommandVerdict } from './shell';

export type CommandReport = {
  allowed: boolean;
  class: CommandClass;
  reason: string | null;
  segments: Array<{ command: string; allowed: boolean; reason: string | null }>;
  /** The workspace the path rule judged against. */
  root: string;
  /** The workspace path rule's own verdict. */
  paths: { allowed: boolean; reason: string | null };
};

export function commandReport(verdict: WorkspaceCommandVerdict, root: string): CommandReport {
  return {
    allowed: verdict.allowed,
    class: verdict.class,
    reason: verdict.reason,
    segments: verdict.segments.map((s) => ({ command: s.command, allowed: s.allowed, reason: s.reason })),
    root,
    paths: { allowed: verdict.paths.allowed, reason: verdict.paths.reason },
  };
}

/** The verdict line (`allowed (inspection, plan mode)` / `rejected (…): reason`), then one line a segment when there are several. */
export function commandReportLines(verdict: WorkspaceCommandVerdict, mode: AgentMode): string[] {
  const where = verdict.refusedBy === 'paths' ? ', outside the workspace' : '';
  const lines = [
    `${verdict.allowed ? 'allowed' : 'rejected'} (${verdict.class}, ${mode} mode${where})${verdict.reason === null ? '' : `: ${verdict.reason}`}`,
  ];
  if (verdict.segments.length > 1) {
    for (const s of verdict.segments)
      lines.push(`  ${s.allowed ? 'ok ' : 'no '} ${s.command}${s.reason === null ? '' : ` — ${s.reason}`}`);
  }
  return lines;
}
