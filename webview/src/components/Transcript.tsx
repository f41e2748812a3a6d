import { Component } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { TRANSCRIPT_WINDOW, type TranscriptEntry, type WebviewCommand } from '../../../src/protocol';
import { Button } from '../ui';
import { ApprovalGate } from './ApprovalGate';
import { EmptyState } from './EmptyState';
import { AssistantMessage, Notice, Reasoning, TrackerLine, UserMessage } from './Message';
import { PlanCard } from './PlanCard';
import { ToolCard } from './ToolCard';
import { InterviewSummary, Wizard, type InteractionProps } from './Wizard';

/** Rows rendered at once; older ones come back with "Show earlier messages" (keeps the DOM bounded). */
export const WINDOW = TRANSCRIPT_WINDOW;
/** Within this many pixels of the end the view follows new output. */
const FOLLOW_SLACK = 48;
/** Room left above a waiting card's heading when it is scrolled to. */
const CARD_MARGIN = 8;

interface RowProps extends InteractionProps {
  entry: TranscriptEntry;
  interviewOpen: boolean;
  /** This plan card's plan is the one the pending gate below shows. */
  underReview: boolean;
  gateFocusRequest: number;
}

/**
 * One transcript row. Entries keep their identity until the host changes them, so a streamed
 * delta re-renders one row, not the whole transcript.
 */
class Row extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return (
      next.entry !== this.props.entry ||
      (next.entry.kind === 'approval' &&
        (next.interviewOpen !== this.props.interviewOpen || next.gateFocusRequest !== this.props.gateFocusRequest)) ||
      (next.entry.kind === 'plan' && next.underReview !== this.props.underReview)
    );
  }

  override render({ entry, send, onDone, interviewOpen, underReview, gateFocusRequest }: RowProps) {
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
        return <PlanCard entry={entry} underReview={underReview} send={send} />;
      case 'notice':
        return <Notice entry={entry} send={send} />;
      case 'interview':
        return entry.state === 'pending' ? (
          <Wizard entry={entry} send={send} onDone={onDone} />
        ) : (
          <InterviewSummary entry={entry} />
        );
      case 'approval':
        return (
          <ApprovalGate
            entry={entry}
            send={send}
            onDone={onDone}
            suspended={interviewOpen}
            focusRequest={gateFocusRequest}
          />
        );
      case 'tracker':
        return <TrackerLine entry={entry} />;
    }
  }
}

export interface TranscriptProps {
  entries: TranscriptEntry[];
  /** Rows before `entries` that the host still holds; "Show earlier messages" asks for a page of them. */
  earlier?: number;
  send: (command: WebviewCommand) => boolean;
  onInteractionDone: () => void;
  /** Bumped by the host's `focusGate`: the pending gate is scrolled into view (and focuses itself). */
  gateFocusRequest?: number;
}

/** Where following the end stops: the end, but never past a waiting question's or gate's heading. */
function followTarget(el: HTMLElement): number {
  const end = el.scrollHeight - el.clientHeight;
  const card = el.querySelector<HTMLElement>('section.gate, section.wizard');
  if (!card) return end;
  return Math.min(end, el.scrollTop + card.getBoundingClientRect().top - el.getBoundingClientRect().top - CARD_MARGIN);
}

/** The card that waits for the user: an open question first (no gate is offered meanwhile, INT-2). */
function waitingCard(entries: readonly TranscriptEntry[]): TranscriptEntry | null {
  let gate: TranscriptEntry | null = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.kind === 'interview' && e.state === 'pending') return e;
    if (e?.kind === 'approval' && e.state === 'pending') gate ??= e;
  }
  return gate;
}

/**
 * The scrolling transcript, the only part of the panel that scrolls. It follows the end while the
 * user is there (a waiting question or gate is shown from its heading), stays put while they read
 * above, with "Jump to latest" to come back, and brings each new question or gate into view. It
 * renders only the latest WINDOW rows plus whatever the user asked to see earlier.
 * Links and copy buttons in rendered markdown are handled here by delegation: links are never
 * navigated in the webview, the host opens them.
 */
