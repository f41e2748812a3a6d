/**
 * The planning gates for every agent (issue 18): one table that the MCP server (`vtplan mcp`)
 * and VS Code's language model tools both read, so no surface defines a tool of its own.
 *
 *   GATE_TOOLS                 validatePlan, checkCommand, taskTracker, savePlan
 *   gate.handler(input, ctx)   validates `input` with gate.inputSchema, runs, never throws
 *   gateJsonSchema(gate)       the input schema as JSON Schema
 */
import { checkCommandGate } from './check-command';
import type { GateName, GateTool } from './gate';
import { savePlanGate } from './save-plan';
import { taskTrackerGate } from './task-tracker';
import { validatePlanGate } from './validate-plan';

export const GATE_TOOLS: readonly GateTool[] = [validatePlanGate, checkCommandGate, taskTrackerGate, savePlanGate];

export function findGate(name: GateName): GateTool {
  const gate = GATE_TOOLS.find((g) => g.name === name);
  if (gate === undefined) throw new Error(`no gate named ${name}`);
  return gate;
}

export { GATE_NAMES, gateJsonSchema } from './gate';
export type { GateContext, GateName, GateResult, GateTool, ReadyPlan } from './gate';
