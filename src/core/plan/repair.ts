/**
 * The repair request sent to the model after a rejected draft (PLAN-8, SYN-4). It targets the
 * retained draft: it quotes the draft, lists every defect with its rule, step/section and line,
 * and restates the canonical format so the model fixes the draft instead of starting over.
 */
import { PLAN_CLOSE, PLAN_OPEN } from './extract';
import type { ValidationReport } from './validate';
import type { ReportIssue } from './report';

export const CANONICAL_STEP_FORMAT =
  "1. Action -> files: [path/a.ts, path/b.ts] -> verify: [npm test, rg -n 'symbol' src]";

/** The plan format in brief, for a model that has to write or fix a plan (PLAN-2 … PLAN-6). */
export const PLAN_FORMAT_RULES: readonly string[] = [
  '- Required sections: `## Summary`, `## Implementation Steps`, `## Test Cases and Validation`, `## Assumptions and Defaults`.',
  `- Every step on one line: \`${CANONICAL_STEP_FORMAT}\``,
  "- `verify:` items are comma-separated; each is a concrete command (`cargo test -p crate`, `rg -n 'x' src/a.rs`) or an observable check; never `run checks` or `git diff --check`.",
  '- File references are plain text or inline code, never markdown links or `file://` / `vscode-file://` URIs.',
  '- No placeholders (`[Action]`, `TODO:`, `TBD`); resolve open questions or write `No remaining scope decisions`.',
];

export interface RepairOptions {
  /** 1-based number of this repair request and the allowance (SYN-4 allows two). */
  attempt?: number;
  maxAttempts?: number;
}

export function describeIssue(issue: ReportIssue): string {
  const where = [
    issue.step !== undefined ? `step ${issue.step}` : issue.section !== undefined ? `section ${issue.section}` : null,
    issue.line !== undefined ? `line ${issue.line}` : null,
  ].filter((s): s is string => s !== null);
  return `${where.length > 0 ? `[${where.join(', ')}] ` : ''}${issue.code}: ${issue.message}`;
}

export function buildRepairRequest(draft: string, report: ValidationReport, options: RepairOptions = {}): string {
  const counter =
    options.attempt !== undefined && options.maxAttempts !== undefined
      ? ` (repair ${options.attempt} of ${options.maxAttempts})`
      : '';
  const lines = [
    `Your plan draft was not accepted${counter}. Fix exactly these defects in the draft below and keep everything else that is already correct:`,
    '',
    ...report.errors.map((e) => `- ${describeIssue(e)}`),
  ];
  if (report.warnings.length > 0) {
    lines.push('', 'Also consider (warnings, not blocking):', ...report.warnings.map((w) => `- ${describeIssue(w)}`));
  }
  lines.push(
    '',
    'Format rules:',
    ...PLAN_FORMAT_RULES,
    `- Re-emit the complete corrected plan in one ${PLAN_OPEN}…${PLAN_CLOSE} block, under ~1500 tokens.`,
    '',
    'Retained draft:',
    '```markdown',
    draft.replace(/```/g, '``\u200b`'),
    '```',
  );
  return lines.join('\n');
}

/**
 * PLAN-7: the one condense retry after a truncated plan. The partial draft is quoted so the
 * model keeps its decisions, and the token budget is restated.
 */
export function buildCondenseRequest(partialDraft: string): string {
  return [
    'Your plan was cut off at the output limit before `</proposed_plan>`. Re-emit the complete plan, condensed to well under ~1500 tokens:',
    '- keep every decision and step of the draft below; shorten prose, prefer `file:symbol` references;',
    `- one line per step: \`${CANONICAL_STEP_FORMAT}\`;`,
    `- the whole plan in one ${PLAN_OPEN}…${PLAN_CLOSE} block, closing tag included.`,
    '',
    'Truncated draft:',
    '```markdown',
    partialDraft.replace(/```/g, '``\u200b`'),
    '```',
  ].join('\n');
}
