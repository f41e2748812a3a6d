/**
 * The `task_tracker` tool (TRK-1..TRK-5): zod schema for the model's arguments, the JSON Schema
 * sent to providers, and the handler over the FileSystem port.
 */
import { z } from 'zod';
import type { ToolDefinition } from '../llm/provider';
import type { FileSystem } from '../ports';
import {
  TASK_STATUSES,
  executeTrackerCall,
  type DisplayMode,
  type TrackerCall,
  type TrackerLocation,
  type TrackerResult,
} from '../tracker';
import { failure } from '../tracker/execute';
import { isJsonEncoded } from '../tracker/text';
import { parseListValue } from '../plan/parse';

const status = z.enum(TASK_STATUSES);

/** A single string is one check list (`"npm test, npm run lint"`), split like a plan step's `verify:`. */
const verify = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (typeof v === 'string' ? parseListValue(v) : v))
  .describe('Verification commands or observable checks; [] clears them.');
const files = z.array(z.string()).describe('Repository paths this step touches; [] clears them.');
const outcome = z.string().describe('Observable result when done; "" clears it.');

const itemObject = z
  .object({
    description: z.string().describe('Step text; two leading spaces per level nest it under the item before.'),
    status: status.optional(),
    files: files.optional(),
    outcome: outcome.optional(),
    verify: verify.optional(),
  })
  .strict();

export const taskTrackerArgsSchema = z
  .object({
    action: z.enum(['create', 'update', 'list', 'add']),
    title: z.string().optional().describe('Checklist title (create / bulk sync).'),
    items: z
      .array(z.union([z.string(), itemObject]))
      .optional()
      .describe(
        'The complete checklist, for create or for a bulk-sync update that replaces it. Strings may start with [ ] pending, [~] or [/] in progress, [x] completed, [!] blocked.',
      ),
    index: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('1-based item to update; 0 only with status "completed" to complete the whole checklist.'),
    index_path: z.string().optional().describe('Hierarchical item path such as "2" or "2.1".'),
    status: status.optional(),
    description: z
      .string()
      .optional()
      .describe('Text of the item to add (action "add") or new text for the updated item.'),
    files: files.optional(),
    outcome: outcome.optional(),
    verify: verify.optional(),
    parent_index_path: z.string().optional().describe('For "add": the item that receives the new child, e.g. "2".'),
    notes: z.string().optional().describe('Text appended to the checklist notes.'),
  })
  .strict();

export const TASK_TRACKER_TOOL: ToolDefinition = {
  name: 'task_tracker',
  description: [
    'Keep the task checklist for the current work. Actions: create (items), update (index_path/index + status, or items to replace the whole list), add (description, optional parent_index_path), list.',
    'Example: {"action":"update","index_path":"1","status":"completed"}. Identical updates return status "unchanged"; reuse the latest result for progress instead of listing again.',
  ].join(' '),
  parameters: z.toJSONSchema(taskTrackerArgsSchema, { io: 'input' }) as ToolDefinition['parameters'],
};

export type TaskTrackerArgs = z.output<typeof taskTrackerArgsSchema>;

export interface TaskTrackerContext extends TrackerLocation {
  fs: FileSystem;
  display?: DisplayMode;
}

/**
 * Validates raw arguments (an object, or the JSON text a provider streamed) into a call. A
 * JSON-encoded string where an object or list belongs is refused with its own error (TRK-3).
 */
export function parseTaskTrackerArgs(
  raw: unknown,
): { ok: true; call: TrackerCall } | { ok: false; result: TrackerResult } {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, result: failure('invalid_args', 'task_tracker arguments are not valid JSON.') };
    }
    if (typeof value === 'string' && isJsonEncoded(value)) {
      return {
        ok: false,
        result: failure(
          'json_string',
          'task_tracker arguments are a JSON-encoded string inside JSON; send the object itself.',
        ),
      };
    }
  }
  if (typeof value === 'object' && value !== null && 'items' in value) {
    const items = (value as { items: unknown }).items;
    if (typeof items === 'string') {
      const hint = isJsonEncoded(items) ? 'a JSON-encoded string' : 'a string';
      return {
        ok: false,
        result: failure(
          'json_string',
          `\`items\` is ${hint}; send a real JSON array such as ["[x] Review links", {"description":"Fix typo","status":"pending"}]. Nothing was changed.`,
        ),
      };
    }
  }
  const parsed = taskTrackerArgsSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      result: failure('invalid_args', `Invalid task_tracker arguments: ${z.prettifyError(parsed.error)}`),
    };
  }
  return { ok: true, call: parsed.data satisfies TrackerCall };
}

/** Runs one `task_tracker` call against the workspace files. */
export async function handleTaskTracker(ctx: TaskTrackerContext, raw: unknown): Promise<TrackerResult> {
  const parsed = parseTaskTrackerArgs(raw);
  if (!parsed.ok) return parsed.result;
  const { fs, display, ...loc } = ctx;
  return executeTrackerCall(fs, loc, parsed.call, display ?? 'compact');
}

/**
 * What a model reads of a result, whichever agent called: all of it as JSON (the checklist with
 * the indices it must cite in later updates) except the transcript rendering.
 */
export function trackerResultForModel(result: TrackerResult): string {
  if (!result.ok) return JSON.stringify(result);
  const { view: _view, ...forModel } = result;
  return JSON.stringify(forModel);
}
