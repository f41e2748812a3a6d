/** Public API of the read-only policy (RO-1 … RO-4); the runloop imports from here. */
export { checkCommand, checkCommandInWorkspace } from './shell';
export type { WorkspaceCommandVerdict } from './shell';
export { checkCommandPaths } from './paths';
export { gateToolCall, confine, pathBlocked, KNOWN_TOOLS } from './dispatch';
export type { DispatchDecision } from './dispatch';
export { commandEnvironment } from './command-env';
export { commandReport, commandReportLines } from './report';
