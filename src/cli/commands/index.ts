import type { CliCommand } from '../io';
import { checkCommandCommand } from './check-command';
import { toolCommand } from './tool';
import { validateCommand } from './validate';
import { extractCommand } from './extract';
import { intentCommand } from './intent';
import { runCommand } from './run';
import { resumeCommand } from './resume';
import { doctorCommand } from './doctor';
import { mcpCommand } from './mcp';

/** Every `vtplan` sub-command, in the order `vtplan --help` lists them. Add one import + entry per command. */
export const commands: readonly CliCommand[] = [
  runCommand,
  resumeCommand,
  validateCommand,
  extractCommand,
  toolCommand,
  checkCommandCommand,
  intentCommand,
  doctorCommand,
  mcpCommand,
];
