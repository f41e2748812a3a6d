import { commands } from './commands';
import { SessionLogError } from '../core/session/log';
import { InputError, UsageError, type CliIO } from './io';
import { CLI_VERSION } from './version';

function helpText(): string {
  const lines = ['vtplan: the VT Code planning workflow, headless.', '', 'Usage:'];
  for (const c of commands) lines.push(`  ${c.usage}`, `      ${c.summary}`);
  if (commands.length === 0) lines.push('  (no commands yet)');
  lines.push('', 'Run `vtplan <command> --help` for one command.');
  return lines.join('\n') + '\n';
}

/** Runs one CLI invocation and returns its exit code; never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${CLI_VERSION}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`vtplan: unknown command '${name}'. Run 'vtplan --help' for the list.\n`);
    return 2;
  }
  if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
    io.stdout(
      `Usage: ${command.usage}\n${command.summary}\n${command.help === undefined ? '' : `\n${command.help}\n`}`,
    );
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`vtplan ${name}: ${err.message}\n${err.hint ?? `Usage: ${command.usage}`}\n`);
      return 2;
    }
    // A refused session log (a symlinked or special file in .vtcode) is the workspace's state, not a bug.
    if (err instanceof InputError || err instanceof SessionLogError) {
      io.stderr(`vtplan ${name}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