export function Transcript({ entries, earlier = 0, send, onInteractionDone, gateFocusRequest = 0 }: TranscriptProps) {
  const scroller = useRef<HTMLElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  /** The user scrolled away from the end: "Jump to latest" shows. Mirrors `following` for rendering. */
  const [detached, setDetached] = useState(false);
  /** The scrollTop this component set last: its scroll event is not the user scrolling. */
  const ownScroll = useRef<number | null>(null);
  const revealed = useRef<TranscriptEntry | null>(null);
  const revealedRequest = useRef(gateFocusRequest);
  const followedEntries = useRef<TranscriptEntry[] | null>(null);
  const start = useRef(0);
  const limit = useRef(WINDOW);
  const seen = useRef(entries.length);
  const restore = useRef<number | null>(null);
  /** The scroll height when the host was asked for earlier rows; null when nothing is asked. */
  const paging = useRef<number | null>(null);
  const held = useRef(earlier);
  const [, redraw] = useState(0);

  const follow = (on: boolean) => {
    following.current = on;
    setDetached(!on);
  };
  const scrollTo = (el: HTMLElement, top: number) => {
    const target = Math.max(0, Math.min(top, el.scrollHeight - el.clientHeight));
    if (Math.abs(el.scrollTop - target) < 1) return;
    ownScroll.current = target;
    el.scrollTop = target;
  };

  // The page the host sent for "Show earlier messages" came in before the rows shown: all of them show.
  if (earlier < held.current && paging.current !== null) {
    restore.current = paging.current;
    paging.current = null;
    limit.current = entries.length;
    seen.current = entries.length;
  }
  held.current = earlier;
  // New output while the user watches the end: rows they had asked to see earlier go again,
  // out of sight above them, so the DOM stays bounded.
  if (entries.length > seen.current && following.current) limit.current = WINDOW;
  seen.current = entries.length;
  if (following.current || start.current > entries.length) start.current = Math.max(0, entries.length - limit.current);
  const waiting = waitingCard(entries);
  // The card waiting for the user is never left behind "Show earlier messages", however old it is.
  const waitingAt = waiting ? entries.indexOf(waiting) : -1;
  if (waitingAt !== -1 && waitingAt < start.current) start.current = waitingAt;
  const first = start.current;
  const hidden = first + earlier;
  const interviewOpen = entries.some((e) => e.kind === 'interview' && e.state === 'pending');
  // A plan shown in full by a pending gate is collapsed in its card, so the synopsis is not shown twice.
  const reviewed = new Set(
    entries.flatMap((e) => (e.kind === 'approval' && e.state === 'pending' ? [e.planFile] : [])),
  );

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (restore.current !== null) {
      scrollTo(el, el.scrollTop + el.scrollHeight - restore.current);
      restore.current = null;
      return;
    }
    // A new or changed question or gate (a gate replaced or updated by a save of the plan file), or
    // the host asking for the gate: it is what the user has to act on, so it comes into view even
    // if they were reading above. Entries keep their identity until the host changes them.
    const reveal = (waiting !== null && waiting !== revealed.current) || gateFocusRequest !== revealedRequest.current;
    revealed.current = waiting;
    revealedRequest.current = gateFocusRequest;
    if (reveal) follow(true);
    // Only a transcript change moves the view: a status re-render must not undo the user's scrolling.
    if (following.current && (reveal || entries !== followedEntries.current)) scrollTo(el, followTarget(el));
    followedEntries.current = entries;
  });

  // Content that grows after rendering (toolkit controls upgrading, a card expanding) or a resized
  // panel would leave a following view short of the end.
  const empty = entries.length === 0;
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) scrollTo(el, followTarget(el));
    });
    observer.observe(el);
    if (content.current) observer.observe(content.current);
    return () => observer.disconnect();
  }, [empty]);

  // Rows the panel holds show first; then the host is asked for the page before them, rendered on request.
  const showEarlier = () => {
    if (first === 0) {
      if (paging.current === null && send({ type: 'showEarlier' }))
        paging.current = scroller.current?.scrollHeight ?? 0;
      return;
    }
    restore.current = scroller.current?.scrollHeight ?? null;
    start.current = Math.max(0, first - WINDOW);
    limit.current = entries.length - start.current;
    redraw((n) => n + 1);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const own = ownScroll.current;
    ownScroll.current = null;
    // Following may rest above the end (at a waiting card's heading): only the user detaches it.
    if (own !== null && Math.abs(el.scrollTop - own) <= 2) return;
    follow(el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK);
  };

  const jumpToLatest = () => {
    const el = scroller.current;
    if (!el) return;
    // The button goes away: the focus it held stays in the transcript (Space and PageDown scroll it).
    const hadFocus = document.activeElement?.closest('.jump-latest') != null;
    follow(true);
    scrollTo(el, el.scrollHeight - el.clientHeight);
    if (hadFocus) el.focus({ preventScroll: true });
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
    <div class="transcript-frame">
      <main class="body" ref={scroller} onScroll={onScroll} tabIndex={-1}>
        {entries.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            {hidden > 0 && (
              <Button appearance="secondary" class="show-earlier" onClick={showEarlier}>
                {`Show earlier messages (${hidden} hidden)`}
              </Button>
            )}
            <div
              ref={content}
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
                  underReview={
                    entry.kind === 'plan' &&
                    entry.status === 'persisted' &&
                    entry.planFile !== null &&
                    reviewed.has(entry.planFile)
                  }
                  gateFocusRequest={gateFocusRequest}
                />
              ))}
            </div>
          </>
        )}
      </main>
      {detached && !empty && (
        <Button appearance="secondary" class="jump-latest" ariaLabel="Jump to latest" onClick={jumpToLatest}>
          <span aria-hidden="true">↓</span>
          <span>Jump to latest</span>
        </Button>
      )}
    </div>
  );
}
