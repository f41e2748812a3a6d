/**
 * The only place that decides how controls look and behave. The design card names
 * @vscode/webview-ui-toolkit; Microsoft archived it in January 2025, and its FAST runtime alone
 * (~80 KB minified) plus markdown-it (~100 KB) cannot fit the 150 KB webview budget. These
 * wrappers therefore render native elements themed with the same --vscode-* tokens the toolkit
 * used (see styles.css, `.ui-*`), which also gives real <button> semantics to screen readers and
 * keyboards. Swapping in a component library (the toolkit or @vscode-elements) stays this one folder.
 */
import type { ComponentChildren, Ref } from 'preact';

export interface ButtonProps {
  children: ComponentChildren;
  onClick: () => void;
  appearance?: 'primary' | 'secondary' | 'icon' | 'link';
  disabled?: boolean;
  title?: string;
  ariaLabel?: string;
  ariaKeyShortcuts?: string;
  class?: string;
  buttonRef?: Ref<HTMLButtonElement>;
}

export function Button(props: ButtonProps) {
  const appearance = props.appearance ?? 'primary';
  return (
    <button
      type="button"
      ref={props.buttonRef}
      class={`ui-button ui-button-${appearance}${props.class ? ` ${props.class}` : ''}`}
      disabled={props.disabled === true}
      title={props.title}
      aria-label={props.ariaLabel}
      aria-keyshortcuts={props.ariaKeyShortcuts}
      onClick={() => {
        if (!props.disabled) props.onClick();
      }}
    >
      {props.children}
    </button>
  );
}

export function Badge(props: { children: ComponentChildren; title?: string; class?: string }) {
  return <span class={`ui-badge${props.class ? ` ${props.class}` : ''}`} title={props.title}>{props.children}</span>;
}

/** An indeterminate progress indicator; hidden from the accessibility tree apart from its label. */
export function Spinner(props: { label: string }) {
  return <span class="ui-spinner" role="img" aria-label={props.label} />;
}
