import type { CliCommand } from '../io';
import { toolCommand } from './tool';

/** Every `vtplan` sub-command, in the order `vtplan --help` lists them. Add one import + entry per command. */
export const commands: readonly CliCommand[] = [toolCommand];
