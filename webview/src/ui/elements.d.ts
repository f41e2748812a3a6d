import 'preact';

type ToolkitAttributes = preact.JSX.HTMLAttributes<HTMLElement> & {
  appearance?: string;
  disabled?: boolean;
};

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'vscode-button': ToolkitAttributes;
      'vscode-badge': ToolkitAttributes;
      'vscode-progress-ring': ToolkitAttributes;
    }
  }
}
