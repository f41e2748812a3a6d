import { Session } from '../../core/session/session';
import { parseFlags } from '../flags';
import { UsageError, type CliCommand } from '../io';
import { PROVIDER_OPTIONS, sessionDeps, sweepWorkspace, workspaceOf } from '../session-setup';
import { eventPrinter, exitCodeFor } from '../transcript';
import { errorMessage } from '../../core/errors';

const USAGE =
  'vtplan resume <session-id> --workspace DIR --provider openai|anthropic --model NAME [--base-url URL] [--api-key-env VAR] [--network default|off|on] [--skip-confirmations] [--jsonl] ("<message>" | --answer "<option label>" [--note "..."])';

/**
 * Continues a session from its log with one user message (a goal, `approve`, `/plan off`, …) or
 * the answer to its open question. A resumed plan still needs its own approval (GATE-5).
 */
export const resumeCommand: CliCommand = {
  name: 'resume',
  summary: 'Continue a session: send a message, answer its question, or approve its plan.',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...PROVIDER_OPTIONS,
      answer: { type: 'string' },
      note: { type: 'string' },
    });
    const [id, ...rest] = positionals;
    if (!id) throw new UsageError('give the session id printed by `vtplan run`');
    const message = rest.join(' ').trim();
    if (values.answer === undefined && message === '')
      throw new UsageError('give a message, or --answer "<option label>"');
    if (values.answer !== undefined && message !== '')
      throw new UsageError('give either a message or --answer, not both');
    if (values.note !== undefined && values.answer === undefined) throw new UsageError('--note goes with --answer');
    const root = workspaceOf(values, io);
    const { deps } = sessionDeps(values, io, root);
    await sweepWorkspace(root, io);
    let session: Session;
    try {
      session = await Session.resume(deps, id);
    } catch (err) {
      io.stderr(`vtplan resume: ${errorMessage(err)}\n`);
      return 2;
    }
    const print = eventPrinter(io, values.jsonl);
    for (const event of session.events.slice(session.replayedCount)) print(event);
    session.on(print);
    let result;
    if (values.answer !== undefined) {
      const pending = session.state.pendingInterview;
      if (!pending) {
        io.stderr('vtplan resume: the session has no open question to answer\n');
        return 2;
      }
      const question = pending.questions[0];
      if (!question) return 2;
      result = await session.answer(pending.interviewId, [
        { questionId: question.id, label: values.answer, ...(values.note !== undefined ? { note: values.note } : {}) },
      ]);
    } else {
      result = await session.submit(message);
    }
    io.stderr(`session: ${session.id}\n`);
    if (result.kind === 'notice') return 1;
    return result.kind === 'ran' ? exitCodeFor(result.status) : 0;
  },
};
