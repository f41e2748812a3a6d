/**
 * The validator's report in the form people and other agents read (PLAN-2 … PLAN-6, PLAN-8,
 * ADD-2): `vtplan validate` prints it and the `validatePlan` / `savePlan` gates (issue 18) return
 * it, so every surface names the same codes, steps and lines.
 */
import { plural } from '../tools/text';
import { extractPlan } from './extract';
import { validatePlan, type PlanIssue, type ValidationReport } from './validate';

export type ReportIssue = {
  code: string;
  message: string;
  step?: number;
  section?: string;
  line?: number;
};

type ReportStep = {
  number: number;
  action: string;
  files: string[];
  verify: string[];
  outcome?: string;
};

export type PlanReport = {
  ready: boolean;
  errors: ReportIssue[];
  warnings: ReportIssue[];
  title: string | null;
  steps: ReportStep[];
};

function reportIssue(issue: PlanIssue, lineOffset: number): ReportIssue {
  return {
    code: issue.code,
    message: issue.message,
    ...(issue.step !== undefined ? { step: issue.step } : {}),
    ...(issue.section !== undefined ? { section: issue.section } : {}),
    ...(issue.line !== undefined ? { line: issue.line + lineOffset } : {}),
  };
}

/**
 * A saved model response may hold the plan inside `<proposed_plan>` tags: the block is what gets
 * validated, and `lineOffset` shifts line numbers so they point into the text as given.
 */
export function planOfText(text: string): { plan: string; lineOffset: number } {
  const extraction = extractPlan(text);
  if (extraction.source !== 'tagged' || extraction.plan === null) return { plan: text, lineOffset: 0 };
  // The plan body comes with `\n` endings (extract.ts); searched for in the text read the same way,
  // it is always found (a block is a contiguous slice of the text), and the line count is the same.
  const lf = text.replace(/\r\n/g, '\n');
  const lineOffset = lf.slice(0, lf.lastIndexOf(extraction.plan)).split('\n').length - 1;
  return { plan: extraction.plan, lineOffset };
}

/** The report of an already validated plan; `lineOffset` as from `planOfText`. */
export function toPlanReport(report: ValidationReport, lineOffset = 0): PlanReport {
  return {
    ready: report.ready,
    errors: report.errors.map((e) => reportIssue(e, lineOffset)),
    warnings: report.warnings.map((w) => reportIssue(w, lineOffset)),
    title: report.doc.title,
    steps: report.doc.steps.map((s) => ({
      number: s.number,
      action: s.action,
      files: s.files,
      verify: s.verify,
      ...(s.outcome !== undefined ? { outcome: s.outcome } : {}),
    })),
  };
}

/** Validates `text` (a plan, or a response holding one `<proposed_plan>` block). */
export function reportPlan(text: string): PlanReport {
  const { plan, lineOffset } = planOfText(text);
  return toPlanReport(validatePlan(plan), lineOffset);
}

/** `label:line: code: message` for every issue, then the verdict line (the `vtplan validate` text). */
export function reportLines(report: PlanReport, label: string): string[] {
  const lines = [...report.errors, ...report.warnings].map(
    (i) => `${label}${i.line !== undefined ? `:${i.line}` : ''}: ${i.code}: ${i.message}`,
  );
  const e = report.errors.length;
  const w = report.warnings.length;
  lines.push(
    report.ready
      ? `${label}: plan is ready (${plural(w, 'warning')})`
      : `${label}: plan is not ready: ${plural(e, 'error')}, ${plural(w, 'warning')}`,
  );
  return lines;
}
