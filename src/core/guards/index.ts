/** Public API of the turn guards (FUSE-1 … FUSE-3, NAV-1 … NAV-6); the runloop imports from here. */
export { fuseLimits, newFuse, recordCall } from './fuse';
export type { FuseDecision, FuseLimits, FusePhase, FuseState } from './fuse';
export { blockedHandoff, renderBlockedHandoff } from './blocked-handoff';
export type { ArchiveOutcome, BlockedHandoff, BlockedHandoffInput } from './blocked-handoff';
export {
  admitPreview,
  budgetExhaustedSchema,
  consume,
  FULL_RESULT_DEFAULT,
  MAX_SEQUENTIAL_SPOOL_READS,
  newCounters,
  newPreviewBudget,
  PLAN_INSPECTION_DEFAULT,
  PLAN_INSPECTION_MAX,
  PLANNING_LOOP_FLOOR,
  PLANNING_TOOL_CALL_FLOOR,
  planningLimits,
  PREVIEW_TURN_BUDGET,
  previewResult,
  previewStub,
  resultCap,
  SPOOL_PAGE_CREDIT,
} from './budget';
export type {
  Admission,
  BudgetCounters,
  BudgetExhausted,
  ConsumeDecision,
  Phase,
  PreviewBudget,
  PreviewDecision,
  PreviewKind,
  PreviewRequest,
  StubMeta,
  TurnLimits,
} from './budget';
export {
  churnFamily,
  describeCommand,
  describeToolCall,
  DIVERSE_CHURN_WINDOW,
  LOW_SIGNAL_CONSECUTIVE,
  LOW_SIGNAL_TOTAL,
  navigate,
  navigationSignal,
  newNavigation,
  OUTPUT_CONTROL_KEYS,
  REPEATED_INSPECTION_WINDOW,
  SAME_TARGET_LISTINGS,
} from './navigation';
export type {
  CallDescription,
  ListingTool,
  NavDecision,
  NavEvent,
  NavGuard,
  NavigationState,
  OutcomeClass,
  ToolOutcome,
} from './navigation';
