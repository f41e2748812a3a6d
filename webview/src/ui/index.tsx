/**
 * The only place that touches the UI toolkit (@vscode/webview-ui-toolkit). Microsoft archived
 * it in January 2025; keeping it behind these wrappers makes a swap to @vscode-elements one folder.
 */
import { provideVSCodeDesignSystem, vsCodeBadge, vsCodeButton, vsCodeProgressRing } from '@vscode/webview-ui-toolkit';
import type { ComponentChildren } from 'preact';

let registered = false;
/** Registers the custom elements once; safe to call again. */
export function registerToolkit(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeBadge(), vsCodeProgressRing());
}

export interface ButtonProps {
  children: ComponentChildren;
  onClick: () => void;
  appearance?: 'primary' | 'secondary' | 'icon';
  disabled?: boolean;
  title?: string;
  ariaLabel?: string;
}

export function Button(props: ButtonProps) {
  return (
    <vscode-button
      appearance={props.appearance ?? 'primary'}
      disabled={props.disabled === true}
      title={props.title}
      aria-label={props.ariaLabel}
      onClick={() => {
        if (!props.disabled) props.onClick();
      }}
    >
      {props.children}
    </vscode-button>
  );
}

export function Badge(props: { children: ComponentChildren; title?: string }) {
  return <vscode-badge title={props.title}>{props.children}</vscode-badge>;
}

export function Spinner(props: { label: string }) {
  return <vscode-progress-ring aria-label={props.label} class="spinner" />;
}
