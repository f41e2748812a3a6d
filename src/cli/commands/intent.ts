import { classifyIntent } from '../../core/session/intents';
import { parseFlags } from '../flags';
import { contractJson } from '../json';
import { UsageError, type CliCommand, type CliIO } from '../io';

const USAGE = 'vtplan intent [--after-implementation-prompt] [--json] -- "<text>"|-';

/**
 * Classifies one user message as a planning intent (MODE-6). The words after `--` are the
 * message (joined by spaces); `-` reads it from stdin. Exit 0 for every classification, 2 usage.
 */
export const intentCommand: CliCommand = {
  name: 'intent',
  summary: 'Classify a message typed while planning: exit, stay, cancel or none.',
  usage: USAGE,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseFlags(args, {
      'after-implementation-prompt': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    if (positionals.length === 0)
      throw new UsageError('give the message to classify after `--`, or `-` to read it from stdin');
    const message = positionals.length === 1 && positionals[0] === '-' ? await io.readStdin() : positionals.join(' ');
    const intent = classifyIntent(message, { afterImplementationPrompt: values['after-implementation-prompt'] });
    io.stdout(values.json ? `${contractJson({ intent })}\n` : `${intent}\n`);
    return 0;
  },
};
