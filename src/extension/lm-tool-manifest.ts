/**
 * The language model tools: their names, the gate each runs, and what VS Code shows of them. What
 * the model reads (the description and the input schema) comes from the shared gates instead;
 * package.json's `contributes.languageModelTools` is generated from both (lm-tool-contributions.ts,
 * `node scripts/sync-lm-tools.mjs`). Types only from the gates: the activation bundle reads this.
 */
import type { GateName } from '../core/gates/gate';

export interface LmToolEntry {
  /** The tool's name in `vscode.lm.tools` and `vscode.lm.invokeTool`. */
  name: string;
  gate: GateName;
  /** `#…` in VS Code's chat. */
  toolReferenceName: string;
  displayName: string;
  /** What the user reads in the tools picker. */
  userDescription: string;
  icon: string;
  tags: string[];
}

export const LM_TOOLS: readonly LmToolEntry[] = [
  {
    name: 'vtplan_validatePlan',
    gate: 'validatePlan',
    toolReferenceName: 'vtplanValidate',
    displayName: 'Validate Plan (VT Code)',
    userDescription:
      "Check a plan (markdown or a plan file) with VT Code Planning's validator: ready or not, and every error with its line.",
    icon: '$(checklist)',
    tags: ['vtplan', 'planning', 'read-only'],
  },
  {
    name: 'vtplan_checkCommand',
    gate: 'checkCommand',
    toolReferenceName: 'vtplanCheckCommand',
    displayName: 'Check Command (VT Code)',
    userDescription:
      "Ask VT Code Planning's read-only command policy whether a shell command may run in plan, build or auto mode. Runs nothing.",
    icon: '$(shield)',
    tags: ['vtplan', 'planning', 'read-only'],
  },
  {
    name: 'vtplan_taskTracker',
    gate: 'taskTracker',
    toolReferenceName: 'vtplanTasks',
    displayName: 'Task Tracker (VT Code)',
    userDescription:
      "List or update the workspace's task checklist (.vtcode/): VT Code's Tasks view follows every change. Changes ask for confirmation.",
    icon: '$(tasklist)',
    tags: ['vtplan', 'planning'],
  },
  {
    name: 'vtplan_savePlan',
    gate: 'savePlan',
    toolReferenceName: 'vtplanSavePlan',
    displayName: 'Save Plan (VT Code)',
    userDescription:
      'Validate a plan and, only if it is ready, save it under .vtcode/plans/ and ask you "Ready to code?" in VS Code. Asks for confirmation first.',
    icon: '$(save)',
    tags: ['vtplan', 'planning'],
  },
];
