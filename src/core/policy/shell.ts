/**
 * The read-only shell command policy (RO-2, RO-3).
 *
 *   checkCommand(command, mode) -> CommandVerdict
 *
 * In plan mode a command is allowed only when every segment of its `&&` / `||` / `;` chain or
 * `|` pipeline is provably read-only: the quote-aware scan (shell-scan.ts) rejects everything
 * dynamic, `shell-quote` turns each segment into words, and the program table (programs.ts)
 * judges the words. The verdict names the failing segment and why. In build and auto modes every
 * command is allowed (they confirm or run it) but is still classified: `inspection`,
 * `verification` (build/test commands, NAV-2), `mutation` or `unknown`.
 */
import { parse } from 'shell-quote';
import type { Word } from './args';
import { checkProgram, isPlainReader } from './programs';
import { scanCommand, type ScannedSegment } from './shell-scan';
import { reject, type CommandClass, type SegmentVerdict } from './verdict';

export type { CommandClass } from './verdict';

export type AgentMode = 'plan' | 'build' | 'auto';

export interface SegmentResult {
  /** The segment as written, redirections included. */
  command: string;
  allowed: boolean;
  reason: string | null;
}

export interface CommandVerdict {
  allowed: boolean;
  class: CommandClass;
  /** Why the command was rejected (naming the segment when there are several); `null` when allowed. */
  reason: string | null;
  segments: SegmentResult[];
}

const CLASS_RANK: Record<CommandClass, number> = { inspection: 0, verification: 1, unknown: 2, mutation: 3 };

export function checkCommand(command: string, mode: AgentMode): CommandVerdict {
  const verdict = planVerdict(command);
  if (mode === 'plan') return verdict;
  return {
    allowed: true,
    class: verdict.class,
    reason: null,
    segments: verdict.segments.map((s) => ({ command: s.command, allowed: true, reason: null })),
  };
}

function planVerdict(command: string): CommandVerdict {
  const scan = scanCommand(command);
  if (!scan.ok) {
    const reason = scan.problem.message;
    return { allowed: false, class: scan.problem.class, reason, segments: [{ command: command.trim(), allowed: false, reason }] };
  }
  const judged = scan.segments.map((segment) => ({ segment, verdict: judgeSegment(segment) }));
  let cls: CommandClass = 'inspection';
  for (const { verdict } of judged) if (CLASS_RANK[verdict.class] > CLASS_RANK[cls]) cls = verdict.class;
  const failedIndex = judged.findIndex((j) => !j.verdict.allowed);
  const failed = judged[failedIndex];
  let reason: string | null = null;
  if (failed !== undefined) {
    reason = judged.length === 1 ? failed.verdict.reason : `segment ${failedIndex + 1} of ${judged.length} (\`${failed.segment.raw}\`): ${failed.verdict.reason}`;
  }
  return {
    allowed: failed === undefined,
    class: cls,
    reason,
    segments: judged.map(({ segment, verdict }) => ({ command: segment.raw, allowed: verdict.allowed, reason: verdict.reason })),
  };
}

function judgeSegment(segment: ScannedSegment): SegmentVerdict {
  const problem = segment.problems[0];
  if (problem !== undefined) return reject(problem.class, problem.message);
  const words: Word[] = [];
  for (const entry of parse(segment.words)) {
    if (typeof entry === 'string') words.push({ text: entry, glob: false });
    else if ('op' in entry && entry.op === 'glob') words.push({ text: entry.pattern, glob: true });
    else return reject('unknown', `the shell parser found \`${'op' in entry ? entry.op : '#'}\`, which the policy cannot verify`);
  }
  const program = words[0]?.text ?? '';
  if (segment.unanchoredGlob !== null && !isPlainReader(program)) {
    return reject('unknown', `${segment.unanchoredGlob} (\`${program}\` has options that write files or run programs)`);
  }
  const ctx = { piped: segment.joiner === '|', readsFile: segment.redirects.some((r) => r.kind === '<') };
  return checkProgram(words, ctx);
}
