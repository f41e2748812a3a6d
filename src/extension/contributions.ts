/**
 * The ids package.json contributes, in the module activation loads: the activation shells
 * (lazy-workbench.ts) register them without loading the workbench that implements them.
 */
export const COMMAND_IDS = [
  'vtplan.startPlanning',
  'vtplan.stopPlanning',
  'vtplan.approvePlan',
  'vtplan.editPlan',
  'vtplan.openPlan',
  'vtplan.comparePlan',
  'vtplan.selectModel',
  'vtplan.newSession',
  'vtplan.openSession',
  'vtplan.switchFolder',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

export const CHAT_VIEW_ID = 'vtplan.chat';
export const TASKS_VIEW_ID = 'vtplan.tasks';
