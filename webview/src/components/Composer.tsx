import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { focusIsInView } from './focus';
import { Button } from '../ui';

export const SLASH_COMMANDS: readonly { name: string; hint: string }[] = [
  { name: '/plan', hint: 'Enter planning: read-only research, then a plan to approve' },
  { name: '/plan off', hint: 'Leave planning and return to the previous agent' },
  { name: '/mode build', hint: 'Build agent: writes files, asks before commands' },
  { name: '/mode auto', hint: 'Auto agent: writes files and runs commands without asking' },
];

export const PLAN_WHILE_BUSY = 'A turn is running; /plan was not sent. Stop it first or wait.';
const HISTORY_LIMIT = 50;

export interface ComposerProps {
  /** False when the message was not sent; the text then stays in the composer. */
  onSubmit: (text: string) => boolean;
  /** Why input is disabled (a prompt owns it); null when enabled. */
  lockedReason: string | null;
  /** A turn is running: `/plan` is refused locally with a notice (MODE-2). */
  busy: boolean;
  onRefused: (notice: string) => void;
  draft: string;
  history: readonly string[];
  onChange: (draft: string, history: readonly string[]) => void;
  focusRequest: number;
  /** A message the host gave back: it returns to an empty composer (never over new typing). */
  draftRestore?: { text: string; seq: number };
}

function matchesFor(text: string): typeof SLASH_COMMANDS {
  if (!text.startsWith('/') || text.includes('\n')) return [];
  const found = SLASH_COMMANDS.filter((c) => c.name.startsWith(text));
  return found.length === 1 && found[0]?.name === text ? [] : found;
}

/**
 * Multi-line input: Enter sends, Shift+Enter breaks the line, `/` opens command completion
 * (arrows, Tab/Enter pick, Esc closes), Up/Down on the first/last line walk the history.
 * Draft and history survive reloads through view state.
 */
export function Composer(props: ComposerProps) {
  const [text, setText] = useState(props.draft);
  const [history, setHistory] = useState(props.history);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const browsing = useRef<{ index: number; stash: string } | null>(null);
  const focusWhenUnlocked = useRef(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const caretToEnd = useRef(false);
  const locked = props.lockedReason !== null;
  const matches = locked || dismissed ? [] : matchesFor(text);
  const menuOpen = matches.length > 0;
  const activeIndex = Math.min(active, matches.length - 1);

  useEffect(() => {
    if (props.focusRequest === 0) return;
    if (locked) focusWhenUnlocked.current = true;
    else area.current?.focus();
  }, [props.focusRequest]);
  useEffect(() => {
    if (!locked && focusWhenUnlocked.current) {
      focusWhenUnlocked.current = false;
      // Deferred: the user may have gone elsewhere meanwhile (the command palette, an editor).
      if (focusIsInView()) area.current?.focus();
    }
  }, [locked]);

  useEffect(() => {
    const restore = props.draftRestore;
    if (!restore || restore.seq === 0 || text.trim() !== '') return;
    update(restore.text);
    caretToEnd.current = true;
  }, [props.draftRestore?.seq]);

  useLayoutEffect(() => {
    if (!caretToEnd.current || !area.current) return;
    caretToEnd.current = false;
    area.current.setSelectionRange(text.length, text.length);
  });

  const update = (value: string, nextHistory = history) => {
    setText(value);
    setHistory(nextHistory);
    setActive(0);
    setDismissed(false);
    props.onChange(value, nextHistory);
  };
  const send = (value = text) => {
    const trimmed = value.trim();
    if (locked || trimmed === '') return;
    if (props.busy && /^\/plan\b/.test(trimmed)) {
      props.onRefused(PLAN_WHILE_BUSY);
      return;
    }
    if (!props.onSubmit(trimmed)) return;
    browsing.current = null;
    update('', history[history.length - 1] === trimmed ? history : [...history, trimmed].slice(-HISTORY_LIMIT));
  };
  const pick = (name: string, sendIfSame: boolean) => {
    if (sendIfSame && name === text) send(name);
    else update(name);
    area.current?.focus();
  };
  const recall = (value: string) => {
    setText(value);
    props.onChange(value, history);
    caretToEnd.current = true;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const el = e.currentTarget as HTMLTextAreaElement;
    if (menuOpen) {
      const pickKey = e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey);
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((activeIndex + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (pickKey && !e.isComposing) {
        e.preventDefault();
        const choice = matches[activeIndex];
        if (choice) pick(choice.name, e.key === 'Enter');
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(true);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
      return;
    }
    const onFirstLine = el.value.lastIndexOf('\n', el.selectionStart - 1) === -1;
    const onLastLine = el.value.indexOf('\n', el.selectionEnd) === -1;
    if (e.key === 'ArrowUp' && onFirstLine && history.length > 0 && !e.shiftKey) {
      const at = browsing.current;
      const index = at === null ? history.length - 1 : Math.max(0, at.index - 1);
      browsing.current = { index, stash: at === null ? text : at.stash };
      e.preventDefault();
      recall(history[index] ?? '');
    } else if (e.key === 'ArrowDown' && onLastLine && browsing.current !== null && !e.shiftKey) {
      const at = browsing.current;
      e.preventDefault();
      if (at.index + 1 >= history.length) {
        browsing.current = null;
        recall(at.stash);
      } else {
        browsing.current = { index: at.index + 1, stash: at.stash };
        recall(history[at.index + 1] ?? '');
      }
    }
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      aria-label="Message composer"
    >
      {menuOpen && (
        <ul class="slash-menu" id="slash-menu" role="listbox" aria-label="Commands">
          {matches.map((c, i) => (
            <li
              key={c.name}
              id={`slash-${i}`}
              role="option"
              aria-selected={i === activeIndex}
              class={`slash-item${i === activeIndex ? ' is-active' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c.name, false);
              }}
            >
              <span class="slash-name">{c.name}</span>
              <span class="slash-hint">{c.hint}</span>
            </li>
          ))}
        </ul>
      )}
      {locked && (
        <div class="composer-locked" id="composer-locked">
          {props.lockedReason}
        </div>
      )}
      <textarea
        ref={area}
        class="composer-input"
        rows={3}
        value={text}
        disabled={locked}
        placeholder={
          locked ? '' : 'Describe what you want to build… (Enter to send, Shift+Enter for a new line, / for commands)'
        }
        aria-label="Message"
        aria-describedby={locked ? 'composer-locked' : undefined}
        aria-autocomplete="list"
        aria-controls={menuOpen ? 'slash-menu' : undefined}
        aria-activedescendant={menuOpen ? `slash-${activeIndex}` : undefined}
        onInput={(e) => {
          browsing.current = null;
          update((e.currentTarget as HTMLTextAreaElement).value);
        }}
        onKeyDown={onKeyDown}
      />
      <div class="composer-actions">
        <Button
          onClick={() => send()}
          disabled={locked || text.trim() === ''}
          ariaLabel="Send message"
          class="composer-send"
        >
          Send
        </Button>
      </div>
    </form>
  );
}
