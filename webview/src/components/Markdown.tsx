/**
 * Markdown the extension host rendered and sanitised (src/extension/markdown.ts): the only HTML
 * this webview injects. Links and copy buttons inside it are handled by delegation in the transcript.
 */
export function Markdown({ html, class: extra }: { html: string; class?: string }) {
  return <div class={extra ? `md ${extra}` : 'md'} dangerouslySetInnerHTML={{ __html: html }} />;
}
