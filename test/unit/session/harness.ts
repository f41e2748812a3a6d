/**
 * Shared set-up for the session scenario tests: the scripted model server behind the real SDKs,
 * a real temp copy of the sample workspace, and the Node ports. Each test file calls `useHarness()`
 * once at top level; the returned object is refreshed before every test.
 */
import { afterEach, beforeEach } from 'node:test';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider } from '../../../src/core/llm';
import { systemClock, type Shell } from '../../../src/core/ports';
import type { SessionEvent } from '../../../src/core/session/events';
import type { AgentMode } from '../../../src/core/vocabulary';
import { Session, type SessionDeps } from '../../../src/core/session/session';
import type { PlanConfirmation, TurnLimits, TurnSettings } from '../../../src/core/session/turn-settings';
import { createToolRuntime } from '../../../src/core/tools';
import { nodeFileSystem } from '../../../src/node/fs';
import { loadPrompts } from '../../../src/node/prompts';
import { jsSearch } from '../../../src/node/search';
import { nodeShell } from '../../../src/node/shell';
import { nodeWriter } from '../../../src/node/writer';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';

export const VALID_PLAN = `# Add a shout flag to the greeter

## Summary
Add an optional \`shout\` parameter to \`greet\` in src/greet.js that upper-cases the greeting.

## Implementation Steps
1. Add the \`shout\` parameter to \`greet\` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/, rg -n 'shout' src/greet.js]
2. Cover the new parameter in test/greet.test.js -> files: [test/greet.test.js] -> verify: [node --test test/greet.test.js]

## Test Cases and Validation
- \`node --test test/\` passes, including a test that \`greet('Ada', true)\` returns \`HELLO, ADA!\`.

## Assumptions and Defaults
- The default stays lower-case so existing callers are unchanged.`;

/** A revision of VALID_PLAN: step 1 is kept word for word, step 2 is replaced, a step 3 is new. */
export const REVISED_PLAN = `# Add a shout flag to the greeter

## Summary
Add an optional \`shout\` parameter to \`greet\` in src/greet.js; the tests move to test/shout.test.js because test/greet.test.js does not exist.

## Implementation Steps
1. Add the \`shout\` parameter to \`greet\` in src/greet.js -> files: [src/greet.js] -> verify: [node --test test/, rg -n 'shout' src/greet.js]
2. Cover the new parameter in test/shout.test.js -> files: [test/shout.test.js] -> verify: [node --test test/shout.test.js]
3. Mention the flag in README.md -> files: [README.md] -> verify: [rg -n 'shout' README.md]

## Test Cases and Validation
- \`node --test test/\` passes, including \`greet('Ada', true)\` returning \`HELLO, ADA!\`.

## Assumptions and Defaults
- The default stays lower-case so existing callers are unchanged.`;

export const INVALID_PLAN = `# Shout

## Summary
Make it shout.

## Implementation Steps
1. Update the relevant files -> verify: [run checks]

## Test Cases and Validation
- run checks

## Assumptions and Defaults
- TBD`;

export const LIMITS: TurnLimits = {
  maxConsecutiveBlocked: 8,
  toolCallsPerTurn: 120,
  loopsPerTurn: 60,
  maxOutputTokens: 4_096,
};

/** Turn settings for tests: these limits, 10 s commands with the default network, and the plan confirmation policy. */
export function settingsWith(
  limits: TurnLimits = LIMITS,
  planConfirmation: PlanConfirmation = 'required',
): TurnSettings {
  return { limits, commands: { timeoutMs: 10_000, network: 'default' }, planConfirmation };
}

/** What a test may change in the session's dependencies; `limits` and `planConfirmation` become its turn settings. */
type DepsOverrides = Partial<SessionDeps> & { limits?: TurnLimits; planConfirmation?: PlanConfirmation };

export interface Harness {
  server: ModelServer;
  root: string;
  /** The workspace's session-log key (what the host keeps outside the workspace). */
  logKey: Uint8Array;
  deps(overrides?: DepsOverrides, kind?: 'openai' | 'anthropic'): SessionDeps;
  start(agent?: AgentMode, d?: SessionDeps): Promise<{ session: Session; events: SessionEvent[] }>;
  /** Attaches an event collector to a session made elsewhere (e.g. `Session.resume`). */
  watch(session: Session): SessionEvent[];
  /** The OpenAI request body of request `i`. */
  body(i: number): OpenAIBody;
  plansOnDisk(): string[];
}

