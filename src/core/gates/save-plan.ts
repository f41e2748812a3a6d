/**
 * `savePlan` (STORE-1, STORE-2, PLAN-2 … PLAN-6, GATE-3): validates a plan and, only when it is
 * ready, saves it under `.vtcode/plans/` through the plan store (canonical form, private atomic
 * write, symlink redirects refused). It never approves: it tells the host (`onPlanReady`), or,
 * for a host in another process (`vtplan mcp`), records the plan for VS Code's "Ready to code?"
 * (approval-records.ts, GATE-6); the user approves there.
 */
import { posix as path } from 'node:path';
import { z } from 'zod';
import { plural } from '../tools/text';
import { PLAN_SLUG, PlanStore, planOfText, toPlanReport } from '../plan';
import { errorMessage } from '../errors';
import { systemClock } from '../ports';
import { recordForApproval } from './approval-records';
import { defineGate, gateFailure, type GateContext, type GateResult, type ReadyPlan } from './gate';
import { reportText } from './validate-plan';

const inputSchema = z.strictObject({
  plan: z
    .string()
    .min(1)
    .describe('The complete plan as markdown, or a response holding one <proposed_plan>…</proposed_plan> block.'),
  slug: z
    .string()
    .regex(PLAN_SLUG, 'use lower-case letters, digits and single dashes, e.g. "add-login"')
    .max(80)
    .optional()
    .describe(
      'File name without .md under .vtcode/plans/; give the earlier slug to revise a saved plan. Default: from the plan title.',
    ),
});

/** Blank lines `planFileContent` trims off the top: the store's line numbers start after them. */
function leadingBlankLines(plan: string): number {
  const lead = /^\s*/.exec(plan.replace(/\r\n?/g, '\n'))?.[0] ?? '';
  return lead.split('\n').length - 1;
}

/** The plan is on disk but could not be recorded for approval: the agent is told, not misled. */
async function recordReadyPlan(ctx: GateContext, plan: ReadyPlan, savedBy: string): Promise<GateResult | null> {
  try {
    await recordForApproval(ctx.fs, ctx.root, plan, savedBy, ctx.clock ?? systemClock);
    return null;
  } catch (err) {
    return gateFailure(
      'approval_record_failed',
      `Saved the plan to \`${plan.relativePath}\`, but could not record it for the user's approval in VS Code: ${errorMessage(err)}. Ask the user to review and approve it.`,
      { path: plan.relativePath },
    );
  }
}

export const savePlanGate = defineGate({
  name: 'savePlan',
  title: 'Save plan',
  description: [
    'Save a finished plan under .vtcode/plans/ for the user to review and approve. The plan is validated first and saved only when it is ready; otherwise nothing is written and the result lists every error to fix (validate with validatePlan while drafting).',
    'Saving does not approve the plan: wait for the user to approve it before you implement. Returns the saved path.',
  ].join(' '),
  inputSchema,
  readOnly: false,
  async run(input, ctx) {
    const { plan, lineOffset } = planOfText(input.plan);
    const store = new PlanStore(ctx.fs, ctx.root, ctx.clock);
    const outcome = await store.save(plan, input.slug === undefined ? {} : { slug: input.slug });
    const report = toPlanReport(outcome.report, lineOffset + leadingBlankLines(plan));
    const relativePath = path.relative(ctx.root, outcome.path);
    switch (outcome.status) {
      case 'rejected': {
        const kept =
          outcome.kept === 'none'
            ? ''
            : ` The ${outcome.kept === 'valid' ? 'valid' : 'malformed'} plan already at \`${relativePath}\` was kept.`;
        const message = `Not saved: the plan is not ready.${kept}`;
        return {
          ...gateFailure('not_ready', message, { path: relativePath, ...report }),
          text: `${message}\n\n${reportText(report, 'The plan')}`,
        };
      }
      case 'external_edit':
        return gateFailure(
          'external_edit',
          `Not saved: ${outcome.externalEdit.message}. Read \`${relativePath}\` again and save the plan with its changes.`,
          { path: relativePath },
        );
      case 'written':
      case 'unchanged': {
        const ready: ReadyPlan = {
          slug: outcome.slug,
          path: outcome.path,
          relativePath,
          title: report.title,
          status: outcome.status,
        };
        if (ctx.approvalRecord) {
          const failure = await recordReadyPlan(ctx, ready, ctx.approvalRecord.savedBy);
          if (failure) return failure;
        }
        ctx.onPlanReady?.(ready);
        const how = outcome.status === 'written' ? 'Saved the plan to' : 'The plan is already saved, unchanged, at';
        return {
          ok: true,
          text: [
            `${how} \`${relativePath}\` (${plural(report.steps.length, 'step')}, ${plural(report.warnings.length, 'warning')}).`,
            'It is not approved yet: the user reviews and approves it. Do not start implementing until they do.',
          ].join(' '),
          data: { status: outcome.status, slug: outcome.slug, path: relativePath, ...report },
        };
      }
    }
  },
});
