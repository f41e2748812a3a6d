/**
 * Public face of the task tracker for the runloop, the approval handoff, the tool and the views.
 */
export {
  TASK_STATUSES,
  DEFAULT_TITLE,
  currentItem,
  formatIndexPath,
  totalsOf,
  walk,
  type Checklist,
  type LocatedItem,
  type TaskItem,
  type TaskStatus,
  type Totals,
} from './model';
export {
  applyCall,
  TrackerError,
  type ApplyResult,
  type ItemInput,
  type TrackerCall,
  type TrackerErrorCode,
} from './ops';
export { parseTrackerMarkdown, renderTrackerMarkdown, type TrackerFileKind } from './markdown';
export { EXPANDED_MAX_ROWS, renderCompact, renderExpanded, renderHeader, rowsOf, type TaskRow } from './render';
export { distillPlan, distillSteps, type DistillStep } from './distill';
export { DEFAULT_REPEAT_LIMIT, TrackerRepeatGuard, callKey, type RepeatVerdict } from './guard';
export {
  GLOBAL_TRACKER_FILE,
  PLANS_DIR,
  chooseSource,
  globalTrackerPath,
  loadTracker,
  locateNewestTracker,
  planPathForSidecar,
  saveTracker,
  sidecarPathFor,
  type SaveOutcome,
  type TrackerFileState,
  type TrackerLocation,
  type TrackerSnapshot,
} from './store';
export {
  createTrackerFromPlan,
  executeTrackerCall,
  type ChecklistSummary,
  type DisplayMode,
  type ItemSummary,
  type TrackerFailure,
  type TrackerResult,
  type TrackerSuccess,
} from './execute';
