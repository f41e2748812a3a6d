import { Component } from 'preact';

/**
 * Markdown the extension host rendered and sanitised (src/extension/markdown.ts): the only HTML
 * this webview injects. Links and copy buttons inside it are handled by delegation in the transcript.
 */
export function Markdown({ html, class: extra }: { html: string; class?: string }) {
  return <div class={extra ? `md ${extra}` : 'md'} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Renders only when its HTML changes: a settled chunk is injected once, not every frame. */
class Chunk extends Component<{ html: string }> {
  override shouldComponentUpdate(next: { html: string }): boolean {
    return next.html !== this.props.html;
  }
  override render() {
    return <Markdown html={this.props.html} />;
  }
}

/**
 * Markdown still streaming, as the host chunked it: settled blocks that never change, then the
 * tail, the only chunk that changes from frame to frame (UI-1: streaming without jank).
 */
export function StreamingMarkdown({ chunks, class: extra }: { chunks: readonly string[]; class: string }) {
  return (
    <div class={`${extra} md-stream`}>
      {chunks.map((html, i) => (
        <Chunk key={i} html={html} />
      ))}
    </div>
  );
}
