/**
 * `vtplan doctor [--json]`: what this machine gives the agent (RO-1, ADD-2). The one question
 * that matters for safety is whether agent commands run in an OS sandbox; it is answered by the
 * same probe the sessions use, never guessed. Exit 0 when they do, 1 when only the policy stands
 * (plan mode then runs inspection commands only), 2 on usage errors.
 */
import { probeSandbox, findProgram } from '../../node/sandbox';
import { parseFlags } from '../flags';
import { UsageError, type CliCommand } from '../io';

const USAGE = 'vtplan doctor [--json]';

export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'Report whether agent commands run in an OS sandbox here, and how to get one if not.',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { json: { type: 'boolean', default: false } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
    const path = io.env.PATH ?? '';
    const isolation = await probeSandbox(findProgram('bwrap', path), io.env);
    if (values.json) {
      io.stdout(`${JSON.stringify({ sandbox: isolation, node: process.version })}\n`);
      return isolation.sandboxed ? 0 : 1;
    }
    const lines = [
      isolation.summary,
      isolation.sandboxed
        ? '  agent commands run in it: plan mode sees the workspace read-only; build/auto write the workspace except .vtcode/; nothing else of your files, no secrets in the environment; no network in plan mode unless --network on'
        : `  plan mode runs inspection commands only (no test runners); build/auto commands run unconfined, checked by the policy alone\n  ${isolation.remedy}`,
      `node: ${process.version}`,
    ];
    io.stdout(`${lines.join('\n')}\n`);
    return isolation.sandboxed ? 0 : 1;
  },
};
