// Finding UI-toolkit controls in component tests. A toolkit button is a <vscode-button> host whose
// real <button> lives in its shadow root, where Testing Library's role queries do not look.

export interface ToolkitButton extends HTMLElement {
  disabled: boolean;
}

function accessibleName(host: Element): string {
  return (host.getAttribute('aria-label') ?? host.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The inner control the user operates; its presence proves the toolkit upgraded the element. */
export function innerControl(host: Element): HTMLButtonElement {
  const control = host.shadowRoot?.querySelector<HTMLButtonElement>('button.control');
  if (!control) throw new Error(`<${host.localName}> is not an upgraded toolkit button`);
  return control;
}

export function queryToolkitButton(name: string, root: ParentNode = document): ToolkitButton | null {
  const found = [...root.querySelectorAll<ToolkitButton>('vscode-button')].filter((b) => accessibleName(b) === name);
  if (found.length > 1) throw new Error(`${found.length} toolkit buttons are named "${name}"`);
  const button = found[0] ?? null;
  if (button) innerControl(button);
  return button;
}

export function getToolkitButton(name: string, root: ParentNode = document): ToolkitButton {
  const button = queryToolkitButton(name, root);
  if (!button) throw new Error(`no toolkit button named "${name}"`);
  return button;
}

/**
 * Clicks the way a user does: on the shadow <button>, whose click bubbles out of the shadow root.
 * First lets the toolkit apply its queued updates (it mirrors `disabled` onto the inner button on
 * the next frame), as a real click always comes after them.
 */
export async function press(button: ToolkitButton): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  innerControl(button).click();
}
