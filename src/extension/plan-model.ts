/**
 * The plan validator and the canonical writer for the extension host, bundled on their own
 * (dist/plan-model.js): they carry markdown-it, so they load when a plan file is first opened or
 * a revision compared, not at activation. Load it through lazy-plan-model.ts.
 */
export { validatePlan, type PlanIssue } from '../core/plan/validate';
export { canonicalPlanFile } from '../core/plan/canonical';
