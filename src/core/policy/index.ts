/** Public API of the read-only policy (RO-1 … RO-4); the runloop imports from here. */
export { checkCommand, checkCommandInWorkspace } from './shell';
export type { CommandClass, CommandVerdict, SegmentResult, WorkspaceCommandVerdict } from './shell';
export { checkCommandPaths } from './paths';
export type { PathVerdict } from './paths';
export { gateToolCall, confine, pathBlocked, KNOWN_TOOLS, READ_TOOLS, WRITE_TOOLS } from './dispatch';
export type { BlockKind, DispatchDecision, GateContext, ToolCall, ToolName } from './dispatch';
export { commandEnvironment } from './command-env';
export type { CommandEnvOptions } from './command-env';
export { commandReport, commandReportLines } from './report';
export type { CommandReport } from './report';
