/**
 * `validatePlan` (PLAN-2 … PLAN-6, PLAN-8): the plan validator for any agent. The plan comes as
 * markdown or as a workspace-relative file, read with the agent tools' confinement (no path out of
 * the workspace, no symlink out of it).
 */
import { z } from 'zod';
import { plural } from '../tools/text';
import { describeIssue, PLAN_FORMAT_RULES, reportPlan, type PlanReport } from '../plan';
import { resolveWorkspacePath } from '../tools/paths';
import { ToolFailure } from '../tools/tool';
import { defineGate, type GateContext } from './gate';

/** Far above any plan (PLAN-7 warns past ~1500 tokens); a larger file is not read at all. */
const PLAN_FILE_MAX_BYTES = 1024 * 1024;

const planMarkdown = z
  .string()
  .min(1)
  .describe('The plan as markdown, or a response holding one <proposed_plan>…</proposed_plan> block.');

const inputSchema = z
  .strictObject({
    plan: planMarkdown.optional().describe(`${planMarkdown.description} Give this or \`path\`, not both.`),
    path: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Workspace-relative path of a plan file, e.g. ".vtcode/plans/add-login.md". Give this or `plan`, not both.',
      ),
  })
  .superRefine((input, ctx) => {
    if ((input.plan === undefined) === (input.path === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'give exactly one of `plan` (the markdown) or `path` (a workspace-relative plan file)',
      });
    }
  });

/** Reads a plan file named by the agent: inside the workspace by every route, a regular file, not huge. */
async function readPlanFile(ctx: GateContext, given: string): Promise<{ text: string; relative: string }> {
  const target = await resolveWorkspacePath(ctx.fs, ctx.root, given);
  const rel = target.relative;
  if (target.stat === null) throw new ToolFailure('not_found', `\`${rel}\` does not exist.`, rel);
  if (target.stat.kind !== 'file') {
    const what = target.stat.kind === 'directory' ? 'a folder' : 'not a regular file';
    throw new ToolFailure('not_a_file', `\`${rel}\` is ${what}; give the path of a plan file.`, rel);
  }
  if (target.stat.size > PLAN_FILE_MAX_BYTES) {
    throw new ToolFailure(
      'too_large',
      `\`${rel}\` is ${target.stat.size} bytes, more than a plan can be (${PLAN_FILE_MAX_BYTES}).`,
      rel,
    );
  }
  const text = await ctx.fs.readText(target.real);
  if (text === null) throw new ToolFailure('not_found', `\`${rel}\` does not exist.`, rel);
  return { text, relative: rel };
}

async function planSource(
  ctx: GateContext,
  input: { plan?: string | undefined; path?: string | undefined },
): Promise<{ text: string; subject: string; path: string | null }> {
  if (input.path !== undefined) {
    const file = await readPlanFile(ctx, input.path);
    return { text: file.text, subject: `\`${file.relative}\``, path: file.relative };
  }
  if (input.plan !== undefined) return { text: input.plan, subject: 'The plan', path: null };
  throw new ToolFailure('invalid_args', 'give exactly one of `plan` or `path`');
}

function stepLine(step: PlanReport['steps'][number]): string {
  const files = step.files.length > 0 ? ` -> files: [${step.files.join(', ')}]` : '';
  const verify = step.verify.length > 0 ? ` -> verify: [${step.verify.join(', ')}]` : '';
  return `${step.number}. ${step.action}${files}${verify}`;
}

/**
 * The report as a model can act on it: the verdict, every error with its rule, step and line, the
 * warnings, the format rules when something must be fixed, and the steps the validator read.
 */
export function reportText(report: PlanReport, subject: string): string {
  const lines = [
    report.ready
      ? `${subject} is ready (${plural(report.steps.length, 'step')}, ${plural(report.warnings.length, 'warning')}).`
      : `${subject} is not ready: ${plural(report.errors.length, 'error')}, ${plural(report.warnings.length, 'warning')}. Fix every error and validate again.`,
  ];
  if (report.errors.length > 0) lines.push('', 'Errors:', ...report.errors.map((e) => `- ${describeIssue(e)}`));
  if (report.warnings.length > 0)
    lines.push('', 'Warnings (not blocking):', ...report.warnings.map((w) => `- ${describeIssue(w)}`));
  if (!report.ready) lines.push('', 'Plan format:', ...PLAN_FORMAT_RULES);
  if (report.steps.length > 0) lines.push('', 'Steps as read:', ...report.steps.map(stepLine));
  return lines.join('\n');
}

export const validatePlanGate = defineGate({
  name: 'validatePlan',
  title: 'Validate plan',
  description: [
    "Check a plan with VT Code Planning's validator before presenting or saving it. Give the plan markdown (`plan`) or a workspace-relative plan file (`path`), exactly one.",
    'Returns whether the plan is ready and, if not, every error with its rule code, step and line, plus the plan format to follow. Fix the errors and validate again until it is ready.',
    'A plan needs the sections Summary, Implementation Steps, Test Cases and Validation, Assumptions and Defaults; every step names concrete files and a concrete `verify:` check.',
  ].join(' '),
  inputSchema,
  readOnly: true,
  async run(input, ctx) {
    const source = await planSource(ctx, input);
    const report = reportPlan(source.text);
    return { ok: true, text: reportText(report, source.subject), data: { path: source.path, ...report } };
  },
});
