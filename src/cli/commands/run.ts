import { Session } from '../../core/session/session';
import { MODE_FLAG, parseFlags, parseMode } from '../flags';
import { UsageError, type CliCommand, type CliIO } from '../io';
import { PROVIDER_OPTIONS, sessionDeps, sweepWorkspace, workspaceOf } from '../session-setup';
import { eventPrinter, exitCodeFor } from '../transcript';

const USAGE = `vtplan run --workspace DIR --provider openai|anthropic --model NAME [--base-url URL] [--api-key-env VAR] [${MODE_FLAG}] [--network default|off|on] [--skip-confirmations] [--jsonl] "<goal>"`;

/** Starts a session (plan mode unless --mode says otherwise) and runs one turn with the goal. */
export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Start a planning session on a goal; stops when it waits for approval or input, or ends.',
  usage: USAGE,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseFlags(args, {
      ...PROVIDER_OPTIONS,
      mode: { type: 'string', default: 'plan' },
    });
    const goal = positionals.join(' ').trim();
    if (goal === '') throw new UsageError('give the goal as the last argument, e.g. "add a --shout flag"');
    const agent = parseMode(values.mode);
    const root = workspaceOf(values, io);
    const { deps } = sessionDeps(values, io, root);
    await sweepWorkspace(root, io);
    const session = await Session.start(deps, { agent });
    const print = eventPrinter(io, values.jsonl);
    for (const event of session.events) print(event);
    session.on(print);
    const result = await session.submit(goal);
    io.stderr(`session: ${session.id}\n`);
    return result.kind === 'ran' ? exitCodeFor(result.status) : 0;
  },
};
