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
export { ToolFailure } from './tool';
export type { ToolContext } from './tool';
export { resolveWorkspacePath } from './paths';
export { byteLength, cutHead, cutHeadTail, cutNote } from './preview';
export { compileGlob, parseGitignore } from './glob';
export { editFileTool } from './edit-file';
export { findFilesTool } from './find-files';
export { grepTool } from './grep';
export { listDirTool } from './list-dir';
export { readFileTool } from './read-file';
export { requestUserInputTool } from './request-user-input';
export { runCommandTool } from './run-command';
export { startPlanningTool } from './start-planning';
export { writeFileTool } from './write-file';
export { taskTrackerTool } from './task-tracker-tool';
