/** Public API of the plan artifacts: extraction, parsing, validation, repair, synopsis, storage. */
export { PlanStreamParser, extractPlan, type PlanStreamResult } from './extract';
export {
  parsePlan,
  parseListValue,
  splitStepLine,
  sectionKeyOf,
  stripTrackerRegion,
  TRACKER_START,
  TRACKER_END,
  type PlanDoc,
  type SectionKey,
} from './parse';
export { validatePlan, estimateTokens, PLAN_TOKEN_BUDGET, PLAN_ERROR_CODES, type PlanIssue } from './validate';
export { canonicalPlan, canonicalPlanFile } from './canonical';
export { splitVerifyItems, judgeVerifyItem } from './verify';
export {
  buildRepairRequest,
  buildCondenseRequest,
  describeIssue,
  CANONICAL_STEP_FORMAT,
  PLAN_FORMAT_RULES,
} from './repair';
export { buildSynopsis } from './synopsis';
export { PlanStore, PLAN_SLUG, slugFor } from './store';
export { isPlanFilePath } from './files';
export { diffPlanSteps, isEmptyStepDiff } from './diff';
export { planOfText, reportLines, reportPlan, toPlanReport, type PlanReport } from './report';
