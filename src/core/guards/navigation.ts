/**
 * Research guards (NAV-2, NAV-3, NAV-4): detect research that has stopped producing evidence
 * and ask for one tool-free synthesis (planning) or recovery (execution) pass.
 *
 *   let nav = newNavigation('plan');
 *   const d = describeCommand(checkCommandInWorkspace('ls -la src', mode, root));   // tool, target, request, listing
 *   (other tools: describeToolCall('read_file', { path: 'src/a.ts' }))
 *   const step = navigate(nav, { kind: 'outcome', outcome: { ...d, class: 'inspection', signal: 'low' } });
 *   nav = step.state;  if (step.decision.kind === 'schedule_pass') …
 *
 * Events: `outcome` after each tool result; `recovery` when a recovery pass starts; `new_turn`;
 * `pass_scheduled` when another guard (fuse, budgets) already armed the pass, so it is never
 * announced twice. Once a pass is pending every later trigger returns `continue`.
 *
 * NAV-2 (plan) 6 consecutive or 10 total low-signal reads/searches. Productive navigation resets
 *       the consecutive count; verification, mutation, recovery and a new turn reset both.
 * NAV-3 (plan) 12 consecutive inspections that contain a repeated request. Requests are compared
 *       after `requestKey` drops output controls, so `limit: 50` vs `limit: 100` is the same
 *       request. Twelve distinct inspections stay eligible.
 * NAV-4 Same-target listings: one listing tool rescanning one root, 3 in execution, 5 in plan.
 *       Execution also converges after 12 low-signal outcomes in one window however diverse.
 *       Mutation and verification reset both (real work makes a rescan legitimate). The reason
 *       names the dominant churn family, e.g. `exec::inspection::ls::src ×3`.
 */
import { posix } from 'node:path';
import { operands, readArgs } from '../policy/args';
import type { ScanResult } from '../policy/shell-scan';
import type { Phase } from './budget';

const LOW_SIGNAL_CONSECUTIVE = 6;
const LOW_SIGNAL_TOTAL = 10;
const REPEATED_INSPECTION_WINDOW = 12;
const SAME_TARGET_LISTINGS: Record<Phase, number> = { exec: 3, plan: 5 };
const DIVERSE_CHURN_WINDOW = 12;

/** Argument keys that only shape how much output comes back (NAV-3). */
const OUTPUT_CONTROL_KEYS: ReadonlySet<string> = new Set([
  'max_output_tokens',
  'max_tokens',
  'limit',
  'max_results',
  'max_lines',
  'max_bytes',
  'max_chars',
  'head_limit',
  'max_preview_bytes',
]);

type OutcomeClass = 'inspection' | 'verification' | 'mutation' | 'other';
type ListingTool = 'ls' | 'find' | 'fd' | 'list_dir' | 'find_files';

export interface CallDescription {
  /** The tool, or for `run_command` the program of its first segment (`rg`, `ls`). */
  tool: string;
  /** The path or search root the call looks at, normalised; `*` when none applies. */
  target: string;
  /** Semantic request key, output controls removed. */
  request: string;
  listing: { tool: ListingTool; root: string } | null;
}

export interface ToolOutcome extends CallDescription {
  class: OutcomeClass;
  /** `low`: failed, empty, or nothing new; `productive`: new evidence. */
  signal: 'low' | 'productive';
}

export type NavEvent =
  { kind: 'outcome'; outcome: ToolOutcome } | { kind: 'recovery' } | { kind: 'new_turn' } | { kind: 'pass_scheduled' };

type NavGuard = 'low_signal' | 'repeated_inspection' | 'same_target_listing' | 'diverse_churn';

export type NavDecision = { kind: 'continue' } | { kind: 'schedule_pass'; guard: NavGuard; reason: string };

export interface NavigationState {
  readonly phase: Phase;
  readonly lowConsecutive: number;
  readonly lowTotal: number;
  /** Request keys of the current run of consecutive inspections (at most the window). */
  readonly inspections: readonly string[];
  readonly listings: Readonly<Record<string, number>>;
  /** Churn families of low-signal outcomes in the current execution window. */
  readonly churn: readonly string[];
  readonly pending: boolean;
}

export function newNavigation(phase: Phase): NavigationState {
  return { phase, lowConsecutive: 0, lowTotal: 0, inspections: [], listings: {}, churn: [], pending: false };
}

