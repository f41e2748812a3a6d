/**
 * Turn budgets (NAV-1, NAV-5, NAV-6). Pure functions over plain readonly state.
 *
 * NAV-1  planningLimits(configured, planning): planning turns get at least 120 tool calls and
 *        60 loops when the configured limits are lower; 0 (unlimited) stays unlimited.
 * NAV-6  newCounters(max) / consume(state, 'tool_calls' | 'tool_loop' | 'session_calls'):
 *        a budget fails closed when it is used up, and the refusal carries the
 *        `budget_exhausted` record (used/max) for the event stream.
 * NAV-5  newPreviewBudget(phase) / admitPreview(state, kind) / previewResult(state, result):
 *        tool previews shown to the model share one per-turn byte budget (96 KiB plan, 64 KiB
 *        execution). Plan-mode inspections get ~8 KiB per result by default and at most ~16 KiB;
 *        verification keeps the full default. Past the budget results become metadata stubs
 *        (`previewStub`), inspections are refused at admission, and paged spool reads continue on a
 *        small per-page credit bounded by the sequential spool-read cap. In plan mode running out
 *        asks for the synthesis pass at once (`synthesis: true`).
 */
import { z } from 'zod';
import { BUDGET_KINDS, type BudgetKind } from '../vocabulary';

const PLANNING_TOOL_CALL_FLOOR = 120;
const PLANNING_LOOP_FLOOR = 60;

export interface TurnLimits {
  /** 0 = unlimited. */
  toolCalls: number;
  /** 0 = unlimited. */
  loops: number;
}

export function planningLimits(configured: TurnLimits, planning: boolean): TurnLimits {
  if (!planning) return configured;
  const floor = (value: number, min: number): number => (value === 0 ? 0 : Math.max(value, min));
  return {
    toolCalls: floor(configured.toolCalls, PLANNING_TOOL_CALL_FLOOR),
    loops: floor(configured.loops, PLANNING_LOOP_FLOOR),
  };
}

export const budgetExhaustedSchema = z.object({
  type: z.literal('budget_exhausted'),
  budget: z.enum(BUDGET_KINDS),
  used: z.number().int().nonnegative(),
  max: z.number().int().positive(),
});
type BudgetExhausted = z.infer<typeof budgetExhaustedSchema>;

export interface BudgetCounters {
  readonly used: Readonly<Record<BudgetKind, number>>;
  /** 0 = unlimited. */
  readonly max: Readonly<Record<BudgetKind, number>>;
}

export function newCounters(
  max: Record<BudgetKind, number>,
  used: Partial<Record<BudgetKind, number>> = {},
): BudgetCounters {
  return {
    max: { ...max },
    used: { tool_calls: used.tool_calls ?? 0, tool_loop: used.tool_loop ?? 0, session_calls: used.session_calls ?? 0 },
  };
}

export type ConsumeDecision = { kind: 'ok' } | { kind: 'exhausted'; record: BudgetExhausted };

/** Spends one unit of `budget`; when none is left the state is unchanged and the record is returned. */
export function consume(
  state: BudgetCounters,
  budget: BudgetKind,
): { state: BudgetCounters; decision: ConsumeDecision } {
  const max = state.max[budget];
  const used = state.used[budget];
  if (max !== 0 && used >= max)
    return { state, decision: { kind: 'exhausted', record: { type: 'budget_exhausted', budget, used, max } } };
  return { state: { max: state.max, used: { ...state.used, [budget]: used + 1 } }, decision: { kind: 'ok' } };
}

export const KIB = 1024;
const PREVIEW_TURN_BUDGET = { plan: 96 * KIB, exec: 64 * KIB } as const;
const PLAN_INSPECTION_DEFAULT = 8 * KIB;
const PLAN_INSPECTION_MAX = 16 * KIB;
/** The ordinary per-result preview, kept by verification commands and by execution. */
const FULL_RESULT_DEFAULT = 32 * KIB;
export const SPOOL_PAGE_CREDIT = 4 * KIB;
export const MAX_SEQUENTIAL_SPOOL_READS = 6;

