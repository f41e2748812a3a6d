// JSX types for the toolkit elements used in ./index.tsx (and nowhere else).
import type { JSX } from 'preact';

type ToolkitAttributes = JSX.HTMLAttributes<HTMLElement>;

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'vscode-button': ToolkitAttributes & { appearance?: 'primary' | 'secondary' | 'icon'; disabled?: boolean };
      'vscode-link': ToolkitAttributes & { href?: string };
      'vscode-progress-ring': ToolkitAttributes;
    }
  }
}
