/**
 * `<proposed_plan>` extraction (PLAN-1, PLAN-7).
 *
 * The streaming parser takes text deltas of any size and returns, per delta, the visible text
 * that can be shown now: plan markup and the plan body never reach the transcript. Only a
 * suffix that could still become a tag (`<propo`) is held back until the next delta decides it,
 * so the output is identical for every way the same text is chunked.
 *
 * A tag directly preceded by a backtick (`` `<proposed_plan>` ``) is prose that talks about the
 * tag, not markup. When several blocks appear, the last one is the plan (the model's final
 * answer); every block is removed from the visible text.
 */
import { parsePlan } from './parse';
import { partialTagSuffix } from '../partial-tag';

export const PLAN_OPEN = '<proposed_plan>';
export const PLAN_CLOSE = '</proposed_plan>';

export interface PlanExtraction {
  /** The plan body (trimmed, tags removed), or `null` when the response holds no plan. */
  plan: string | null;
  /** The visible text: the response with every plan block and its markup removed. */
  text: string;
  /** The last block had no closing tag: it took the rest of the response (PLAN-7). */
  truncated: boolean;
  /** How the plan was found: inside tags, or as an untagged complete plan (PLAN-1). */
  source: 'tagged' | 'untagged' | null;
}

/**
 * Appends many small strings without building a rope of one node per delta (which made the
 * garbage collector the bottleneck): text is gathered in a short string, flattened into a list
 * every few KB.
 */
class TextSink {
  private parts: string[] = [];
  private tail = '';
  get length(): number {
    return this.size;
  }
  private size = 0;

  add(text: string): void {
    this.tail += text;
    this.size += text.length;
    if (this.tail.length >= 8192) {
      this.tail.charCodeAt(0); // flattens the rope, so its nodes die young
      this.parts.push(this.tail);
      this.tail = '';
    }
  }

  /** Text from `offset` to the end. */
  sliceFrom(offset: number): string {
    return this.toString().slice(offset);
  }

  toString(): string {
    if (this.parts.length > 0) {
      this.parts.push(this.tail);
      this.tail = this.parts.join('');
      this.parts = [];
    }
    return this.tail;
  }
}

export interface PlanStreamResult extends PlanExtraction {
  /** Visible text released by `finish()` that no `push()` returned (a held-back partial tag). */
  flushed: string;
}

export class PlanStreamParser {
  private inside = false;
  private pending = '';
  /** The last character already classified is a backtick: a tag right after it is prose. */
  private afterBacktick = false;
  private visible = new TextSink();
  private body = new TextSink();
  private blocks: string[] = [];
  /** Offset into `body` up to which `takePlanDelta()` has handed out text. */
  private deltaFrom = 0;
  /** Untaken plan-body text of blocks that are already closed. */
  private deltaCarry = '';
  private finished: PlanStreamResult | null = null;

  /** Feeds one delta; returns the visible text that may be emitted now (possibly empty). */
  push(delta: string): string {
    if (this.finished) throw new Error('PlanStreamParser: push() after finish()');
    // Most deltas hold no `<` at all and nothing is held back: no tag can start or end here.
    if (this.pending === '' && delta.indexOf('<') === -1) return this.take(delta);
    this.pending += delta;
    let out = '';
    for (;;) {
      const { at, tag } = this.nextTag();
      if (at === -1) break;
      const quoted = at > 0 ? this.pending[at - 1] === '`' : this.afterBacktick;
      const end = at + tag.length;
      if (quoted) {
        out += this.take(this.pending.slice(0, end));
        this.pending = this.pending.slice(end);
        continue;
      }
      out += this.take(this.pending.slice(0, at));
      this.afterBacktick = false;
      this.pending = this.pending.slice(end);
      // A stray closing tag outside a block is markup too: dropped, the state stays outside.
      if (tag === PLAN_OPEN) {
        this.inside = true;
      } else if (this.inside) {
        this.closeBlock();
        this.inside = false;
      }
    }
    const hold = this.inside
      ? partialTagSuffix(this.pending, PLAN_CLOSE)
      : Math.max(partialTagSuffix(this.pending, PLAN_OPEN), partialTagSuffix(this.pending, PLAN_CLOSE));
    out += this.take(this.pending.slice(0, this.pending.length - hold));
    this.pending = this.pending.slice(this.pending.length - hold);
    return out;
  }

