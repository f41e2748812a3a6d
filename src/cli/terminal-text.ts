/**
 * Text from the model and from commands reaches the user's terminal in `vtplan run`/`resume`'s
 * readable transcript. Raw, its control characters would act on the terminal instead of being
 * read: OSC 0/2 retitles the window, OSC 52 writes the clipboard, OSC 8 hides a link target behind
 * innocent text, CSI clears the screen or moves the cursor to overwrite earlier lines, a bare CR
 * or backspaces print over what was just shown, DCS talks to the terminal itself, and the 8-bit
 * C1 forms (U+009B is CSI) do the same without an ESC.
 *
 * So every control character except newline and tab is shown instead of sent: C0 as its Unicode
 * Control Picture (ESC → ␛, CR → ␍, BEL → ␇), DEL as ␡, C1 as ␛ plus its 7-bit equivalent
 * (U+009B → ␛[). The result has no byte a terminal acts on, whatever way the text is cut (a
 * sequence split across two stream deltas is just as inert). Colour codes (SGR) are the one
 * exception: common in test output and harmless once nothing else can run, they are removed
 * rather than shown, which also undoes tricks like "concealed" text.
 */

// SGR: CSI parameters then `m`. Only well-formed ones; anything else falls through to the pictures.
// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;:]*m/g;
// Every C0 control but TAB and LF, DEL, and the C1 block.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function picture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\u241b${String.fromCharCode(code - 0x40)}`;
}

/** `text` with nothing left that a terminal would interpret, newlines and tabs kept. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(SGR, '').replace(CONTROL, picture);
}

// JSON.stringify escapes U+0000–U+001F only; DEL and the C1 block would reach the terminal raw.
const JSON_UNESCAPED_CONTROL = /[\x7f-\x9f]/g;

/**
 * A JSON text with DEL and C1 characters written as `\u` escapes: the same JSON value, but a
 * terminal showing the JSONL stream sees only printable characters. (They can only occur inside
 * strings, where the escape means the same character.)
 */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
