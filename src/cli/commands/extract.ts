import { PlanStreamParser } from '../../core/plan';
import { UsageError, type CliCommand } from '../io';
import { contractJson } from '../json';
import { parseOneOperand, readOperand } from './validate';

const USAGE = 'vtplan extract [--json] [--chunk-size N] <file|->';

function chunkSizeOf(raw: string | boolean | undefined, total: number): number {
  if (raw === undefined || typeof raw === 'boolean') return Math.max(1, total);
  if (!/^[1-9]\d*$/.test(raw)) throw new UsageError(`--chunk-size must be a positive integer, got '${raw}'`);
  return Number(raw);
}

/**
 * Runs a model response through the streaming parser, `--chunk-size` characters at a time, to
 * show what the runtime extracts (PLAN-1, PLAN-7). Any chunk size gives the same output.
 * Exit 0 when a plan was found (or with --json), 1 when there is none, 2 on usage or I/O errors.
 */
export const extractCommand: CliCommand = {
  name: 'extract',
  summary: 'Extract the <proposed_plan> block from a model response through the streaming parser.',
  usage: USAGE,
  async run(args, io) {
    const { values, operand } = parseOneOperand(
      args,
      { json: { type: 'boolean' }, 'chunk-size': { type: 'string' } },
      'response file',
    );
    const { text } = await readOperand(operand, io);
    const size = chunkSizeOf(values['chunk-size'], text.length);
    const parser = new PlanStreamParser();
    for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
    const result = parser.finish();
    if (values.json === true) {
      io.stdout(`${contractJson({ plan: result.plan, text: result.text, truncated: result.truncated })}\n`);
      return 0;
    }
    if (result.plan === null) {
      io.stderr('vtplan extract: no plan found in the input\n');
      return 1;
    }
    if (result.truncated) io.stderr('vtplan extract: warning: the plan block is not closed (truncated response)\n');
    io.stdout(`${result.plan}\n`);
    return 0;
  },
};
