import { useRef } from 'preact/hooks';

/** The App's root element class: focus inside it is focus in the chat view. */
export const PANEL_CLASS = 'panel';

/**
 * The user's keyboard focus is already in the chat view: the webview document has focus (it loses it
 * as soon as the user clicks into an editor or any other part of VS Code) and nothing outside the
 * panel holds it. A focused document with no focused element (the body) is the view itself, e.g.
 * right after VS Code focused it or after a clicked button went away.
 * Cards that appear by themselves (a gate, a question) take focus only then: a gate mounted because
 * the user saved the plan file in the editor must not pull the next keystroke into the chat.
 */
export function focusIsInView(doc: Document = document): boolean {
  if (!doc.hasFocus()) return false;
  const active = doc.activeElement;
  return active === null || active === doc.body || active.closest(`.${PANEL_CLASS}`) !== null;
}

const ACTIVATION_KEYS = new Set([' ', 'Enter']);

interface KeyHandlers {
  onKeyDownCapture: (e: KeyboardEvent) => void;
  onKeyPressCapture: (e: KeyboardEvent) => void;
  onKeyUpCapture: (e: KeyboardEvent) => void;
}

/**
 * Refuses keyboard activation whose keydown this card's control did not see. A native button
 * clicks on Space's keyup and on Enter's keypress; when focus lands in the webview in the middle
 * of a keystroke (a key held in the editor while a card appears, VS Code moving focus to the view),
 * the keyup or keypress arrives here without its keydown and the click that follows would act on
 * a key the user pressed elsewhere. Pointer and assistive-technology clicks carry no key events
 * and pass. The refusal lasts until the current task ends: the browser dispatches that click in
 * the same task as the key event.
 */
export function useKeyActivationGuard(): { handlers: KeyHandlers; allows: () => boolean } {
  const armed = useRef<{ key: string; target: EventTarget | null } | null>(null);
  const refused = useRef(false);

  const refuse = () => {
    refused.current = true;
    setTimeout(() => (refused.current = false), 0);
  };
  const seenDown = (e: KeyboardEvent) =>
    armed.current !== null && armed.current.key === e.key && armed.current.target === e.target;

  const handlers: KeyHandlers = {
    onKeyDownCapture: (e) => {
      if (!ACTIVATION_KEYS.has(e.key)) return;
      // An auto-repeat whose first keydown went elsewhere is the same keystroke: still not ours.
      if (e.repeat && !seenDown(e)) {
        refuse();
        return;
      }
      // A new keystroke: the click a refused one would have caused has already been dispatched.
      refused.current = false;
      armed.current = { key: e.key, target: e.target };
    },
    onKeyPressCapture: (e) => {
      if (ACTIVATION_KEYS.has(e.key) && !seenDown(e)) refuse();
    },
    onKeyUpCapture: (e) => {
      if (!ACTIVATION_KEYS.has(e.key)) return;
      if (!seenDown(e)) refuse();
      armed.current = null;
    },
  };
  return { handlers, allows: () => !refused.current };
}