  /** Inside a block only the closing tag matters; outside, the first tag of either kind. */
  private nextTag(): { at: number; tag: string } {
    const close = this.pending.indexOf(PLAN_CLOSE);
    if (this.inside) return { at: close, tag: PLAN_CLOSE };
    const open = this.pending.indexOf(PLAN_OPEN);
    if (open !== -1 && (close === -1 || open < close)) return { at: open, tag: PLAN_OPEN };
    return { at: close, tag: PLAN_CLOSE };
  }

  /** Routes classified text to the transcript or the plan body; returns what became visible. */
  private take(text: string): string {
    if (text === '') return '';
    this.afterBacktick = text.endsWith('`');
    if (this.inside) {
      this.body.add(text);
      return '';
    }
    this.visible.add(text);
    return text;
  }

  private closeBlock(): void {
    const body = this.body.toString();
    this.blocks.push(body);
    this.deltaCarry += body.slice(this.deltaFrom);
    this.body = new TextSink();
    this.deltaFrom = 0;
  }

  /** Ends the response: releases held-back text (`flushed`) and yields the one canonical plan. */
  finish(): PlanStreamResult {
    if (this.finished) return this.finished;
    let truncated = false;
    const flushed = this.inside ? '' : this.pending;
    if (this.inside) {
      this.body.add(this.pending);
      this.closeBlock();
      truncated = true;
    } else {
      this.visible.add(this.pending);
    }
    this.pending = '';
    const text = this.visible.toString();
    const last = this.blocks[this.blocks.length - 1];
    if (last !== undefined) {
      this.finished = { plan: normalizeBody(last), text, truncated, source: 'tagged', flushed };
    } else if (looksLikeUntaggedPlan(text)) {
      this.finished = { plan: normalizeBody(text), text, truncated: false, source: 'untagged', flushed };
    } else {
      this.finished = { plan: null, text, truncated: false, source: null, flushed };
    }
    return this.finished;
  }

  /**
   * Plan-body text recognised since the last call, for live `plan.delta` events (EVT-1). Like
   * the visible text, it excludes a suffix that may still turn out to be the closing tag.
   */
  takePlanDelta(): string {
    const text = this.deltaCarry + this.body.sliceFrom(this.deltaFrom);
    this.deltaCarry = '';
    this.deltaFrom = this.body.length;
    return text;
  }

  /** Visible text held back so far because it might start a tag (for diagnostics and tests). */
  get heldBack(): string {
    return this.pending;
  }
}

function normalizeBody(body: string): string {
  return body.replace(/\r\n/g, '\n').trim();
}

/**
 * PLAN-1: an untagged response counts as a plan draft when, read as the chat shows it (code
 * blocks are code), it has a Summary and a Steps section in any accepted form, or a Summary,
 * numbered steps and both the Validation and Assumptions sections (a compact plan); the
 * validator then decides whether it is complete.
 */
function looksLikeUntaggedPlan(text: string): boolean {
  // Rejects most answers before parsing. The word may be split by the emphasis markers that
  // section names ignore (`## Sum**mary**` is a Summary heading, see sections.ts).
  if (!/summary/i.test(text.replace(/\*\*|__/g, ''))) return false;
  const keys = new Map(parsePlan(text).sections.map((s) => [s.key, s.form]));
  if (!keys.has('summary') || !keys.has('steps')) return false;
  return keys.get('steps') !== 'implicit' || (keys.has('validation') && keys.has('assumptions'));
}

/** Non-streaming extraction of a complete response. */
export function extractPlan(text: string): PlanExtraction {
  const parser = new PlanStreamParser();
  parser.push(text);
  const { plan, text: visible, truncated, source } = parser.finish();
  return { plan, text: visible, truncated, source };
}
