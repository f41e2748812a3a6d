/**
 * The bounded synopsis shown by the "Ready to code?" gate (GATE-1): title, summary and numbered
 * steps, each kept in full (the UI wraps them), with an explicit overflow row instead of silent
 * clipping.
 */
import { parsePlan, type PlanDoc } from './parse';

interface SynopsisStep {
  number: number;
  text: string;
}

export interface PlanSynopsis {
  title: string | null;
  /** Summary text, lines joined with single spaces. */
  summary: string;
  steps: SynopsisStep[];
  /** Steps not shown, and the row that says so (`… and N more plan steps`), or `null`. */
  hiddenSteps: number;
  overflowRow: string | null;
  /** The complete plan markdown, for "view full plan". */
  fullText: string;
}

const DEFAULT_SYNOPSIS_STEPS = 8;

function overflowRowFor(hidden: number): string | null {
  return hidden > 0 ? `… and ${hidden} more plan steps` : null;
}

export function buildSynopsis(
  plan: string | PlanDoc,
  maxSteps = DEFAULT_SYNOPSIS_STEPS,
  fullText?: string,
): PlanSynopsis {
  const doc = typeof plan === 'string' ? parsePlan(plan) : plan;
  const summarySection = doc.sections.find((s) => s.key === 'summary');
  const summary = (summarySection?.body ?? [])
    .map((l) => l.text.trim())
    .filter((t) => t !== '' && !t.startsWith('<!--'))
    .join(' ');
  const limit = Math.max(0, Math.floor(maxSteps));
  const shown = doc.steps.slice(0, limit).map((s) => ({ number: s.number, text: s.action }));
  const hiddenSteps = doc.steps.length - shown.length;
  return {
    title: doc.title,
    summary,
    steps: shown,
    hiddenSteps,
    overflowRow: overflowRowFor(hiddenSteps),
    fullText: fullText ?? (typeof plan === 'string' ? plan : doc.text),
  };
}
