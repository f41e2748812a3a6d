/**
 * Text of the blocked-turn handoff (FUSE-2, FUSE-3).
 *
 *   blockedHandoff({ reason, planning, archive }) -> BlockedHandoff
 *   renderBlockedHandoff(handoff) -> markdown for the persisted handoff file
 *
 * The caller checkpoints the session history first and passes what happened as `archive`: only a
 * persisted *and verified* archive makes the handoff advertise a resume command; otherwise it
 * says resume is unavailable and why. When planning is active the handoff adds plan-mode
 * guidance: `Mutation blocked` is policy, not a failing check; retrying the same mutating tools
 * blocks again; the user chooses `continue` (stay planning) or approve / `/mode build` /
 * `/mode auto`. The mode never switches by itself.
 */

export type ArchiveOutcome =
  | { status: 'verified'; resumeCommand: string }
  | { status: 'disabled' }
  | { status: 'failed'; error: string }
  | { status: 'unsupported' };

export interface BlockedHandoffInput {
  /** Why the turn stopped, e.g. the fuse message. */
  reason: string;
  /** Planning was active when the turn blocked. */
  planning: boolean;
  archive: ArchiveOutcome;
}

export interface BlockedHandoff {
  summary: string;
  /** "Actionable Next Steps", shown in the transcript and written to the handoff file. */
  nextSteps: string[];
  /** The resume line: a command when the archive was verified, otherwise why there is none. */
  resume: string;
  /** Composer placeholder for the next input. */
  placeholder: string;
}

function resumeLine(archive: ArchiveOutcome): string {
  switch (archive.status) {
    case 'verified':
      return `Resume this session later with \`${archive.resumeCommand}\`.`;
    case 'disabled':
      return 'Resume is unavailable: session history persistence is disabled.';
    case 'failed':
      return `Resume is unavailable: the session checkpoint could not be saved (${archive.error}).`;
    case 'unsupported':
      return 'Resume is unavailable: this runner does not create session archives.';
  }
}

export function blockedHandoff(input: BlockedHandoffInput): BlockedHandoff {
  const resume = resumeLine(input.archive);
  if (!input.planning) {
    return {
      summary: `Turn blocked: ${input.reason}`,
      nextSteps: ['Type `continue` to retry with a different approach, or give a new instruction.', resume],
      resume,
      placeholder: 'Type continue, or give a new instruction',
    };
  }
  return {
    summary: `Turn blocked while planning: ${input.reason}`,
    nextSteps: [
      'Plan mode is read-only by design: `Mutation blocked` means the edit was stopped by policy, not by a failing check.',
      'Retrying the same mutating tools will block the turn again.',
      'Stay in planning with `continue`, or implement by approving the plan or running `/mode build` (`/mode auto` for unattended confirmation).',
      'The mode does not switch by itself; you decide on the next turn.',
      resume,
    ],
    resume,
    placeholder: 'continue to keep planning · approve, /mode build or /mode auto to implement',
  };
}

export function renderBlockedHandoff(handoff: BlockedHandoff): string {
  return [
    `# Turn blocked`,
    '',
    handoff.summary,
    '',
    '## Actionable Next Steps',
    '',
    ...handoff.nextSteps.map((s) => `- ${s}`),
    '',
  ].join('\n');
}
