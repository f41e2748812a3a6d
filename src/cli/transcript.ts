/**
 * Prints session events for `vtplan run` / `resume`: JSONL (one event per line, the contract other
 * tools read) or a readable transcript for people. Both are safe to show on a terminal: model and
 * command text cannot send it escape sequences (terminal-text.ts).
 */
import type { SessionEvent } from '../core/session/events';
import { assertNever, HANDOFF_PHASE_LABEL, type TurnStatus } from '../core/vocabulary';
import type { CliIO } from './io';
import { terminalSafe, terminalSafeJson } from './terminal-text';

export function eventPrinter(io: CliIO, jsonl: boolean): (event: SessionEvent) => void {
  if (jsonl) return (event) => io.stdout(`${terminalSafeJson(JSON.stringify(event))}\n`);
  let midLine = false;
  // Every readable line passes here or through the delta branch below, so nothing reaches the terminal unfiltered.
  const line = (text: string) => {
    if (midLine) io.stdout('\n');
    midLine = false;
    io.stdout(`${terminalSafe(text)}\n`);
  };
  return (event) => {
    switch (event.type) {
      case 'session.started':
        line(
          `● session ${event.session} (${event.agent}, ${event.provider}/${event.model})${event.resumed ? ' resumed' : ''}`,
        );
        return event.sandbox ? line(`${event.sandbox.sandboxed ? '●' : '!'} ${event.sandbox.summary}`) : undefined;
      case 'mode.changed':
        return line(`● mode: ${event.from} → ${event.to}`);
      case 'turn.started':
        return event.input && event.kind === 'user' ? line(`\n> ${event.input}`) : undefined;
      case 'message.delta': {
        const text = terminalSafe(event.text);
        io.stdout(text);
        midLine = !text.endsWith('\n');
        return;
      }
      case 'tool.call':
        return line(`→ ${event.name} ${event.arguments}`);
      case 'tool.result':
        return line(`  ${event.ok ? '✓' : '✗'} ${event.name}: ${firstLine(event.content)}`);
      case 'tool.blocked':
        return line(`  ⊘ ${event.name}: ${event.reason}`);
      case 'plan.rejected':
        return line(
          `✗ plan rejected (attempt ${event.attempt}):\n${event.reasons.map((r) => `  - ${r.code}: ${r.message}`).join('\n')}`,
        );
      case 'plan.persisted':
        return line(`✓ plan saved: ${event.planFile}${event.title ? ` — ${event.title}` : ''}`);
      case 'plan.approval.requested':
        return line(`? Ready to code? Approve with: vtplan resume ${event.session} --workspace … approve`);
      case 'plan.approval.resolved':
        return line(`● approval: ${event.choice}`);
      case 'interview.requested':
        return line(
          event.questions
            .map(
              (q) =>
                `? ${q.question}\n${q.options.map((o, i) => `  ${i + 1}. ${o.label}${o.recommended ? ' (Recommended)' : ''}`).join('\n')}`,
            )
            .join('\n'),
        );
      case 'planning.awaiting_input':
        return line(`? ${event.reason} Choices: ${event.choices.join(' / ')}`);
      case 'handoff.phase':
        return event.phase === 'done' ? undefined : line(`● ${HANDOFF_PHASE_LABEL[event.phase]}`);
      case 'tracker.updated':
        return line(`☐ checklist ${event.completed}/${event.total} (${event.trackerFile})`);
      case 'notice':
        return line(`${event.level === 'error' ? '✗' : event.level === 'warning' ? '!' : '●'} ${event.text}`);
      case 'provider.retry':
        return line(`… retry ${event.retry} in ${Math.round(event.delayMs)} ms: ${event.failure.message}`);
      case 'provider.failed':
        return line(`✗ model request failed: ${event.failure.message}`);
      case 'budget_exhausted':
        return line(`! ${event.kind} budget used up (${event.used}/${event.max})`);
      case 'turn.completed':
        return line(`● ${event.status}${event.reason ? `: ${event.reason}` : ''}`);
      // Not printed; listed so that a new event type is a decision here (switch-exhaustiveness-check).
      case 'context.reset':
      case 'directive':
      case 'interview.denied':
      case 'interview.resolved':
      case 'message.completed':
      case 'plan.completed':
      case 'plan.delta':
      case 'planning.requested':
      case 'reasoning.delta':
      case 'session_tool_limit_increased':
      case 'tool_loop_limit_increased':
      case 'turn.suspended':
        return undefined;
    }
  };
}

function firstLine(text: string): string {
  const l = text.split('\n', 1)[0] ?? '';
  return l.length > 160 ? `${l.slice(0, 157)}…` : l;
}

/** Exit codes of run/resume: 0 waiting or idle, 3 blocked, 1 failure or cancellation. */
export function exitCodeFor(status: TurnStatus): number {
  switch (status) {
    case 'idle':
    case 'awaiting_approval':
    case 'awaiting_input':
      return 0;
    case 'blocked':
      return 3;
    case 'failed':
    case 'cancelled':
      return 1;
    default:
      return assertNever(status, 'turn status');
  }
}
