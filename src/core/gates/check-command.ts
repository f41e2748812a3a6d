/**
 * `checkCommand` (RO-2, RO-3, MODE-1): judges a command line the way `run_command` and
 * `vtplan check-command` do — the read-only policy for the mode plus the workspace path rule —
 * without running it.
 */
import { z } from 'zod';
import { checkCommandInWorkspace, commandReport, commandReportLines } from '../policy';
import { AGENT_MODES } from '../vocabulary';
import { defineGate } from './gate';

const inputSchema = z.strictObject({
  command: z
    .string()
    .refine((c) => c.trim() !== '', 'the command is empty')
    .describe('The shell command line exactly as it would run, e.g. "rg -n TODO src | head -20".'),
  mode: z
    .enum(AGENT_MODES)
    .default('plan')
    .describe(
      'The agent mode to judge for: "plan" (read-only research: only provably read-only commands pass), "build" or "auto" (any command, still inside the workspace). Default "plan".',
    ),
});

export const checkCommandGate = defineGate({
  name: 'checkCommand',
  title: 'Check command',
  description: [
    "Ask VT Code Planning's read-only command policy whether a shell command may run, before running it. Nothing is executed.",
    'In plan mode only provably read-only commands pass (inspection such as rg, ls, cat, sed -n, read-only git, test runners; `&&`/`|` chains whose every segment passes); redirections, in-place edits and unknown programs are rejected.',
    'In every mode paths outside the workspace are refused. Returns allowed or rejected, the class (inspection, verification, mutation, unknown) and the reason, per segment for chains.',
  ].join(' '),
  inputSchema,
  readOnly: true,
  async run(input, ctx) {
    const verdict = checkCommandInWorkspace(input.command, input.mode, ctx.root);
    return {
      ok: true,
      text: commandReportLines(verdict, input.mode).join('\n'),
      data: { mode: input.mode, ...commandReport(verdict, ctx.root) },
    };
  },
});
