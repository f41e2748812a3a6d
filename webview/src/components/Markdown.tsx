import { renderMarkdown } from '../markdown';

/**
 * Markdown from the restricted renderer in ../markdown.ts, the only HTML this webview injects.
 * Links and copy buttons inside it are handled by delegation in the transcript.
 */
export function Markdown({ text, class: extra }: { text: string; class?: string }) {
  return <div class={extra ? `md ${extra}` : 'md'} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
}
