/** Public API of the plan artifacts: extraction, parsing, validation, repair, synopsis, storage. */
export {
  PLAN_OPEN,
  PLAN_CLOSE,
  PlanStreamParser,
  extractPlan,
  canonicalPlanBlock,
  attachPlanBlock,
  looksLikeUntaggedPlan,
  type PlanExtraction,
  type PlanStreamResult,
} from './extract';
export {
  parsePlan,
  parseListValue,
  splitStepLine,
  sectionKeyOf,
  stripTrackerRegion,
  SECTION_NAMES,
  TRACKER_START,
  TRACKER_END,
  type CodedSection,
  type PlanDoc,
  type PlanSection,
  type SectionForm,
  type PlanStep,
  type SectionKey,
  type SourceLine,
} from './parse';
export {
  validatePlan,
  estimateTokens,
  PLAN_TOKEN_BUDGET,
  PLAN_ERROR_CODES,
  PLAN_WARNING_CODES,
  type PlanIssue,
  type PlanErrorCode,
  type PlanWarningCode,
  type ValidationReport,
} from './validate';
export { canonicalPlan, canonicalPlanFile } from './canonical';
export { splitVerifyItems, judgeVerifyItem, isPathLike, type VerifyContext, type VerifyVerdict } from './verify';
export {
  buildRepairRequest,
  buildCondenseRequest,
  describeIssue,
  CANONICAL_STEP_FORMAT,
  PLAN_FORMAT_RULES,
  type RepairOptions,
} from './repair';
export {
  buildSynopsis,
  overflowRowFor,
  DEFAULT_SYNOPSIS_STEPS,
  type PlanSynopsis,
  type SynopsisStep,
} from './synopsis';
export { PlanStore, PLAN_SLUG, slugFor, type SaveOutcome, type SaveOptions, type StoredPlan } from './store';
export { planFileContent, isPlanFilePath, PLANS_DIR } from './files';
export {
  diffPlanSteps,
  isEmptyStepDiff,
  type PlanStepDiff,
  type ChangedStep,
  type StepRef,
  type StepField,
} from './diff';
export {
  planOfText,
  reportLines,
  reportPlan,
  toPlanReport,
  type PlanReport,
  type ReportIssue,
  type ReportStep,
} from './report';
