/**
 * `vtplan check-command [--mode plan|build|auto] [--root DIR] [--json] -- <command string>`
 * (RO-2, RO-3, MODE-1, ADD-2). Judges a command exactly as `run_command` would before running it:
 * the read-only shell policy and the workspace path rule against `--root` (default: the current
 * folder). It never runs it. Exit 0 allowed, 1 rejected, 2 usage. The JSON keeps its first four
 * keys and adds `root` and `paths` (the path rule's own verdict).
 */
import * as path from 'node:path';
import { checkCommandInWorkspace, commandReport, commandReportLines } from '../../core/policy';
import type { AgentMode } from '../../core/vocabulary';
import { MODE_FLAG, parseMode } from '../flags';
import { UsageError, type CliCommand } from '../io';
import { contractJson } from '../json';

const USAGE = `vtplan check-command [${MODE_FLAG}] [--root DIR] [--json] -- <command string>`;

interface Options {
  mode: AgentMode;
  json: boolean;
  command: string;
  root: string | undefined;
}

function parseOptions(args: readonly string[]): Options {
  let mode: AgentMode = 'plan';
  let json = false;
  let root: string | undefined;
  let i = 0;
  for (; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '--') {
      i += 1;
      break;
    }
    if (a === '--json') {
      json = true;
    } else if (a === '--mode' || a.startsWith('--mode=')) {
      mode = parseMode(a === '--mode' ? args[++i] : a.slice('--mode='.length));
    } else if (a === '--root' || a.startsWith('--root=')) {
      const value = a === '--root' ? args[++i] : a.slice('--root='.length);
      if (value === undefined || value === '') throw new UsageError('--root needs the workspace folder');
      root = value;
    } else if (a.startsWith('-')) {
      throw new UsageError(`unknown option '${a}'`);
    } else {
      break;
    }
  }
  const rest = args.slice(i);
  if (rest.length === 0) throw new UsageError('missing the command to check (put it after --)');
  if (rest.length > 1) throw new UsageError('pass the command as one argument, quoted: -- "rg -n foo src"');
  const command = rest[0] as string;
  if (command.trim() === '') throw new UsageError('the command to check is empty');
  return { mode, json, command, root };
}

export const checkCommandCommand: CliCommand = {
  name: 'check-command',
  summary:
    'Judge a shell command with the read-only policy and the workspace path rule without running it (exit 0 allowed, 1 rejected).',
  usage: USAGE,
  async run(args, io) {
    const options = parseOptions(args);
    const { mode, json, command } = options;
    const root = path.resolve(io.cwd, options.root ?? '.');
    const verdict = checkCommandInWorkspace(command, mode, root);
    if (json) io.stdout(`${contractJson(commandReport(verdict, root))}\n`);
    else io.stdout(`${commandReportLines(verdict, mode).join('\n')}\n`);
    return verdict.allowed ? 0 : 1;
  },
};
