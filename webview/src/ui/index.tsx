/**
 * The only module that touches the UI toolkit (architecture: "UI toolkit"). The design card names
 * @vscode/webview-ui-toolkit; Microsoft archived it in January 2025 and @vscode-elements is its
 * maintained successor, so everything toolkit-specific stays in this folder and a swap is one
 * folder. Components are imported from their own files (not the package index) so the bundle
 * carries the three the panel uses; see webview/build/fast-named-exports.mjs for the FAST side.
 * The toolkit themes itself from VS Code's --vscode-* variables (light, dark, high contrast).
 * Its badge is not used: its template carries a `style` attribute binding, which the webview's
 * CSP (no inline styles) refuses with a console error per badge.
 */
import type { ComponentChildren, Ref } from 'preact';
import { provideVSCodeDesignSystem } from '@vscode/webview-ui-toolkit/dist/vscode-design-system.js';
import { vsCodeButton } from '@vscode/webview-ui-toolkit/dist/button/index.js';
import { vsCodeLink } from '@vscode/webview-ui-toolkit/dist/link/index.js';
import { vsCodeProgressRing } from '@vscode/webview-ui-toolkit/dist/progress-ring/index.js';

// Defined before the first render, so elements are upgraded as Preact creates them.
provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeLink(), vsCodeProgressRing());

/** A toolkit element as Preact sees it: the host element (its inner control lives in its shadow root). */
export type ToolkitElement = HTMLElement;

export interface ButtonProps {
  children: ComponentChildren;
  onClick: () => void;
  appearance?: 'primary' | 'secondary' | 'icon';
  disabled?: boolean;
  /**
   * Inert but focusable: clicks are ignored and assistive technology hears "dimmed", while the
   * keyboard focus stays on the button (a `disabled` one drops it to the page).
   */
  ariaDisabled?: boolean;
  title?: string;
  ariaLabel?: string;
  ariaKeyShortcuts?: string;
  class?: string;
  buttonRef?: Ref<ToolkitElement>;
}

export function Button(props: ButtonProps) {
  return (
    <vscode-button
      ref={props.buttonRef}
      appearance={props.appearance ?? 'primary'}
      class={props.class}
      disabled={props.disabled === true}
      title={props.title}
      aria-label={props.ariaLabel}
      aria-keyshortcuts={props.ariaKeyShortcuts}
      aria-disabled={props.ariaDisabled === true ? 'true' : undefined}
      onClick={() => {
        if (!props.disabled && props.ariaDisabled !== true) props.onClick();
      }}
    >
      {props.children}
    </vscode-button>
  );
}

/** An action that reads as a link ("Edit plan (Ctrl+G)"); `href="#"` keeps it in the tab order. */
export function Link(props: {
  children: ComponentChildren;
  onClick: () => void;
  ariaKeyShortcuts?: string;
  class?: string;
}) {
  return (
    <vscode-link
      href="#"
      class={props.class}
      aria-keyshortcuts={props.ariaKeyShortcuts}
      onClick={(event: MouseEvent) => {
        event.preventDefault();
        props.onClick();
      }}
    >
      {props.children}
    </vscode-link>
  );
}

/** A label badge in VS Code's badge colours (see the header comment for why not the toolkit's). */
export function Badge(props: { children: ComponentChildren; title?: string; class?: string }) {
  return (
    <span class={`ui-badge${props.class ? ` ${props.class}` : ''}`} title={props.title}>
      {props.children}
    </span>
  );
}

/**
 * An indeterminate progress ring. The toolkit marks every ring `role="alert"` with an assertive
 * "Loading" label, which would interrupt a screen reader once per running tool card; the ring is
 * hidden from the accessibility tree and the wrapper carries the real label instead.
 */
export function Spinner(props: { label: string }) {
  return (
    <span class="ui-spinner" role="img" aria-label={props.label}>
      <vscode-progress-ring aria-hidden="true" />
    </span>
  );
}
