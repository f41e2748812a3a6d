import { useEffect, useRef, useState } from 'preact/hooks';
import { Button } from '../ui';

export interface ComposerProps {
  onSubmit: (text: string) => void;
  /** Why input is disabled (a prompt owns it); null when enabled. */
  lockedReason: string | null;
  draft: string;
  onDraftChange: (draft: string) => void;
  focusRequest: number;
}

/** Multi-line input: Enter sends, Shift+Enter breaks the line. The draft survives reloads via view state. */
export function Composer(props: ComposerProps) {
  const [text, setText] = useState(props.draft);
  const area = useRef<HTMLTextAreaElement>(null);
  const locked = props.lockedReason !== null;

  useEffect(() => {
    if (props.focusRequest > 0) area.current?.focus();
  }, [props.focusRequest]);

  const update = (value: string) => {
    setText(value);
    props.onDraftChange(value);
  };
  const send = () => {
    if (locked || text.trim() === '') return;
    props.onSubmit(text);
    update('');
  };

  return (
    <form class="composer" onSubmit={(e) => { e.preventDefault(); send(); }} aria-label="Message composer">
      <textarea
        ref={area}
        class="composer-input"
        rows={3}
        value={text}
        disabled={locked}
        placeholder={props.lockedReason ?? 'Describe what you want to build… (Enter to send, Shift+Enter for a new line)'}
        aria-label="Message"
        onInput={(e) => update((e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div class="composer-actions">
        <Button onClick={send} disabled={locked || text.trim() === ''} ariaLabel="Send message">Send</Button>
      </div>
    </form>
  );
}
