/**
 * Some OpenAI-compatible servers (LM Studio, vLLM or llama.cpp without a reasoning parser) put a
 * model's private reasoning into the content as `<think>…</think>` at the start of the message.
 * SYN-2 forbids reasoning from becoming a plan or an answer, so it is routed to reasoning here.
 * Only a tag that opens the message counts: `<think>` mentioned later in prose stays text.
 */

import { partialTagSuffix } from '../partial-tag';
import type { StreamChunk } from './provider';

const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitPiece {
  kind: 'text' | 'reasoning';
  text: string;
}

type State = 'start' | 'thinking' | 'after_think' | 'text';

export class ThinkTagSplitter {
  private state: State = 'start';
  private buffer = '';

  push(delta: string): SplitPiece[] {
    this.buffer += delta;
    const pieces: SplitPiece[] = [];
    for (;;) {
      if (this.state === 'start') {
        const head = this.buffer.trimStart();
        if (head.startsWith(OPEN)) {
          this.buffer = head.slice(OPEN.length);
          this.state = 'thinking';
          continue;
        }
        if (OPEN.startsWith(head)) return pieces; // still undecided (empty, whitespace or `<thi`)
        this.state = 'text';
        continue;
      }
      if (this.state === 'thinking') {
        const end = this.buffer.indexOf(CLOSE);
        if (end >= 0) {
          emit(pieces, 'reasoning', this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + CLOSE.length);
          this.state = 'after_think';
          continue;
        }
        const keep = partialTagSuffix(this.buffer, CLOSE);
        emit(pieces, 'reasoning', this.buffer.slice(0, this.buffer.length - keep));
        this.buffer = this.buffer.slice(this.buffer.length - keep);
        return pieces;
      }
      if (this.state === 'after_think') {
        // The blank line models put after `</think>` is layout, not answer text.
        this.buffer = this.buffer.trimStart();
        if (this.buffer === '') return pieces;
        this.state = 'text';
        continue;
      }
      emit(pieces, 'text', this.buffer);
      this.buffer = '';
      return pieces;
    }
  }

  /** Flushes what is held back; an unterminated `<think>` stays reasoning. */
  end(): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    if (this.state === 'thinking') emit(pieces, 'reasoning', this.buffer);
    else if (this.state !== 'after_think') emit(pieces, 'text', this.buffer);
    this.buffer = '';
    this.state = 'text';
    return pieces;
  }
}

function emit(pieces: SplitPiece[], kind: SplitPiece['kind'], text: string): void {
  if (text !== '') pieces.push({ kind, text });
}

/** The stream chunks a provider yields for what the splitter released. */
export function* splitChunks(pieces: SplitPiece[]): Generator<StreamChunk> {
  for (const piece of pieces) {
    yield piece.kind === 'text'
      ? { type: 'text_delta', text: piece.text }
      : { type: 'reasoning_delta', text: piece.text };
  }
}
