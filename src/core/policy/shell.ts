/**
 * The read-only shell command policy (RO-2, RO-3).
 *
 *   checkCommand(command, mode) -> CommandVerdict
 *   checkCommandInWorkspace(command, mode, root) -> WorkspaceCommandVerdict
 *
 * In plan mode a command is allowed only when every segment of its `&&` / `||` / `;` chain or
 * `|` pipeline is provably read-only: the quote-aware scan (shell-scan.ts) rejects everything
 * dynamic and hands over each segment's words (command-words.ts), and the program table
 * (programs.ts) judges the words. The verdict names the failing segment and why. In build and
 * auto modes every command is allowed (they confirm or run it) but is still classified:
 * `inspection`, `verification` (build/test commands, NAV-2), `mutation` or `unknown`.
 * `checkCommandInWorkspace` adds the workspace path rule (paths.ts), which binds in every mode;
 * it is what `run_command`, the dispatch gate and `vtplan check-command` ask.
 * Neither throws: a command the checks fail on is refused with the reason (`failClosed`).
 */
import type { Word } from './args';
import { checkScannedPaths, type PathVerdict } from './paths';
import { checkProgram, isPlainReader } from './programs';
import { environFileProblem } from './secrets';
import { scanCommand, type ScannedSegment, type ScanResult } from './shell-scan';
import {
  aggregate,
  refuseWhole,
  reject,
  type CommandClass,
  type SegmentsVerdict,
  type SegmentVerdict,
} from './verdict';
import type { AgentMode } from '../vocabulary';
import { errorMessage } from '../errors';

export interface CommandVerdict extends SegmentsVerdict {
  class: CommandClass;
}

const CLASS_RANK: Record<CommandClass, number> = { inspection: 0, verification: 1, unknown: 2, mutation: 3 };

export function checkCommand(command: string, mode: AgentMode): CommandVerdict {
  try {
    return judge(command, mode, scanCommand(command));
  } catch (err) {
    return failClosed(command, failureReason(err));
  }
}

/** Why a command was refused when a check threw on it (a parser bug, an input nobody foresaw). */
function failureReason(err: unknown): string {
  return `the command policy failed on this command (${errorMessage(err)}), so it was not run`;
}

/**
 * The verdict when a check throws: refused in every mode, with the error as the reason, instead of
 * failing the whole turn. `String` because an untyped caller may pass anything as the command.
 */
function failClosed(command: string, reason: string): CommandVerdict {
  return { ...refuseWhole(String(command), reason), class: 'unknown' };
}

function judge(command: string, mode: AgentMode, reading: ScanResult): CommandVerdict {
  const verdict = planVerdict(command, reading);
  if (mode === 'plan') return verdict;
  return {
    allowed: true,
    class: verdict.class,
    reason: null,
    segments: verdict.segments.map((s) => ({ command: s.command, allowed: true, reason: null })),
  };
}

export interface WorkspaceCommandVerdict extends CommandVerdict {
  /** The command as checked. */
  command: string;
  /** The one reading of the command both rules judged; the navigation accounting counts from it too. */
  reading: ScanResult;
  /** The workspace path rule on its own (paths.ts). */
  paths: PathVerdict;
  /** The rule that refused the command: the read-only policy, the workspace path rule, or none. */
  refusedBy: 'policy' | 'paths' | null;
}

/**
 * Everything a command must pass before it runs: the read-only policy (binding in plan mode) and
 * the workspace path rule (binding in every mode, MODE-1: auto gets no bypass). The policy is
 * asked first, so in plan mode a mutating command is still reported as a mutation.
 */
export function checkCommandInWorkspace(command: string, mode: AgentMode, root: string): WorkspaceCommandVerdict {
  try {
    return judgeInWorkspace(command, mode, root);
  } catch (err) {
    const reason = failureReason(err);
    const verdict = failClosed(command, reason);
    const reading: ScanResult = { ok: false, problem: { message: reason, class: 'unknown' } };
    return {
      ...verdict,
      command,
      reading,
      paths: { allowed: false, reason, segments: verdict.segments },
      refusedBy: 'policy',
    };
  }
}

function judgeInWorkspace(command: string, mode: AgentMode, root: string): WorkspaceCommandVerdict {
  const reading = scanCommand(command);
  const policy = judge(command, mode, reading);
  const paths = checkScannedPaths(command, reading, root, mode);
  const refusedBy = !policy.allowed ? 'policy' : !paths.allowed ? 'paths' : null;
  // Both checks read the same reading, so their segments line up one to one.
  const segments = policy.segments.map((s, i) => {
    const p = paths.segments[i];
    return s.allowed && p !== undefined && !p.allowed ? { command: s.command, allowed: false, reason: p.reason } : s;
  });
  // An allowed path check has no reason, so a command nothing refused gets none.
  const reason = refusedBy === 'policy' ? policy.reason : paths.reason;
  return { allowed: refusedBy === null, class: policy.class, reason, segments, command, reading, paths, refusedBy };
}

function planVerdict(command: string, reading: ScanResult): CommandVerdict {
  if (!reading.ok) return { ...refuseWhole(command, reading.problem.message), class: reading.problem.class };
  const judged = reading.segments.map((segment) => ({ segment, verdict: judgeSegment(segment) }));
  // The command's class is its segments' highest; a reading that is ok has at least one segment.
  const cls = judged
    .map(({ verdict }) => verdict.class)
    .reduce((highest, c) => (CLASS_RANK[c] > CLASS_RANK[highest] ? c : highest));
  return {
    ...aggregate(
      judged.map(({ segment, verdict }) => ({
        command: segment.raw,
        allowed: verdict.allowed,
        reason: verdict.reason,
      })),
    ),
    class: cls,
  };
}

function judgeSegment(segment: ScannedSegment): SegmentVerdict {
  const problem = segment.problems[0];
  if (problem !== undefined) return reject(problem.class, problem.message);
  const argv = segment.argv;
  if (!argv.ok) return reject('unknown', argv.reason);
  if (argv.syntax !== null)
    return reject('unknown', `the shell parser found \`${argv.syntax}\`, which the policy cannot verify`);
  const words = argv.words;
  const secret = environProblem(words, segment);
  if (secret !== null) return reject('unknown', secret);
  // A segment of redirections only has no program; checkProgram says so.
  const program = words[0]?.text;
  if (program !== undefined && segment.unanchoredGlob !== null && !isPlainReader(program)) {
    return reject('unknown', `${segment.unanchoredGlob} (\`${program}\` has options that write files or run programs)`);
  }
  const ctx = { piped: segment.joiner === '|', readsFile: segment.redirects.some((r) => r.kind === '<') };
  return checkProgram(words, ctx);
}

/**
 * Why a segment's words or the files its redirections name may be a process environment (or cannot
 * be read), or null. Only `<` reads a file here: a write is already a problem of the segment, and
 * `/dev/null` is no environment.
 */
function environProblem(words: readonly Word[], segment: ScannedSegment): string | null {
  for (const w of words) {
    const why = environFileProblem(w);
    if (why !== null) return why;
  }
  for (const r of segment.redirects) {
    if (r.targetWords === null) continue;
    if (!r.targetWords.ok) return r.targetWords.reason;
    for (const w of r.targetWords.words) {
      const why = environFileProblem(w);
      if (why !== null) return why;
    }
  }
  return null;
}
