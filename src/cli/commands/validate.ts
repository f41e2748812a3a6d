import { parseFlags } from '../flags';
import { contractJson } from '../json';
import { posix as path } from 'node:path';
import { NotRegularFileError, SPECIAL_FILE_NAMES } from '../../core/ports';
import { readRegularFile } from '../../node/fs';
import { reportLines, reportPlan } from '../../core/plan';
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

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Validate a plan file (exit 0 ready, 1 not ready, 2 usage or I/O error).',
  usage: USAGE,
  async run(args, io) {
    const { values, operand } = parseOneOperand(args, { json: { type: 'boolean' } }, 'plan file');
    const { text, label } = await readOperand(operand, io);
    const report = reportPlan(text);
    if (values.json === true) io.stdout(`${contractJson(report)}\n`);
    else io.stdout(`${reportLines(report, label).join('\n')}\n`);
    return report.ready ? 0 : 1;
  },
};
