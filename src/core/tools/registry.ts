/** The catalog of agent tools per mode (RO-1, MODE-1) and lookup by name. */
import type { ToolDefinition } from '../llm/provider';
import type { AgentMode } from '../vocabulary';
import { editFileTool } from './edit-file';
import { findFilesTool } from './find-files';
import { grepTool } from './grep';
import { listDirTool } from './list-dir';
import { readFileTool } from './read-file';
import { requestUserInputTool } from './request-user-input';
import { runCommandTool } from './run-command';
import { startPlanningTool } from './start-planning';
import { taskTrackerTool } from './task-tracker-tool';
import type { Tool } from './tool';
import { writeFileTool } from './write-file';

const READ_ONLY: readonly Tool[] = [
  readFileTool,
  listDirTool,
  findFilesTool,
  grepTool,
  runCommandTool,
  requestUserInputTool,
  taskTrackerTool,
];
const EXECUTION: readonly Tool[] = [...READ_ONLY, writeFileTool, editFileTool, startPlanningTool];

/** Every tool, each once. */
export const ALL_TOOLS: readonly Tool[] = EXECUTION;

/** The catalog an agent gets (RO-1, MODE-1): build and auto share one; plan has no writers. */
export function toolsForMode(mode: AgentMode): readonly Tool[] {
  return mode === 'plan' ? READ_ONLY : EXECUTION;
}

export function toolDefinitions(mode: AgentMode): ToolDefinition[] {
  return toolsForMode(mode).map((t) => t.definition);
}

export function findTool(name: string): Tool | undefined {
  return ALL_TOOLS.find((t) => t.name === name);
}
