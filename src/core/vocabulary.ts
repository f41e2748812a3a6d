/**
 * The words every part of VT Code Planning shares: agent modes, approval choices, turn statuses,
 * budget kinds and handoff phases, with the labels people see. The core's events
 * (session/events.ts), the webview protocol (src/protocol.ts), the webview, the settings and the
 * CLI all take their values from here, so a value is added or renamed in one place and every
 * exhaustive `switch` over it (see `assertNever`) stops compiling until it is handled.
 *
 * Plain `as const` arrays and types, no zod: the webview imports this module and its bundle
 * cannot carry classic zod. Each side builds its schema from these arrays with the zod it already
 * loads (`z.enum(AGENT_MODES)`: classic in the core, zod/mini in the protocol and the settings).
 */

/** MODE-1: `plan` researches read-only; `build` and `auto` write (auto without asking). */
export const AGENT_MODES = ['plan', 'build', 'auto'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];
/** The modes that may execute an approved plan (MODE-7: read-only agents never do). */
export type ExecutionMode = Exclude<AgentMode, 'plan'>;

export const AGENT_MODE_LABEL: Readonly<Record<AgentMode, string>> = { plan: 'Plan', build: 'Build', auto: 'Auto' };
export const AGENT_MODE_HINT: Readonly<Record<AgentMode, string>> = {
  plan: 'Plan mode: read-only research that ends in a plan for you to approve',
  build: 'Build mode: writes files and asks before running commands',
  auto: 'Auto mode: writes files and runs commands without asking',
};

/** How a plan approval resolved (EVT-1: `plan.approval.resolved`), the seed's full list. */
export const APPROVAL_CHOICES = [
  'execute',
  'fresh_context',
  'switch_build',
  'switch_auto',
  'revise',
  'cancel',
  'auto_accept',
] as const;
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number];

/** The "Ready to code?" gate's four choices, in the order shown and keyed 1–4 (GATE-1). */
export const GATE_CHOICES = [
  'execute',
  'fresh_context',
  'switch_auto',
  'revise',
] as const satisfies readonly ApprovalChoice[];
export type GateChoice = (typeof GATE_CHOICES)[number];

/**
 * What approves a plan and runs the handoff (GATE-3): the gate's approving choices, and the
 * runtime's own acceptance under skip-confirmations (`auto_accept`, always `automatic`).
 */
export const HANDOFF_CHOICES = [
  'execute',
  'fresh_context',
  'switch_auto',
  'auto_accept',
] as const satisfies readonly ApprovalChoice[];
export type HandoffChoice = (typeof HANDOFF_CHOICES)[number];

/** A choice as the gate offers it and as a resolved gate reads afterwards. */
export const APPROVAL_CHOICE_LABEL: Readonly<Record<ApprovalChoice, string>> = {
  execute: 'Yes, implement this plan',
  fresh_context: 'Yes, clear context and implement',
  switch_build: 'Implement with Build',
  switch_auto: 'Yes, switch to Auto and implement',
  revise: 'No, stay in Plan mode',
  cancel: 'Plan cancelled',
  auto_accept: 'Accepted automatically',
};

/** How a turn ended (`turn.completed`); also what `vtplan run` / `resume` report and exit on. */
export const TURN_STATUSES = ['idle', 'awaiting_approval', 'awaiting_input', 'blocked', 'cancelled', 'failed'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** The turn budgets that fail closed and are recorded as `budget_exhausted` (NAV-6). */
export const BUDGET_KINDS = ['tool_calls', 'tool_loop', 'session_calls'] as const;
export type BudgetKind = (typeof BUDGET_KINDS)[number];
/** The limits whose exhaustion pauses the turn and asks the user for more (EXEC-3). */
export const GRANTABLE_BUDGET_KINDS = ['session_calls', 'tool_loop'] as const satisfies readonly BudgetKind[];
export type GrantableBudgetKind = (typeof GRANTABLE_BUDGET_KINDS)[number];

export const BUDGET_KIND_LABEL: Readonly<Record<BudgetKind, string>> = {
  tool_calls: 'tool calls',
  tool_loop: 'tool loop',
  session_calls: 'session calls',
};

/**
 * Where an approved handoff is (`handoff.phase`). A fresh-context handoff goes through
 * `preparing`, `restoring` and `starting`, each shown to the user while input is locked (GATE-4);
 * `done` ends every handoff and unlocks input.
 */
export const HANDOFF_PHASES = ['preparing', 'restoring', 'starting', 'done'] as const;
type HandoffPhase = (typeof HANDOFF_PHASES)[number];
/** The phases during which input is locked. */
export type ActiveHandoffPhase = Exclude<HandoffPhase, 'done'>;

/** GATE-4's texts, exactly as the seed spells them. */
export const HANDOFF_PHASE_LABEL: Readonly<Record<ActiveHandoffPhase, string>> = {
  preparing: 'Preparing fresh execution thread...',
  restoring: 'Restoring approved plan...',
  starting: 'Starting build...',
};

/**
 * The default branch of a `switch` over one of these vocabularies: `value` is `never` when every
 * case is handled, so adding a value makes the switch fail the type check. Reaching it at run time
 * means a value came from outside the types (a bad cast), which is a bug worth an error.
 */
export function assertNever(value: never, what: string): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
