/**
 * The revisions of each plan file, rebuilt from the event stream (EVT-1) so that the chat's
 * revision card and "Compare with Previous Plan" survive a reload: the text of every revision is
 * in the log's `plan.completed` events.
 *
 * A revision is a text the runtime accepted for a plan file: the model's plan when
 * `plan.persisted` names the file, or the user's edit (Ctrl+G, GATE-2) when the re-read text is
 * followed by `plan.approval.requested`. A save that changes nothing is not a new revision.
 */
import type { SessionEvent } from './events';

export type RevisionSource = 'planner' | 'editor';

export interface PlanRevision {
  planFile: string;
  /** 1 for the plan as first written, counting up per plan file. */
  number: number;
  text: string;
  source: RevisionSource;
  /** `seq` of the event that made it a revision. */
  seq: number;
}

/** What one event did to the revisions, for a caller that renders them as they come. */
export type RevisionStep =
  | { kind: 'none' }
  /** A plan text arrived; it becomes a revision only when the runtime accepts it for a file. */
  | { kind: 'candidate'; source: RevisionSource }
  | { kind: 'revision'; revision: PlanRevision; previous: PlanRevision | null }
  /** Accepted, but the same text as the latest revision (a save without changes). */
  | { kind: 'unchanged'; revision: PlanRevision };

export class PlanRevisionLog {
  private readonly byFile = new Map<string, PlanRevision[]>();
  private candidate: { text: string; source: RevisionSource } | null = null;
  private inTurn = false;

  revisions(planFile: string): readonly PlanRevision[] {
    return this.byFile.get(planFile) ?? [];
  }

  apply(event: SessionEvent): RevisionStep {
    switch (event.type) {
      case 'turn.started':
        this.inTurn = true;
        this.candidate = null;
        return { kind: 'none' };
      case 'turn.completed':
        this.inTurn = false;
        this.candidate = null;
        return { kind: 'none' };
      case 'plan.completed': {
        // Logs from before `source` existed: the only plan text emitted outside a turn is a re-read save.
        const source = event.source === 'editor' || (event.source === undefined && !this.inTurn) ? 'editor' : 'planner';
        this.candidate = { text: event.text, source };
        return { kind: 'candidate', source };
      }
      case 'plan.rejected':
        this.candidate = null;
        return { kind: 'none' };
      case 'plan.persisted':
        return this.accept(event.planFile, event.seq, 'planner');
      case 'plan.approval.requested':
        // The model's plan was accepted by `plan.persisted` already; only a re-read edit is pending here.
        return this.candidate?.source === 'editor'
          ? this.accept(event.planFile, event.seq, 'editor')
          : { kind: 'none' };
      // No bearing on revisions; listed so that a new event type is a decision here.
      case 'budget_exhausted':
      case 'context.reset':
      case 'directive':
      case 'handoff.phase':
      case 'interview.denied':
      case 'interview.requested':
      case 'interview.resolved':
      case 'message.completed':
      case 'message.delta':
      case 'mode.changed':
      case 'notice':
      case 'plan.approval.resolved':
      case 'plan.delta':
      case 'planning.awaiting_input':
      case 'planning.requested':
      case 'provider.failed':
      case 'provider.retry':
      case 'reasoning.delta':
      case 'session_tool_limit_increased':
      case 'session.started':
      case 'tool_loop_limit_increased':
      case 'tool.blocked':
      case 'tool.call':
      case 'tool.result':
      case 'tracker.updated':
      case 'turn.suspended':
        return { kind: 'none' };
    }
  }

  private accept(planFile: string, seq: number, source: RevisionSource): RevisionStep {
    const candidate = this.candidate;
    this.candidate = null;
    if (!candidate) return { kind: 'none' };
    const list = this.byFile.get(planFile) ?? [];
    const previous = list.at(-1) ?? null;
    if (previous && previous.text.trim() === candidate.text.trim()) return { kind: 'unchanged', revision: previous };
    const revision: PlanRevision = { planFile, number: list.length + 1, text: candidate.text, source, seq };
    this.byFile.set(planFile, [...list, revision]);
    return { kind: 'revision', revision, previous };
  }
}

/** Every revision of `planFile` in a session's events, oldest first. */
export function planRevisions(events: readonly SessionEvent[], planFile: string): readonly PlanRevision[] {
  const log = new PlanRevisionLog();
  for (const e of events) log.apply(e);
  return log.revisions(planFile);
}
