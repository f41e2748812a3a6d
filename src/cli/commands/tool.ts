import { posix as path } from 'node:path';
import { nodeFileSystem } from '../../node/fs';
import { handleTaskTracker } from '../../core/tools/task-tracker';
import type { TrackerResult } from '../../core/tracker';
import { InputError, UsageError, type CliCommand, type CliIO } from '../io';
import { parseFlags } from '../flags';
import { errorMessage } from '../../core/errors';

const USAGE = "vtplan tool task_tracker --workspace DIR [--plan-file .vtcode/plans/x.md] --args '<json>|-' [--json]";
const TOOLS = ['task_tracker'] as const;

function humanText(result: TrackerResult): string {
  if (!result.ok) return `error (${result.error.code}): ${result.error.message}\n`;
  const lines = [`${result.status}: ${result.message}`];
  if (result.view) lines.push(result.view);
  for (const file of result.written) lines.push(`wrote ${file}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Runs one tool call against the files of a workspace, as the agent would (plan mode when a
 * plan file is given, otherwise the global tracker). Exit 0 ok, 1 tool error, 2 usage.
 */
export const toolCommand: CliCommand = {
  name: 'tool',
  summary: 'Run one tool call (task_tracker) against a workspace and print its result.',
  usage: USAGE,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const parsed = parseFlags(args, {
      workspace: { type: 'string' },
      'plan-file': { type: 'string' },
      args: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const { values, positionals } = parsed;
    const [tool, ...extra] = positionals;
    if (tool === undefined) throw new UsageError(`name the tool to run (${TOOLS.join(', ')})`);
    if (!(TOOLS as readonly string[]).includes(tool))
      throw new UsageError(`unknown tool '${tool}'; available: ${TOOLS.join(', ')}`);
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (values.workspace === undefined) throw new UsageError('--workspace DIR is required');
    if (values.args === undefined) throw new UsageError("--args '<json>' is required (use - to read it from stdin)");

    const argText = values.args === '-' ? await io.readStdin() : values.args;
    let toolArgs: unknown;
    try {
      toolArgs = JSON.parse(argText);
    } catch (err) {
      throw new UsageError(`--args is not valid JSON: ${errorMessage(err)}`);
    }

    const root = path.resolve(io.cwd, values.workspace);
    const stat = await nodeFileSystem.lstat(root);
    if (stat?.kind !== 'directory') throw new InputError(`workspace ${root} is not a directory`);
    const planFile = values['plan-file'];

    const result = await handleTaskTracker(
      { fs: nodeFileSystem, root, planFile, planActive: planFile !== undefined, display: 'expanded' },
      toolArgs,
    );
    if (values.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else if (result.ok) io.stdout(humanText(result));
    else io.stderr(humanText(result));
    return result.ok ? 0 : 1;
  },
};
