/**
 * `taskTracker` (TRK-1 … TRK-3, TRK-7): the chat's own `task_tracker` — the same schema, the same
 * handler — over the checklist the Tasks view shows: the newest plan's sidecar weighed against the
 * global task file (`locateNewestTracker`), so the view follows any agent's progress.
 */
import { locateNewestTracker } from '../tracker';
import {
  handleTaskTracker,
  TASK_TRACKER_TOOL,
  taskTrackerArgsSchema,
  trackerResultForModel,
} from '../tools/task-tracker';
import { failureOf, gateFailure, type GateTool } from './gate';

export const taskTrackerGate: GateTool = {
  name: 'taskTracker',
  title: 'Task tracker',
  description: `${TASK_TRACKER_TOOL.description} The checklist is the workspace's (the approved plan's steps under .vtcode/), the one VT Code's Tasks view shows: update each step as you finish it.`,
  inputSchema: taskTrackerArgsSchema,
  readOnly: false,
  // Raw input straight to the chat's handler: it validates with the same schema and refuses
  // JSON-encoded strings with its own message (TRK-3).
  async handler(input, ctx) {
    try {
      const location = await locateNewestTracker(ctx.fs, ctx.root);
      const result = await handleTaskTracker({ fs: ctx.fs, ...location, display: 'compact' }, input);
      // The model reads exactly what the chat's model reads; `data` keeps the transcript view too.
      if (!result.ok)
        return { ...gateFailure(result.error.code, result.error.message), text: trackerResultForModel(result) };
      return { ok: true, text: trackerResultForModel(result), data: { ...result } };
    } catch (err) {
      return failureOf('taskTracker', err);
    }
  },
};
