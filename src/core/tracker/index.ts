/**
 * Public face of the task tracker for the runloop, the approval handoff, the tool and the views.
 */
export { TASK_STATUSES, totalsOf, walk, type Checklist, type TaskItem, type Totals } from './model';
export { applyCall, TrackerError, type ApplyResult, type TrackerCall } from './ops';
export { parseTrackerMarkdown, renderTrackerMarkdown } from './markdown';
export { renderCompact, renderExpanded, rowsOf } from './render';
export { distillPlan, distillSteps } from './distill';
export { TrackerRepeatGuard } from './guard';
export { loadTracker, locateNewestTracker, sidecarPathFor, type TrackerLocation } from './store';
export {
  createTrackerFromPlan,
  executeTrackerCall,
  type DisplayMode,
  type TrackerResult,
  type TrackerSuccess,
} from './execute';
