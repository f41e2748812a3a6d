import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io';

/** Strict flag parsing for every sub-command: unknown flags and bad values are usage errors (exit 2). */
type FlagOptions = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<const O extends FlagOptions>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
