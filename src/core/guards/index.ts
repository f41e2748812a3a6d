/** Public API of the turn guards (FUSE-1 … FUSE-3, NAV-1 … NAV-6); the runloop imports from here. */
export { fuseLimits, newFuse, recordCall } from './fuse';
export type { FuseDecision, FuseLimits, FuseState } from './fuse';
export { blockedHandoff, renderBlockedHandoff } from './blocked-handoff';
export type { ArchiveOutcome } from './blocked-handoff';
export {
  admitPreview,
  budgetExhaustedSchema,
  consume,
  newCounters,
  newPreviewBudget,
  planningLimits,
  previewResult,
  previewStub,
  resultCap,
} from './budget';
export type { BudgetCounters, PreviewBudget, PreviewKind } from './budget';
export { describeCommand, describeToolCall, navigate, navigationSignal, newNavigation } from './navigation';
export type { NavDecision, NavEvent, NavigationState, ToolOutcome } from './navigation';
