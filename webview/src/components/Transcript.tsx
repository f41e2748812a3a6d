import { Component } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { TranscriptEntry, WebviewCommand } from '../../../src/protocol';
import { Button } from '../ui';
import { ApprovalGate } from './ApprovalGate';
import { EmptyState } from './EmptyState';
import { AssistantMessage, Notice, Reasoning, TrackerLine, UserMessage } from './Message';
import { PlanCard } from './PlanCard';
import { ToolCard } from './ToolCard';
import { InterviewSummary, Wizard, type InteractionProps } from './Wizard';

/** Rows rendered at once; older ones come back with "Show earlier" (keeps the DOM bounded). */
export const WINDOW = 200;
/** Within this many pixels of the end the view follows new output. */
const FOLLOW_SLACK = 48;

interface RowProps extends InteractionProps {
  entry: TranscriptEntry;
  interviewOpen: boolean;
  /** This plan card's plan is the one the pending gate below shows. */
  underReview: boolean;
}

/**
 * One transcript row. Entries keep their identity until the host changes them, so a streamed
 * delta re-renders one row, not the whole transcript.
 */
class Row extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return (
      next.entry !== this.props.entry ||
      (next.entry.kind === 'approval' && next.interviewOpen !== this.props.interviewOpen) ||
      (next.entry.kind === 'plan' && next.underReview !== this.props.underReview)
    );
  }

  override render({ entry, send, onDone, interviewOpen, underReview }: RowProps) {
    switch (entry.kind) {
      case 'user':
        return <UserMessage entry={entry} />;
      case 'assistant':
        return <AssistantMessage entry={entry} />;
      case 'reasoning':
        return <Reasoning entry={entry} />;
      case 'tool':
        return <ToolCard entry={entry} />;
      case 'plan':
        return <PlanCard entry={entry} underReview={underReview} />;
      case 'notice':
        return <Notice entry={entry} />;
      case 'interview':
        return entry.state === 'pending' ? <Wizard entry={entry} send={send} onDone={onDone} /> : <InterviewSummary entry={entry} />;
      case 'approval':
        return <ApprovalGate entry={entry} send={send} onDone={onDone} suspended={interviewOpen} />;
      case 'tracker':
        return <TrackerLine entry={entry} />;
    }
  }
}

export interface TranscriptProps {
  entries: TranscriptEntry[];
  send: (command: WebviewCommand) => boolean;
  onInteractionDone: () => void;
}

/**
 * The scrolling transcript. It follows the end while the user is there, stays put while they read
 * above, and renders only the latest WINDOW rows plus whatever they asked to see earlier.
 * Links and copy buttons in rendered markdown are handled here by delegation: links are never
 * navigated in the webview, the host opens them.
 */
export function Transcript({ entries, send, onInteractionDone }: TranscriptProps) {
  const scroller = useRef<HTMLElement>(null);
  const following = useRef(true);
  const start = useRef(0);
  const limit = useRef(WINDOW);
  const seen = useRef(entries.length);
  const restore = useRef<number | null>(null);
  const [, redraw] = useState(0);

  // New output while the user watches the end: rows they had asked to see earlier go again,
  // out of sight above them, so the DOM stays bounded.
  if (entries.length > seen.current && following.current) limit.current = WINDOW;
  seen.current = entries.length;
  if (following.current || start.current > entries.length) start.current = Math.max(0, entries.length - limit.current);
  const first = start.current;
  const interviewOpen = entries.some((e) => e.kind === 'interview' && e.state === 'pending');
  // A plan shown in full by a pending gate is collapsed in its card, so the synopsis is not shown twice.
  const reviewed = new Set(entries.flatMap((e) => (e.kind === 'approval' && e.state === 'pending' ? [e.planFile] : [])));

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (restore.current !== null) {
      el.scrollTop += el.scrollHeight - restore.current;
      restore.current = null;
    } else if (following.current) {
      // A waiting question or gate is shown from its heading; otherwise the view follows the end.
      const waiting = el.querySelector<HTMLElement>('section.gate, section.wizard');
      if (waiting) el.scrollTop += waiting.getBoundingClientRect().top - el.getBoundingClientRect().top - 8;
      else el.scrollTop = el.scrollHeight;
    }
  });

  const showEarlier = () => {
    restore.current = scroller.current?.scrollHeight ?? null;
    start.current = Math.max(0, first - WINDOW);
    limit.current = entries.length - start.current;
    redraw((n) => n + 1);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK;
  };

  const onClick = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    const copy = target?.closest('.copy-code');
    if (copy) {
      const code = copy.parentElement?.querySelector('code')?.textContent ?? '';
      if (!send({ type: 'copy', text: code })) return;
      copy.textContent = 'Copied';
      setTimeout(() => (copy.textContent = 'Copy'), 1_500);
      return;
    }
    const link = target?.closest('.md a[href]');
    if (link) {
      e.preventDefault();
      send({ type: 'openLink', href: link.getAttribute('href') ?? '' });
    }
  };

  return (
    <main class="body" ref={scroller} onScroll={onScroll}>
      {entries.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          {first > 0 && (
            <Button appearance="secondary" class="show-earlier" onClick={showEarlier}>
              {`Show ${Math.min(WINDOW, first)} earlier (${first} hidden)`}
            </Button>
          )}
          <div
            class="transcript"
            role="log"
            aria-label="Conversation"
            onClick={onClick}
            onAuxClick={(e) => {
              if (e.target instanceof Element && e.target.closest('.md a[href]')) e.preventDefault();
            }}
          >
            {entries.slice(first).map((entry) => (
              <Row
                key={entry.id}
                entry={entry}
                send={send}
                onDone={onInteractionDone}
                interviewOpen={interviewOpen}
                underReview={entry.kind === 'plan' && entry.status === 'persisted' && entry.planFile !== null && reviewed.has(entry.planFile)}
              />
            ))}
          </div>
        </>
      )}
    </main>
  );
}
