/**
 * The contract every agent tool follows: a zod schema for the model's arguments, the JSON Schema
 * derived from it for the provider (`ToolDefinition`, the wire form `task_tracker` uses too), and
 * a handler over ports. `run` validates first and never throws: a bad argument, a refused path
 * or a failing port all come back as a result with `ok: false` and a message the model can act on.
 */
import { z } from 'zod';
import type { ToolDefinition } from '../llm/provider';
import type { AgentMode } from '../vocabulary';
import type { CommandNetwork } from '../config/settings';
import { NotRegularFileError, type FileSystem, type Search, type Shell, type Writer } from '../ports';
import { errorMessage } from '../errors';

export interface ToolPorts {
  fs: FileSystem;
  shell: Shell;
  search: Search;
  writer: Writer;
}

export interface ToolContext {
  /** Absolute POSIX path of the workspace root. */
  root: string;
  mode: AgentMode;
  ports: ToolPorts;
  /** The turn's stop signal; a running command is killed when it fires. */
  signal: AbortSignal;
  /**
   * Bytes of text this result may show the model (NAV-5: the runloop derives it from the turn's
   * preview budget). Longer output is cut and the result says how much and how to see the rest.
   */
  previewBytes: number;
  /** Default `run_command` timeout; the model may ask for less or more up to the tool's cap. */
  commandTimeoutMs: number;
  /** Whether commands reach the network: `default` is off in plan mode and on in build/auto. */
  commandNetwork: CommandNetwork;
  /** Build mode asks before each command; without it build-mode commands are refused. */
  confirm?: (command: string, signal: AbortSignal) => Promise<boolean>;
  /** Where `task_tracker` keeps its checklist. */
  tracker?: { planFile?: string; planActive?: boolean };
}

/** One question of a `request_user_input` call, shaped as the `interview.requested` event wants it. */
export interface InterviewQuestion {
  id: string;
  header?: string;
  question: string;
  options: Array<{ label: string; description?: string; recommended?: boolean }>;
  allowFreeform: boolean;
}

/**
 * What a tool asks the runloop to do beyond returning text. The runloop, not the tool, talks to
 * the user: it turns `interview` into an `interview.requested` event (INT-1) and replaces the
 * result content with the answers; `planning_suggested` into the "Enter Planning workflow?"
 * prompt (MODE-4).
 */
type ToolOutcome =
  { kind: 'interview'; questions: InterviewQuestion[] } | { kind: 'planning_suggested'; reason: string };

export type ToolErrorCode =
  | 'invalid_args'
  | 'outside_workspace'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'binary'
  | 'too_large'
  | 'no_match'
  | 'not_unique'
  | 'refused'
  | 'declined'
  | 'cancelled'
  | 'timed_out'
  | 'command_failed'
  | 'failed';

export interface ToolResult {
  /** `false` when the tool could not do what was asked (a command that exits non-zero included). */
  ok: boolean;
  /** What the model sees. */
  content: string;
  /** One line for the transcript, e.g. `read src/a.ts (lines 1-80)`. */
  summary: string;
  /** The path or command the call was about. */
  target?: string;
  /** Set when `content` was cut to the preview limit. */
  truncated?: { shownBytes: number; totalBytes: number };
  error?: { code: ToolErrorCode; message: string };
  /** Nothing found (no match, empty folder): a low-signal outcome for the navigation guards (NAV-2). */
  empty?: boolean;
  outcome?: ToolOutcome;
  /** Tool-specific facts for clients (exit code, match count, bytes written …). */
  data?: Readonly<Record<string, string | number | boolean | null>>;
}

export interface Tool {
  readonly name: string;
  /** Written for the model: when to use the tool and its limits. */
  readonly description: string;
  readonly schema: z.ZodType;
  /** The provider wire form: name, description, JSON Schema of the arguments. */
  readonly definition: ToolDefinition;
  /**
   * Can change the workspace. Plan mode admits such a tool only through its own policy check
   * (`run_command` and the read-only shell policy); `write_file`/`edit_file` never.
   */
  readonly mutates: boolean;
  /** `args`: an object or the JSON text the provider streamed. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export class ToolFailure extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly target?: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export function failed(name: string, code: ToolErrorCode, message: string, target?: string): ToolResult {
  const result: ToolResult = {
    ok: false,
    content: message,
    summary: `${name} failed: ${firstLine(message)}`,
    error: { code, message },
  };
  if (target !== undefined) result.target = target;
  return result;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.length === 0
    ? 'arguments'
    : path
        .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
        .join('.')
        .replace(/\.\[/g, '[');
}

/** Each zod issue as "`field`: problem", joined; unknown keys are named one by one. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        const where = issue.path.length === 0 ? '' : ` in \`${fieldName(issue.path)}\``;
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}${where}`;
      }
      return `\`${fieldName(issue.path)}\`: ${issue.message}`;
    })
    .join('; ');
}

type ParsedArgs<T> = { ok: true; args: T } | { ok: false; message: string };

/** Validates raw arguments (object or JSON text) against a tool's schema. */
export function parseArgs<S extends z.ZodType>(toolName: string, schema: S, raw: unknown): ParsedArgs<z.output<S>> {
  let value = raw;
  if (typeof raw === 'string') {
    const text = raw.trim() === '' ? '{}' : raw;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { ok: false, message: `Invalid arguments for ${toolName}: not valid JSON (${errorMessage(err)}).` };
    }
  }
  if (value === undefined || value === null) value = {};
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    return { ok: false, message: `Invalid arguments for ${toolName}: ${describeIssues(parsed.error)}.` };
  return { ok: true, args: parsed.data };
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  schema: S;
  mutates: boolean;
  handler(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Builds a Tool: JSON Schema from the zod schema, validation before the handler, no throws. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  const parameters = z.toJSONSchema(spec.schema, { io: 'input' }) as ToolDefinition['parameters'];
  return {
    name: spec.name,
    description: spec.description,
    schema: spec.schema,
    mutates: spec.mutates,
    definition: { name: spec.name, description: spec.description, parameters },
    async run(raw, ctx) {
      const parsed = parseArgs(spec.name, spec.schema, raw);
      if (!parsed.ok) return failed(spec.name, 'invalid_args', parsed.message);
      if (ctx.signal.aborted) return failed(spec.name, 'cancelled', `${spec.name} was cancelled before it started.`);
      try {
        return await spec.handler(parsed.args, ctx);
      } catch (err) {
        if (err instanceof ToolFailure) return failed(spec.name, err.code, err.message, err.target);
        // A handler's own kind check can lose a race with a swap; the port's refusal still says why.
        if (err instanceof NotRegularFileError) return failed(spec.name, 'not_a_file', `${spec.name}: ${err.message}`);
        return failed(spec.name, 'failed', `${spec.name} failed: ${errorMessage(err)}`);
      }
    },
  };
}
