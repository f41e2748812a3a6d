import type { CliCommand } from '../io';

/** Every `vtplan` sub-command, in the order `vtplan --help` lists them. Add one import + entry per command. */
export const commands: readonly CliCommand[] = [];