function churnFamily(phase: Phase, cls: OutcomeClass, tool: string, target: string): string {
  return `${phase}::${cls}::${tool}::${target}`;
}

const CONTINUE: NavDecision = { kind: 'continue' };

export function navigate(state: NavigationState, event: NavEvent): { state: NavigationState; decision: NavDecision } {
  switch (event.kind) {
    case 'new_turn':
      return { state: newNavigation(state.phase), decision: CONTINUE };
    case 'pass_scheduled':
      return { state: { ...state, pending: true }, decision: CONTINUE };
    case 'recovery':
      return { state: { ...state, lowConsecutive: 0, lowTotal: 0, inspections: [] }, decision: CONTINUE };
    case 'outcome':
      return onOutcome(state, event.outcome);
  }
}

function onOutcome(state: NavigationState, o: ToolOutcome): { state: NavigationState; decision: NavDecision } {
  if (o.class === 'verification' || o.class === 'mutation') {
    return { state: { ...newNavigation(state.phase), pending: state.pending }, decision: CONTINUE };
  }
  if (o.class === 'other') return { state, decision: CONTINUE };
  const plan = state.phase === 'plan';
  const low = o.signal === 'low';
  const lowConsecutive = plan ? (low ? state.lowConsecutive + 1 : 0) : 0;
  const lowTotal = plan && low ? state.lowTotal + 1 : state.lowTotal;
  const inspections = plan ? [...state.inspections, o.request].slice(-REPEATED_INSPECTION_WINDOW) : [];
  const listingKey = o.listing === null ? null : churnFamily(state.phase, 'inspection', o.listing.tool, o.listing.root);
  const listings =
    listingKey === null ? state.listings : { ...state.listings, [listingKey]: (state.listings[listingKey] ?? 0) + 1 };
  const churn = !plan && low ? [...state.churn, churnFamily(state.phase, o.class, o.tool, o.target)] : state.churn;
  const next: NavigationState = { ...state, lowConsecutive, lowTotal, inspections, listings, churn };
  const trigger = firstTrigger(next, listingKey);
  if (trigger === null || state.pending) return { state: next, decision: CONTINUE };
  return { state: { ...next, pending: true }, decision: trigger };
}

function firstTrigger(s: NavigationState, listingKey: string | null): NavDecision | null {
  if (s.phase === 'plan') {
    if (s.lowConsecutive >= LOW_SIGNAL_CONSECUTIVE) {
      return pass(
        'low_signal',
        `${s.lowConsecutive} consecutive low-signal reads/searches; synthesize the plan from the evidence gathered`,
      );
    }
    if (s.lowTotal >= LOW_SIGNAL_TOTAL) {
      return pass(
        'low_signal',
        `${s.lowTotal} low-signal reads/searches this turn; synthesize the plan from the evidence gathered`,
      );
    }
    if (s.inspections.length >= REPEATED_INSPECTION_WINDOW && new Set(s.inspections).size < s.inspections.length) {
      return pass(
        'repeated_inspection',
        `${s.inspections.length} consecutive inspections repeat an earlier request; synthesize the plan from the evidence gathered`,
      );
    }
  }
  if (listingKey !== null) {
    const count = s.listings[listingKey] ?? 0;
    if (count >= SAME_TARGET_LISTINGS[s.phase])
      return pass('same_target_listing', `repeated listing of one target: ${listingKey} ×${count}`);
  }
  if (s.phase === 'exec' && s.churn.length >= DIVERSE_CHURN_WINDOW) {
    const [family, count] = dominant(s.churn);
    return pass(
      'diverse_churn',
      `${s.churn.length} low-signal outcomes without progress; dominant churn family ${family} ×${count}`,
    );
  }
  return null;
}

function pass(guard: NavGuard, reason: string): NavDecision {
  return { kind: 'schedule_pass', guard, reason };
}

/** Most frequent family; the earliest seen wins a tie. */
function dominant(families: readonly string[]): [string, number] {
  const counts = new Map<string, number>();
  for (const f of families) counts.set(f, (counts.get(f) ?? 0) + 1);
  let best: [string, number] = ['', 0];
  for (const [f, n] of counts) if (n > best[1]) best = [f, n];
  return best;
}

/** `navigationSignal` for callers that only know how the call went. */
export function navigationSignal(result: {
  succeeded: boolean;
  empty: boolean;
  repeated: boolean;
}): 'low' | 'productive' {
  return !result.succeeded || result.empty || result.repeated ? 'low' : 'productive';
}

