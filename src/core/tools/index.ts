/**
 * The agents' tool catalog and everything the runloop needs to run a tool call:
 *
 *   toolsForMode(mode)        the tools offered to an agent (plan: read-only + interview + tracker)
 *   toolDefinitions(mode)     their provider wire form (name, description, JSON Schema)
 *   findTool(name)            lookup by name (undefined for an unknown tool)
 *   tool.run(args, ctx)       validates, runs over the ports, never throws
 */
export { ALL_TOOLS, findTool, toolDefinitions, toolsForMode } from './registry';
export { createToolRuntime } from './runtime';
export type { ToolRuntimeOptions } from './runtime';
export { defineTool, describeIssues, failed, parseArgs, ToolFailure } from './tool';
export type {
  InterviewQuestion,
  ParsedArgs,
  Tool,
  ToolContext,
  ToolErrorCode,
  ToolOutcome,
  ToolPorts,
  ToolResult,
  ToolSpec,
} from './tool';
export { displayPath, resolveWorkspacePath, resolveWritablePath } from './paths';
export type { WorkspacePath } from './paths';
export { byteLength, cutHead, cutHeadTail, cutNote } from './preview';
export type { Cut } from './preview';
export { compileGlob, parseGitignore } from './glob';
export type { Glob, IgnoreRules } from './glob';
export { COMMAND_CAPTURE_BYTES, COMMAND_MAX_TIMEOUT_SECONDS } from './run-command';
export { editFileTool } from './edit-file';
export { findFilesTool } from './find-files';
export { grepTool } from './grep';
export { listDirTool } from './list-dir';
export { readFileTool } from './read-file';
export { requestUserInputTool } from './request-user-input';
export { runCommandTool } from './run-command';
export { startPlanningTool } from './start-planning';
export { taskTrackerTool } from './task-tracker-tool';
export { writeFileTool } from './write-file';
