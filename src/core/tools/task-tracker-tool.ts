/**
 * `task_tracker` in the common Tool contract. The schema, wire definition and handler belong to
 * task-tracker.ts; this only maps its result onto ToolResult. The model gets the result as JSON
 * (the checklist with indices it must cite in later updates); the transcript gets the message.
 */
import type { TrackerResult } from '../tracker';
import { TASK_TRACKER_TOOL, handleTaskTracker, taskTrackerArgsSchema, trackerResultForModel } from './task-tracker';
import { failed, type Tool, type ToolContext, type ToolResult } from './tool';
import { errorMessage } from '../errors';

function toToolResult(result: TrackerResult): ToolResult {
  if (!result.ok) {
    const r = failed(
      'task_tracker',
      result.error.code === 'invalid_args' || result.error.code === 'json_string' ? 'invalid_args' : 'failed',
      result.error.message,
    );
    return { ...r, content: trackerResultForModel(result) };
  }
  return {
    ok: true,
    content: trackerResultForModel(result),
    summary: `task_tracker ${result.status}: ${result.message}`,
    target: result.written[0] ?? 'task_tracker',
    data: {
      status: result.status,
      written: result.written.length,
      ...(result.view === undefined ? {} : { view: result.view }),
    },
  };
}

export const taskTrackerTool: Tool = {
  name: TASK_TRACKER_TOOL.name,
  description: TASK_TRACKER_TOOL.description,
  schema: taskTrackerArgsSchema,
  definition: TASK_TRACKER_TOOL,
  // It writes only the tracker artifacts under .vtcode/, never the user's files (RO-1 admits it).
  mutates: false,
  async run(args: unknown, ctx: ToolContext): Promise<ToolResult> {
    try {
      const result = await handleTaskTracker(
        { fs: ctx.ports.fs, root: ctx.root, ...ctx.tracker, display: 'compact' },
        args,
      );
      return toToolResult(result);
    } catch (err) {
      return failed('task_tracker', 'failed', `task_tracker failed: ${errorMessage(err)}`);
    }
  },
};