function normalizeTarget(path: string): string {
  const n = posix.normalize(path).replace(/\/+$/, '');
  return n === '' ? '/' : n;
}

function canonical(value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, false));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !(top && OUTPUT_CONTROL_KEYS.has(k)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v, false)]));
  }
  return value;
}

function stringArg(args: unknown, keys: readonly string[]): string | null {
  if (args === null || typeof args !== 'object') return null;
  for (const k of keys) {
    const v = (args as Record<string, unknown>)[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return null;
}

/**
 * Words of each pipeline/chain segment, from the reading the policy judged; `null` when some
 * segment is not plain words (the scan found a problem in it, such as an expansion or a write),
 * since its words are then not what runs.
 */
function segmentsOf(reading: ScanResult): string[][] | null {
  if (!reading.ok) return null;
  const segments: string[][] = [];
  for (const segment of reading.segments) {
    if (segment.problems.length > 0 || !segment.argv.ok || segment.argv.syntax !== null) return null;
    if (segment.argv.words.length > 0) segments.push(segment.argv.words.map((w) => w.text));
  }
  return segments;
}

/** `head -n 20` / `tail -50` at the end of a pipeline only limit output. */
function isOutputLimit(words: readonly string[]): boolean {
  if (words[0] !== 'head' && words[0] !== 'tail') return false;
  return words.slice(1).every((w) => /^(-[nc]?\d+|-[nc]|\d+|--(lines|bytes)=\d+)$/.test(w));
}

function listingOf(words: readonly string[]): { tool: ListingTool; root: string } | null {
  const [program, ...rest] = words;
  const operandsOf = rest.filter((w) => !w.startsWith('-'));
  if (program === 'ls') return { tool: 'ls', root: normalizeTarget(operandsOf[0] ?? '.') };
  if (program === 'find') {
    const roots: string[] = [];
    for (const w of rest) {
      if (w === '-H' || w === '-L' || w === '-P') continue;
      if (w.startsWith('-') || w === '(' || w === '!') break;
      roots.push(w);
    }
    return { tool: 'find', root: normalizeTarget(roots[0] ?? '.') };
  }
  if (program === 'fd' || program === 'fdfind') {
    const fdOperands = operands(
      readArgs(
        rest.map((text) => ({ text, glob: false })),
        { valueShort: 'dEteScjoC' },
      ),
    );
    return { tool: 'fd', root: normalizeTarget(fdOperands[1]?.text ?? '.') };
  }
  return null;
}

/**
 * Tool, target, request key and listing for a `run_command` call, as the navigation guards count
 * them: read from the same reading of the command that the policy and the path rule judged.
 */
export function describeCommand(checked: { command: string; reading: ScanResult }): CallDescription {
  const segments = segmentsOf(checked.reading);
  if (segments === null || segments.length === 0)
    return { tool: 'run_command', target: '*', request: `run_command:${checked.command.trim()}`, listing: null };
  while (segments.length > 1 && segments[0]?.[0] === 'cd') segments.shift();
  while (segments.length > 1 && isOutputLimit(segments[segments.length - 1] as string[])) segments.pop();
  const first = segments[0] as string[];
  const listing = listingOf(first);
  // The last operand is the path for the usual heads (`rg PATTERN DIR`, `sed -n 1p FILE`, `cat FILE`).
  const operand = first
    .slice(1)
    .filter((w) => !w.startsWith('-'))
    .at(-1);
  return {
    tool: first[0] as string,
    target: listing?.root ?? (operand === undefined ? '*' : normalizeTarget(operand)),
    request: `run_command:${segments.map((s) => s.join(' ')).join(' | ')}`,
    listing,
  };
}

/** Tool, target, request key and listing for a call of any other tool (`run_command`: describeCommand). */
export function describeToolCall(name: string, args: unknown): CallDescription {
  const path = stringArg(args, ['path', 'root', 'dir', 'directory']);
  const target = path === null ? '*' : normalizeTarget(path);
  const listing =
    name === 'list_dir' || name === 'find_files'
      ? { tool: name as ListingTool, root: path === null ? '.' : target }
      : null;
  return { tool: name, target, request: `${name}:${JSON.stringify(canonical(args ?? {}, true))}`, listing };
}
