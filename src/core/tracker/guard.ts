/**
 * TRK-4: repeat limit on consecutive identical successful task_tracker calls. A different
 * successful call resets the streak; failed calls neither count nor reset. Past the limit the
 * next identical call gets one correction; continuing after that blocks the turn.
 */
import type { TrackerCall } from './ops';

const DEFAULT_REPEAT_LIMIT = 2;

export type RepeatVerdict =
  { kind: 'allow' } | { kind: 'correct'; message: string } | { kind: 'block'; message: string };

export class TrackerRepeatGuard {
  private lastKey: string | null = null;
  private streak = 0;
  private corrected = false;

  constructor(readonly limit: number = DEFAULT_REPEAT_LIMIT) {}

  /** Call before running `call`; only `allow` means run it. */
  check(call: TrackerCall): RepeatVerdict {
    if (callKey(call) !== this.lastKey || this.streak < this.limit) return { kind: 'allow' };
    if (!this.corrected) {
      this.corrected = true;
      return {
        kind: 'correct',
        message: `task_tracker was called ${this.streak} times in a row with the same arguments and the checklist did not change. Reuse the last result; to make progress update the task you are working on, e.g. {"action":"update","index_path":"1","status":"completed"}.`,
      };
    }
    return {
      kind: 'block',
      message: `task_tracker kept repeating the same call after a correction (${this.streak} identical successful calls); the turn stops here.`,
    };
  }

  /** Call after a call ran; failures are ignored. */
  record(call: TrackerCall, succeeded: boolean): void {
    if (!succeeded) return;
    const key = callKey(call);
    if (key === this.lastKey) {
      this.streak += 1;
      return;
    }
    this.lastKey = key;
    this.streak = 1;
    this.corrected = false;
  }

  /** A genuine new user request starts a fresh streak. */
  reset(): void {
    this.lastKey = null;
    this.streak = 0;
    this.corrected = false;
  }
}

/** Key order and absent-vs-undefined fields do not make two calls different. */
function callKey(call: TrackerCall): string {
  return JSON.stringify(sortKeys(call));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