export type Phase = 'plan' | 'exec';
/**
 * `open` covers what stays available after exhaustion besides spool pages: the interview, task
 * bookkeeping, session polling and plan-draft re-reads.
 */
export type PreviewKind = 'inspection' | 'verification' | 'spool_page' | 'open';

export interface PreviewBudget {
  readonly phase: Phase;
  readonly limit: number;
  readonly used: number;
  readonly exhausted: boolean;
  readonly spoolReads: number;
}

export function newPreviewBudget(phase: Phase): PreviewBudget {
  return { phase, limit: PREVIEW_TURN_BUDGET[phase], used: 0, exhausted: false, spoolReads: 0 };
}

export type Admission = { kind: 'admit' } | { kind: 'reject'; reason: string };

/** Checked before a call runs. */
export function admitPreview(state: PreviewBudget, kind: PreviewKind): Admission {
  if (!state.exhausted) return { kind: 'admit' };
  if (kind === 'inspection') {
    return {
      kind: 'reject',
      reason:
        'The tool preview budget for this turn is used up: further inspection cannot add evidence. Work from what was gathered.',
    };
  }
  if (kind === 'spool_page' && state.spoolReads >= MAX_SEQUENTIAL_SPOOL_READS) {
    return {
      kind: 'reject',
      reason: `Sequential spool reads are capped at ${MAX_SEQUENTIAL_SPOOL_READS} after the preview budget ran out.`,
    };
  }
  return { kind: 'admit' };
}

/** Per-result preview size before the turn budget is applied. */
export function resultCap(phase: Phase, kind: PreviewKind, requested: number | undefined): number {
  if (phase === 'plan' && kind === 'inspection')
    return Math.min(requested ?? PLAN_INSPECTION_DEFAULT, PLAN_INSPECTION_MAX);
  return requested ?? FULL_RESULT_DEFAULT;
}

export interface PreviewRequest {
  kind: PreviewKind;
  /** The preview size the call asked for, if any (`max_output_tokens` etc. converted to bytes). */
  requested?: number;
  /** Size of the full result body in bytes. */
  bodyBytes: number;
}

export type PreviewDecision =
  { kind: 'body'; bytes: number; truncated: boolean; synthesis: boolean } | { kind: 'stub'; synthesis: boolean };

export function previewResult(
  state: PreviewBudget,
  req: PreviewRequest,
): { state: PreviewBudget; decision: PreviewDecision } {
  const spoolReads = req.kind === 'spool_page' ? state.spoolReads : 0;
  if (state.exhausted) {
    if (req.kind === 'spool_page' && state.spoolReads < MAX_SEQUENTIAL_SPOOL_READS) {
      const bytes = Math.min(req.bodyBytes, SPOOL_PAGE_CREDIT);
      return {
        state: { ...state, spoolReads: spoolReads + 1 },
        decision: { kind: 'body', bytes, truncated: bytes < req.bodyBytes, synthesis: false },
      };
    }
    return { state: { ...state, spoolReads }, decision: { kind: 'stub', synthesis: state.phase === 'plan' } };
  }
  const cap = resultCap(state.phase, req.kind, req.requested);
  const bytes = Math.min(req.bodyBytes, cap, state.limit - state.used);
  const used = state.used + bytes;
  const exhausted = used >= state.limit;
  return {
    state: { ...state, used, exhausted, spoolReads: req.kind === 'spool_page' ? spoolReads + 1 : 0 },
    decision: { kind: 'body', bytes, truncated: bytes < req.bodyBytes, synthesis: exhausted && state.phase === 'plan' },
  };
}

export interface StubMeta {
  tool: string;
  bodyBytes: number;
  lines?: number;
}

/** What the model sees instead of a body once the budget is spent. */
export function previewStub(meta: StubMeta): string {
  const lines = meta.lines === undefined ? '' : `, ${meta.lines} lines`;
  return `[${meta.tool}: ${meta.bodyBytes} bytes${lines}; body omitted because this turn's tool preview budget is used up]`;
}
