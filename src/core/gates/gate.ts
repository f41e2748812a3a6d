/**
 * The planning gates offered to other agents (issue 18; PLAN-2 … PLAN-6, RO-2, TRK-1 … TRK-7,
 * ADD-2): one definition a tool — name, title, model-facing description, zod input schema,
 * read-only flag, handler — that every surface reads (the MCP server `vtplan mcp`, VS Code's
 * language model tools). A surface only maps a GateResult onto its own result type.
 */
import { z } from 'zod';
import type { Clock, FileSystem } from '../ports';
import { StoreError } from '../store/atomic';
import { NotRegularFileError } from '../ports';
import { parseArgs, ToolFailure } from '../tools/tool';
import { errorMessage } from '../errors';

export const GATE_NAMES = ['validatePlan', 'checkCommand', 'taskTracker', 'savePlan'] as const;
export type GateName = (typeof GATE_NAMES)[number];

/** A plan `savePlan` has just put on disk (or found there unchanged); ready by construction. */
export interface ReadyPlan {
  slug: string;
  /** Absolute path of the plan file. */
  path: string;
  /** Workspace-relative path, e.g. `.vtcode/plans/add-login.md`. */
  relativePath: string;
  title: string | null;
  status: 'written' | 'unchanged';
}

export interface GateContext {
  /** Absolute POSIX path of the workspace root. */
  root: string;
  fs: FileSystem;
  clock?: Clock;
  /**
   * Called by `savePlan` once a ready plan is on disk, so the host can offer "Ready to code?":
   * the user approves in the host, never the tool. It must return without waiting for the
   * user's answer (the agent's call would otherwise hang on the user). Absent: nobody is told.
   */
  onPlanReady?: (plan: ReadyPlan) => void;
  /**
   * Set by a host in another process than VS Code (`vtplan mcp`): savePlan also records the ready
   * plan under `.vtcode/approvals/` (approval-records.ts), where VS Code finds it and asks "Ready
   * to code?". VS Code's own tools leave it out: they offer in-process, through `onPlanReady`.
   */
  approvalRecord?: { savedBy: string };
}

/** A structured result: plain JSON values only, so any surface can serialise it as it is. */
export type GateData = { readonly [key: string]: unknown };

export interface GateResult {
  /**
   * `false` when the gate refused or failed (bad input, a path outside the workspace, a plan
   * that is not ready to save). A verdict the agent asked for — a plan that is not ready, a
   * rejected command — is a successful call with `ok: true`.
   */
  ok: boolean;
  /** What the model reads: the verdict and what to do next. */
  text: string;
  /** The same result as data. */
  data: GateData;
  error?: { code: string; message: string };
}

export interface GateTool {
  name: GateName;
  /** Short human title (MCP `title`, VS Code's display name). */
  title: string;
  /** Written for the model: what the tool does, when to call it, what it returns. */
  description: string;
  /** The input's zod schema (a strict object); surfaces derive their JSON Schema from it. */
  inputSchema: z.ZodType;
  /** Reads only (`validatePlan`, `checkCommand`); the others write under `.vtcode/`. */
  readOnly: boolean;
  /**
   * Validates `input` against `inputSchema` (bad input: `ok: false`, code `invalid_args`, the zod
   * message) and runs the gate. Never throws: every failure is a GateResult.
   */
  handler(input: unknown, ctx: GateContext): Promise<GateResult>;
}

/** The input schema as JSON Schema (the form VS Code's `languageModelTools` and MCP lists carry). */
export function gateJsonSchema(gate: GateTool): Record<string, unknown> {
  return z.toJSONSchema(gate.inputSchema, { io: 'input' }) as Record<string, unknown>;
}

export function gateFailure(code: string, message: string, data: GateData = {}): GateResult {
  return { ok: false, text: message, data: { error: { code, message }, ...data }, error: { code, message } };
}

/** An unexpected throw as a failure naming the gate; known refusals keep their own code. */
export function failureOf(name: GateName, err: unknown): GateResult {
  if (err instanceof ToolFailure) return gateFailure(err.code, err.message);
  if (err instanceof StoreError) return gateFailure(`store_${err.code}`, err.message);
  if (err instanceof NotRegularFileError) return gateFailure(err.code, err.message);
  return gateFailure('failed', `${name} failed: ${errorMessage(err)}`);
}

interface GateSpec<S extends z.ZodType> extends Omit<GateTool, 'inputSchema' | 'handler'> {
  inputSchema: S;
  run(args: z.output<S>, ctx: GateContext): Promise<GateResult>;
}

/** A gate whose handler validates with its schema first, then runs on the parsed input. */
export function defineGate<S extends z.ZodType>(spec: GateSpec<S>): GateTool {
  const { run, ...definition } = spec;
  return {
    ...definition,
    async handler(input, ctx) {
      const parsed = parseArgs(spec.name, spec.inputSchema, input);
      if (!parsed.ok) return gateFailure('invalid_args', parsed.message);
      try {
        return await run(parsed.args, ctx);
      } catch (err) {
        return failureOf(spec.name, err);
      }
    },
  };
}
