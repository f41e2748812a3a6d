import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AgentSchema } from '../core/session/events';
import { AGENT_MODES, type AgentMode } from '../core/vocabulary';
import { UsageError } from './io';
import { errorMessage } from '../core/errors';

/** Strict flag parsing for every sub-command: unknown flags and bad values are usage errors (exit 2). */
type FlagOptions = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<const O extends FlagOptions>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}

/** How `--mode` is written in a usage line. */
export const MODE_FLAG = `--mode ${AGENT_MODES.join('|')}`;

/** The value of `--mode` (MODE-1), or a usage error naming the modes. */
export function parseMode(value: string | undefined): AgentMode {
  const mode = AgentSchema.safeParse(value);
  if (mode.success) return mode.data;
  const names = `${AGENT_MODES.slice(0, -1).join(', ')} or ${AGENT_MODES.at(-1)}`;
  throw new UsageError(`--mode must be ${names}${value === undefined ? '' : `, not '${value}'`}`);
}
