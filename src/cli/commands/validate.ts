import { parseFlags } from '../flags';
import { contractJson } from '../json';
import { posix as path } from 'node:path';
import { NotRegularFileError, SPECIAL_FILE_NAMES } from '../../core/ports';
import { readRegularFile } from '../../node/fs';
import { extractPlan, validatePlan, type PlanIssue } from '../../core/plan';
import { InputError, UsageError, type CliCommand, type CliIO } from '../io';
import { errorMessage } from '../../core/errors';

const USAGE = 'vtplan validate <file|-> [--json]';

/** Parses `args` strictly; unknown flags and a missing or extra operand are usage errors. */
export function parseOneOperand<T extends Record<string, { type: 'string' | 'boolean' }>>(
  args: readonly string[],
  options: T,
  what: string,
): { values: Record<string, string | boolean | undefined>; operand: string } {
  const parsed = parseFlags(args, options);
  const [operand, ...extra] = parsed.positionals;
  if (operand === undefined) throw new UsageError(`missing ${what} (a file path, or - for stdin)`);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  return { values: parsed.values as Record<string, string | boolean | undefined>, operand };
}

/** Reads a file path (relative to the working directory) or `-` for stdin; I/O problems are InputErrors. */
export async function readOperand(operand: string, io: CliIO): Promise<{ text: string; label: string }> {
  if (operand === '-') return { text: await io.readStdin(), label: '<stdin>' };
  const file = path.resolve(io.cwd, operand);
  let bytes: Buffer | null;
  try {
    // The user named this file, so a symlink to a plan is followed; a FIFO or device is still refused.
    bytes = await readRegularFile(file, { followSymlink: true });
  } catch (err) {
    if (err instanceof NotRegularFileError)
      throw new InputError(`cannot read ${operand}: it is ${SPECIAL_FILE_NAMES[err.found]}, not a regular file`);
    throw new InputError(`cannot read ${operand}: ${errorMessage(err)}`);
  }
  if (bytes === null) throw new InputError(`cannot read ${operand}: no such file`);
  const text = bytes.toString('utf8');
  return { text, label: operand };
}

type IssueJson = {
  code: string;
  message: string;
  step?: number;
  section?: string;
  line?: number;
};

function issueJson(issue: PlanIssue, lineOffset: number): IssueJson {
  return {
    code: issue.code,
    message: issue.message,
    ...(issue.step !== undefined ? { step: issue.step } : {}),
    ...(issue.section !== undefined ? { section: issue.section } : {}),
    ...(issue.line !== undefined ? { line: issue.line + lineOffset } : {}),
  };
}

/**
 * A saved model response may hold the plan inside `<proposed_plan>` tags: validate the block,
 * and shift line numbers so they point into the file as given.
 */
function planOf(text: string): { plan: string; lineOffset: number } {
  const extraction = extractPlan(text);
  if (extraction.source !== 'tagged' || extraction.plan === null) return { plan: text, lineOffset: 0 };
  const at = text.lastIndexOf(extraction.plan);
  const lineOffset = at === -1 ? 0 : text.slice(0, at).split('\n').length - 1;
  return { plan: extraction.plan, lineOffset };
}

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Validate a plan file (exit 0 ready, 1 not ready, 2 usage or I/O error).',
  usage: USAGE,
  async run(args, io) {
    const { values, operand } = parseOneOperand(args, { json: { type: 'boolean' } }, 'plan file');
    const { text, label } = await readOperand(operand, io);
    const { plan, lineOffset } = planOf(text);
    const report = validatePlan(plan);
    if (values.json === true) {
      const out = {
        ready: report.ready,
        errors: report.errors.map((e) => issueJson(e, lineOffset)),
        warnings: report.warnings.map((w) => issueJson(w, lineOffset)),
        title: report.doc.title,
        steps: report.doc.steps.map((s) => ({
          number: s.number,
          action: s.action,
          files: s.files,
          verify: s.verify,
          ...(s.outcome !== undefined ? { outcome: s.outcome } : {}),
        })),
      };
      io.stdout(`${contractJson(out)}\n`);
    } else {
      const lines = [...report.errors, ...report.warnings].map((i) => {
        const j = issueJson(i, lineOffset);
        return `${label}${j.line !== undefined ? `:${j.line}` : ''}: ${j.code}: ${j.message}`;
      });
      const e = report.errors.length;
      const w = report.warnings.length;
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      lines.push(
        report.ready
          ? `${label}: plan is ready (${plural(w, 'warning')})`
          : `${label}: plan is not ready: ${plural(e, 'error')}, ${plural(w, 'warning')}`,
      );
      io.stdout(`${lines.join('\n')}\n`);
    }
    return report.ready ? 0 : 1;
  },
};