export interface OpenAIBody {
  messages: { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
  tool_choice?: string;
}

export function useHarness(): Harness {
  const h = {} as Harness;
  beforeEach(async () => {
    const server = await startModelServer();
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-session-')));
    cpSync(join(__dirname, '..', '..', '..', 'examples', 'sample-workspace'), root, { recursive: true });
    const logKey = randomBytes(32);
    const deps = (
      { limits, planConfirmation, ...overrides }: DepsOverrides = {},
      kind: 'openai' | 'anthropic' = 'openai',
    ): SessionDeps => ({
      fs: nodeFileSystem,
      root,
      provider: createProvider(
        kind === 'openai'
          ? { kind, model: 'scripted', baseUrl: server.openaiBaseUrl }
          : { kind, model: 'scripted', baseUrl: server.anthropicBaseUrl },
        'sk-test-secret-key',
      ),
      tools: createToolRuntime({
        root,
        ports: { fs: nodeFileSystem, shell: nodeShell, search: jsSearch, writer: nodeWriter },
      }),
      prompts: loadPrompts(),
      clock: systemClock,
      logKey,
      turnSettings: () => settingsWith(limits, planConfirmation),
      retry: { sleep: async () => undefined, random: () => 0 },
      secrets: ['sk-test-secret-key'],
      resumeCommand: (id) => `vtplan resume ${id}`,
      ...overrides,
    });
    const watch = (session: Session): SessionEvent[] => {
      const events: SessionEvent[] = [...session.events];
      session.on((e) => events.push(e));
      return events;
    };
    Object.assign(h, {
      server,
      root,
      logKey,
      deps,
      watch,
      async start(agent: AgentMode = 'plan', d = deps()) {
        const session = await Session.start(d, { agent });
        return { session, events: watch(session) };
      },
      body: (i: number) => server.requests[i]?.body as OpenAIBody,
      plansOnDisk: () =>
        existsSync(join(root, '.vtcode/plans'))
          ? readdirSync(join(root, '.vtcode/plans')).filter((f) => !f.startsWith('.'))
          : [],
    });
  });
  afterEach(async () => {
    await h.server.close();
    rmSync(h.root, { recursive: true, force: true });
  });
  return h;
}

export const of = <T extends SessionEvent['type']>(
  events: readonly SessionEvent[],
  type: T,
): Extract<SessionEvent, { type: T }>[] =>
  events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
export const types = (events: readonly SessionEvent[]): string[] => events.map((e) => e.type);
export const planText = (body: string): string => `Here is the plan.\n<proposed_plan>\n${body}\n</proposed_plan>`;
export const read = (n: number, path = 'README.md') => ({
  id: `call_r${n}`,
  name: 'read_file',
  arguments: JSON.stringify({ path }),
});

/**
 * Every tool call of the request has its result right after it (EXEC-2): no orphan, no missing
 * result. Returns the ids in order.
 */
export function assertBatchesComplete(body: OpenAIBody): string[] {
  const ids: string[] = [];
  const msgs = body.messages;
  for (let i = 0; i < msgs.length; i++) {
    const calls = msgs[i]?.tool_calls ?? [];
    const results = msgs.slice(i + 1, i + 1 + calls.length).map((m) => m.tool_call_id);
    const expected = calls.map((c) => c.id);
    if (JSON.stringify(results) !== JSON.stringify(expected))
      throw new Error(
        `batch at message ${i}: results ${JSON.stringify(results)} for calls ${JSON.stringify(expected)}`,
      );
    ids.push(...expected);
  }
  return ids;
}

/** A shell that records every command it is asked to run and runs none. */
export function recordingShell(ran: string[]): Shell {
  return {
    isolation: async () => ({ sandboxed: true, summary: 'sandbox: recording fake' }),
    async run(request) {
      ran.push(request.command);
      const empty = { text: '', totalBytes: 0, omittedBytes: 0 };
      return {
        exitCode: 0,
        signal: null,
        timedOut: false,
        aborted: false,
        durationMs: 1,
        stdout: empty,
        stderr: empty,
      };
    },
  };
}
