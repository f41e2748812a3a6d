/**
 * `start_planning` (MODE-4): an execution agent suggests switching to the Planning workflow.
 * The handler changes nothing; it returns a `planning_suggested` outcome and the runloop asks
 * "Enter Planning workflow?" (or accepts directly under full-auto, or reports it pending when
 * headless).
 */
import { z } from 'zod';
import { defineTool, ToolFailure, type ToolResult } from './tool';

const schema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1)
    .describe('Why planning first would help, in one or two sentences the user will read.'),
});

export const startPlanningTool = defineTool({
  name: 'start_planning',
  description: [
    'Suggest switching to the read-only Planning workflow before making changes: use it when the request is demanding, ambiguous or has several phases.',
    'The user decides; nothing changes until they confirm. Straightforward requests do not need it: just do them.',
  ].join(' '),
  schema,
  mutates: false,
  async handler(args, ctx): Promise<ToolResult> {
    if (ctx.mode === 'plan')
      throw new ToolFailure('refused', 'Planning is already active; start_planning is for build and auto agents.');
    return {
      ok: true,
      content: 'Asked the user whether to enter the Planning workflow; nothing changes until they decide.',
      summary: `suggested planning: ${args.reason}`,
      outcome: { kind: 'planning_suggested', reason: args.reason },
    };
  },
});
