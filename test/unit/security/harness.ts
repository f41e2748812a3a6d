/**
 * End-to-end harness for the security suite: one case = one real session in a temp workspace
 * with the real Node ports (fs, shell, search, writer), where the scripted model (the fixture
 * model server, spoken to by the real OpenAI SDK over HTTP) calls `run_command` with the case's
 * command(s). The harness then reports what actually happened, without judging:
 *
 *   - files created / changed / deleted in the workspace (and, apart, under its `.vtcode/`),
 *   - the same for a sibling "outside" folder and a fake HOME, both seeded with canary files,
 *     and for any extra paths the case watches,
 *   - entries in /tmp, /var/tmp, /dev/shm and os.tmpdir() whose names carry the case's tag,
 *   - the session events, the CLI's stdout/stderr and exit code,
 *   - per command: whether it was blocked, its result, and the text of the NEXT model request's
 *     tool message for it (what the model saw).
 *
 * Drivers. `cli` runs `vtplan run --jsonl` as a child process (the CLI from source through tsx by
 * default, or the built dist/cli.js), so the command's environment is the CLI's. `session` runs
 * the same Session in-process, built by the CLI's own sessionDeps, because only an in-process
 * caller can answer build mode's confirmation. Default: `session` for build, `cli` otherwise.
 *
 * Beyond `run_command`, a case can script any tool call (`{ tool, args }`), place the workspace in
 * (or make it) a git repository, plant symlinks and executables, fix the session id (`session`
 * driver) and continue the session with `then` phases (`vtplan resume` / `Session.resume`), where
 * `{session}` names the session. The report carries every session log of the workspace, verified
 * with the workspace's log key (which lines the runtime would ignore), and what each phase saw.
 *
 * Nothing here touches the real HOME or ~/.local/state: both drivers point HOME and
 * XDG_STATE_HOME into the case's temp folder (the in-process driver swaps process.env for the
 * duration of the run, so cases in one file must not run concurrently; node:test runs a file's
 * tests one after another unless told otherwise).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { captureIO, ensureBuiltCli, scriptedProviderFlags } from '../../fixtures/cli';
import { sessionDeps, sweepWorkspace } from '../../../src/cli/session-setup';
import { eventPrinter } from '../../../src/cli/transcript';
import { SessionEventSchema, type SessionEvent } from '../../../src/core/session/events';
import { parseSessionLog, untrustedLines } from '../../../src/core/session/log';
import { Session } from '../../../src/core/session/session';
import type { AgentMode } from '../../../src/core/vocabulary';
import { loadLogKey, logKeyDir, parseLogKeyHex, workspaceKeyId } from '../../../src/node/log-key';
import {
  startModelServer,
  type ModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../../fixtures/model-server';

const REPO = join(__dirname, '..', '..', '..');
const SAMPLE_WORKSPACE = join(REPO, 'examples', 'sample-workspace');
const TSX_LOADER = join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const CLI_SOURCE = join(REPO, 'src', 'cli', 'main.ts');
const KEY_VAR = 'VTSEC_TEST_KEY';
/** The provider key both drivers run with (in the CLI's environment): a leak shows as this text. */
export const TEST_API_KEY = 'sk-vtsec-do-not-leak-4f1c2a';

export type SecurityMode = 'plan' | 'build' | 'auto';
type Driver = 'cli' | 'session';

/** Paths a case's command can name; `{root}` etc. in a command are replaced by them. */
interface CaseContext {
  /** Unique per run, `vtsec-<name>-<random>`: name /tmp probes after it so the harness finds them. */
  tag: string;
  /** The temp folder holding everything below. */
  base: string;
  /** The workspace (a copy of examples/sample-workspace plus the case's files). */
  root: string;
  /** A sibling of the workspace with canary files. */
  outside: string;
  /** The fake HOME both drivers run with, with canary dotfiles. */
  home: string;
  /** os.tmpdir(). */
  tmp: string;
  /** The git repository holding the workspace (`repo.at: 'parent'`), else `null`. */
  parent: string | null;
}

/** A scripted call of any tool; string values in `args` take the same placeholders as commands. */
export interface ToolCallSpec {
  tool: string;
  args: Readonly<Record<string, unknown>>;
}

type ScriptedCall = string | ToolCallSpec;

/** A later turn of the same session: `vtplan resume <id>` (cli) or `Session.resume` (session driver). */
interface FollowUp {
  /** The user's message; placeholders allowed, `{session}` too. */
  message: string;
  /** Calls the model makes in this turn (strings are `run_command`); `{session}` allowed. */
  command?: ScriptedCall | readonly ScriptedCall[];
  /** Default: "Done." (a plan in plan mode would need a planning turn; give one when wanted). */
  finalTurns?: readonly ScriptedTurn[];
  /** Build mode's answer in this phase (`session` driver); default: the case's. */
  confirm?: boolean | ((command: string) => boolean);
  /** Extra `vtplan resume` flags; default: the case's `cliArgs` without `--mode`. */
  cliArgs?: readonly string[];
}

export interface RepoSpec {
  /** `workspace`: the workspace is a repository of its own; `parent`: it is a subfolder (`ws/`) of one. */
  at: 'workspace' | 'parent';
  /** Files committed in the parent repository next to `ws/` (`at: 'parent'`). */
  parentFiles?: Readonly<Record<string, string>>;
  /** `git config` entries set in the repository after the commit; placeholders allowed in values. */
  config?: Readonly<Record<string, string>>;
}

export interface SecurityCase {
  /** Lower-case words and dashes; part of the tag. */
  name: string;
  mode: SecurityMode;
  /**
   * One call per model turn, in order: a string is a `run_command`, an object any tool.
   * Placeholders: {root} {outside} {home} {tag} {tmp} {base} {parent} ({session} with a fixed `sessionId`).
   */
  command: ScriptedCall | readonly ScriptedCall[];
  via?: Driver;
  /** `cli` driver: the sources through tsx (default, always current) or the built dist/cli.js. */
  cli?: 'source' | 'dist';
  /**
   * `none` (cli driver only): the CLI runs with a PATH on which no `bwrap` is found, as on a
   * machine without the OS sandbox (macOS, Windows, containers without user namespaces), so the
   * command policy alone stands. Default `bwrap`: whatever the machine has.
   */
  sandbox?: 'bwrap' | 'none';
  /** Build mode's answer (`session` driver); default: run it. */
  confirm?: boolean | ((command: string) => boolean);
  /** Extra workspace files, relative path → content (placeholders expanded). */
  files?: Readonly<Record<string, string>>;
  /** Workspace files (relative) made executable (0755). */
  executables?: readonly string[];
  /** Symlinks planted in the workspace: relative path → target (placeholders expanded). */
  symlinks?: Readonly<Record<string, string>>;
  /** Extra files in the outside folder, relative path → content. */
  outsideFiles?: Readonly<Record<string, string>>;
  /** Extra files in the fake HOME, relative path → content. */
  homeFiles?: Readonly<Record<string, string>>;
  /** Make the workspace a git repository, or a subfolder of one (committed before the run). */
  repo?: RepoSpec;
  /** `session` driver: the session's id, so scripted calls can name its log (`{session}`). */
  sessionId?: string;
  /** Later turns of the same session, each a resume (a fresh model server per phase). */
  then?: readonly FollowUp[];
  /** Extra absolute paths (files or folders) to snapshot before and after; placeholders allowed. */
  watch?: readonly string[];
  /** The user's goal; default names the case. */
  goal?: string;
  /** What the model says after its commands; default: a valid plan in plan mode, "Done." otherwise. */
  finalTurns?: readonly ScriptedTurn[];
  /** Extra `vtplan run` flags for the `cli` driver, e.g. `['--network', 'off']`. */
  cliArgs?: readonly string[];
  /** Extra environment for the CLI child, placeholders expanded (the `session` driver ignores it). */
  env?: Readonly<Record<string, string>>;
  /** Deadline for the whole run; the session is stopped / the child killed when it passes. Default 60 s. */
  timeoutMs?: number;
  /** Keep the temp folder (its path is in the report) instead of removing it. */
  keep?: boolean;
  /**
   * Harness self-tests only: runs after the session ends and before the second snapshot, to
   * prove that a change made then is seen.
   */
  sideEffect?: (ctx: CaseContext) => void | Promise<void>;
}

export interface TreeChanges {
  created: string[];
  changed: string[];
  deleted: string[];
}

export interface CommandReport {
  /** The tool called (`run_command` for a string call). */
  tool: string;
  /** The command as sent (placeholders replaced); for another tool `<tool> <arguments JSON>`. */
  command: string;
  callId: string;
  /** `tool.blocked` reason when the runtime blocked the call before the tool ran. */
  blocked: string | null;
  /** The `tool.result` event, when the tool ran (a refusal inside the tool is `ok: false`). */
  result: { ok: boolean; content: string } | null;
  /** The tool message for this call in the next model request: what the model saw. `null`: no next request. */
  seen: string | null;
}

interface SessionLogReport {
  /** The session id (file name without `.jsonl`). */
  id: string;
  text: string;
  /** The events of the lines that verified under the workspace's log key. */
  events: SessionEvent[];
  /** 1-based line numbers a resume would not trust (changed, added or moved outside the runtime). */
  untrusted: number[];
  /** Set when the log could not be verified at all (no key, unreadable). */
  error: string | null;
}

/** One `then` phase: a resumed session and the turn its message started. */
interface PhaseReport {
  message: string;
  commands: CommandReport[];
  events: SessionEvent[];
  confirmations: string[];
  /** The `agent` of the resumed session (its `session.started` with `resumed: true`), `null` when none. */
  agent: AgentMode | null;
  turnStatus: string | null;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

export interface CaseReport {
  name: string;
  mode: SecurityMode;
  driver: Driver;
  context: CaseContext;
  commands: CommandReport[];
  /** Relative to the workspace, `.vtcode/` excluded; folders end in `/`. */
  workspace: TreeChanges;
  /** Relative to the workspace, only `.vtcode/` (session log, plans, tasks). */
  runtime: TreeChanges;
  /** Relative to the outside folder. */
  outside: TreeChanges;
  /** Relative to the fake HOME. */
  home: TreeChanges;
  /** Relative to the parent repository (`repo.at: 'parent'`), the workspace excluded. */
  parent: TreeChanges;
  /** Absolute paths, for the case's `watch` list. */
  watched: TreeChanges;
  /** Entries carrying the tag in the temp folders (absolute), removed after recording. */
  tmp: string[];
  events: SessionEvent[];
  /** Commands build mode asked to confirm (`session` driver). */
  confirmations: string[];
  /** Status of the last `turn.completed`, `null` when none. */
  turnStatus: string | null;
  /** `cli`: the JSONL stream as printed; `session`: the readable transcript the CLI would print. */
  stdout: string;
  stderr: string;
  /** `cli`: the exit code (`null` when killed); `session`: `null`. */
  exitCode: number | null;
  timedOut: boolean;
  /** Model requests made, and how many found no scripted turn left (they got an HTTP 400). */
  requests: number;
  unscripted: number;
  /** The session's id (first `session.started`), `null` when it never started. */
  sessionId: string | null;
  /** Every `.vtcode/sessions/*.jsonl` at the end, verified with the workspace's log key. */
  logs: SessionLogReport[];
  /** The `then` phases, in order. */
  phases: PhaseReport[];
}

export const PLAN_FOR_CASES = `# Record what the command did

## Summary
Keep the workspace as it is; this plan only closes the planning turn of a security case.

## Implementation Steps
1. Re-read README.md in the workspace -> files: [README.md] -> verify: [rg -n 'greet' README.md]

## Test Cases and Validation
- \`rg -n 'greet' README.md\` prints at least one line.

## Assumptions and Defaults
- Nothing else changes.`;

const CANARIES = {
  outside: {
    'canary.txt': 'outside canary\n',
    'secret.env': 'API_TOKEN=outside-secret\n',
    'bin/tool.sh': '#!/bin/sh\necho outside tool\n',
  },
  home: {
    '.bashrc': '# fake bashrc\n',
    '.profile': '# fake profile\n',
    '.ssh/authorized_keys': '',
    '.gitconfig': '[user]\n\tname = canary\n',
    '.ssh/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nvtsec-home-idrsa-canary\n-----END OPENSSH PRIVATE KEY-----\n',
    '.npmrc': '//registry.npmjs.org/:_authToken=vtsec-home-npmrc-canary\n',
    '.git-credentials': 'https://user:vtsec-home-gitcred-canary@example.com\n',
  },
} as const;

/**
 * Text that exists only inside the canary files (outside folder, fake HOME): seeing any of it in
 * what the model saw or the CLI printed means a command read a file it must not see.
 */
export const CANARY_TEXTS: readonly string[] = [
  'outside canary',
  'outside-secret',
  'echo outside tool',
  'fake bashrc',
  'fake profile',
  'name = canary',
  'vtsec-home-idrsa-canary',
  'vtsec-home-npmrc-canary',
  'vtsec-home-gitcred-canary',
];

interface Entry {
  kind: 'file' | 'dir' | 'symlink' | 'other';
  mode: number;
  /** sha256 of a file's bytes, a symlink's target, '' otherwise. */
  content: string;
}

function entryOf(path: string): Entry | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  const mode = st.mode & 0o7777;
  if (st.isSymbolicLink()) return { kind: 'symlink', mode, content: fs.readlinkSync(path) };
  if (st.isDirectory()) return { kind: 'dir', mode, content: '' };
  if (!st.isFile()) return { kind: 'other', mode, content: '' };
  return { kind: 'file', mode, content: createHash('sha256').update(fs.readFileSync(path)).digest('hex') };
}

/** Every entry below `dir` (symlinks recorded, never followed), keyed by path relative to `dir`. */
export function snapshotTree(dir: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (abs: string): void => {
    for (const name of fs.readdirSync(abs)) {
      const p = join(abs, name);
      const e = entryOf(p);
      if (e === null) continue;
      const rel = relative(dir, p).split(sep).join('/');
      out.set(e.kind === 'dir' ? `${rel}/` : rel, e);
      if (e.kind === 'dir') walk(p);
    }
  };
  if (entryOf(dir)?.kind === 'dir') walk(dir);
  return out;
}

/** Snapshot of single paths (a watched file or folder, by absolute path). */
function snapshotPaths(paths: readonly string[]): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const p of paths) {
    const e = entryOf(p);
    if (e === null) continue;
    out.set(e.kind === 'dir' ? `${p}/` : p, e);
    if (e.kind === 'dir') for (const [rel, inner] of snapshotTree(p)) out.set(`${p}/${rel}`, inner);
  }
  return out;
}

export function diffTrees(
  before: Map<string, Entry>,
  after: Map<string, Entry>,
  keep: (path: string) => boolean = () => true,
): TreeChanges {
  const changes: TreeChanges = { created: [], changed: [], deleted: [] };
  for (const [p, e] of after) {
    if (!keep(p)) continue;
    const old = before.get(p);
    if (!old) changes.created.push(p);
    else if (old.kind !== e.kind || old.mode !== e.mode || old.content !== e.content) changes.changed.push(p);
  }
  for (const p of before.keys()) if (keep(p) && !after.has(p)) changes.deleted.push(p);
  for (const list of Object.values(changes)) list.sort();
  return changes;
}

const TMP_DIRS = [...new Set([os.tmpdir(), '/tmp', '/var/tmp', '/dev/shm'])];

function tagged(tag: string): string[] {
  const hits: string[] = [];
  for (const dir of TMP_DIRS) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) if (n.includes(tag)) hits.push(join(dir, n));
  }
  return hits.sort();
}

function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    fs.mkdirSync(join(p, '..'), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

/** Replaces {root} {outside} {home} {tag} {tmp} {base} {parent} and, once known, {session}. */
function expand(text: string, ctx: CaseContext, session: string | null = null): string {
  const values: Record<string, string | null> = {
    root: ctx.root,
    outside: ctx.outside,
    home: ctx.home,
    tag: ctx.tag,
    tmp: ctx.tmp,
    base: ctx.base,
    parent: ctx.parent,
    session,
  };
  return text.replace(
    /\{(root|outside|home|tag|tmp|base|parent|session)\}/g,
    (whole, key: string) => values[key] ?? whole,
  );
}

function expandValue(value: unknown, ctx: CaseContext, session: string | null): unknown {
  if (typeof value === 'string') return expand(value, ctx, session);
  if (Array.isArray(value)) return value.map((v) => expandValue(v, ctx, session));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandValue(v, ctx, session)]));
  return value;
}

interface PreparedCall {
  tool: string;
  /** The arguments JSON the model sends. */
  json: string;
  /** How the report names it. */
  label: string;
}

function prepareCalls(
  calls: ScriptedCall | readonly ScriptedCall[] | undefined,
  ctx: CaseContext,
  session: string | null,
): PreparedCall[] {
  const list: readonly ScriptedCall[] =
    calls === undefined
      ? []
      : typeof calls === 'string' || !Array.isArray(calls)
        ? [calls as ScriptedCall]
        : (calls as readonly ScriptedCall[]);
  return list.map((call) => {
    if (typeof call === 'string') {
      const command = expand(call, ctx, session);
      return { tool: 'run_command', json: JSON.stringify({ command }), label: command };
    }
    const json = JSON.stringify(expandValue(call.args, ctx, session));
    return { tool: call.tool, json, label: `${call.tool} ${json}` };
  });
}

interface OpenAIMessage {
  role: string;
  content: unknown;
  tool_call_id?: string;
}

function toolMessageText(body: unknown, callId: string): string | null {
  const messages = (body as { messages?: OpenAIMessage[] } | undefined)?.messages ?? [];
  const msg = messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  if (!msg) return null;
  if (typeof msg.content === 'string') return msg.content;
  if (Array.isArray(msg.content)) return msg.content.map((p: { text?: string }) => p.text ?? '').join('');
  return JSON.stringify(msg.content);
}

/** The tool message for `callId` in the first request that carries it: what the model saw. */
function seenIn(requests: readonly { body: unknown }[], callId: string): string | null {
  for (const r of requests) {
    const text = toolMessageText(r.body, callId);
    if (text !== null) return text;
  }
  return null;
}

interface DriverOutcome {
  events: SessionEvent[];
  confirmations: string[];
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

function childEnv(ctx: CaseContext, extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const expanded = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, expand(v, ctx)]));
  return {
    ...process.env,
    HOME: ctx.home,
    XDG_STATE_HOME: join(ctx.base, 'state'),
    [KEY_VAR]: TEST_API_KEY,
    ...expanded,
  };
}

/**
 * PATH with every folder that holds `bwrap` replaced by a shadow folder of symlinks to all its
 * other entries (made under the case folder), so the CLI finds no sandbox but every tool.
 */
function pathWithoutBwrap(ctx: CaseContext, path: string): string {
  return path
    .split(':')
    .map((dir, i) => {
      if (!dir.startsWith('/') || !fs.existsSync(join(dir, 'bwrap'))) return dir;
      const shadow = join(ctx.base, `no-bwrap-${i}`);
      fs.mkdirSync(shadow);
      for (const name of fs.readdirSync(dir)) if (name !== 'bwrap') fs.symlinkSync(join(dir, name), join(shadow, name));
      return shadow;
    })
    .join(':');
}

function parseEvents(stdout: string): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue; // Not an event line; it stays visible in `stdout`.
    }
    const parsed = SessionEventSchema.safeParse(json);
    if (parsed.success) events.push(parsed.data);
  }
  return events;
}

const noBwrapPath = new WeakMap<CaseContext, string>();

/** One `vtplan` invocation (`run …` or `resume …`); `args` follow the entry point. */
async function runCli(
  c: SecurityCase,
  ctx: CaseContext,
  args: readonly string[],
  timeoutMs: number,
): Promise<DriverOutcome> {
  const entry = c.cli === 'dist' ? [ensureBuiltCli()] : ['--import', pathToFileURL(TSX_LOADER).href, CLI_SOURCE];
  return new Promise((resolve, reject) => {
    const env = childEnv(ctx, c.env ?? {});
    if (c.sandbox === 'none') env.PATH = noBwrapPath.get(ctx) ?? pathWithoutBwrap(ctx, env.PATH ?? '');
    if (c.sandbox === 'none') noBwrapPath.set(ctx, env.PATH ?? '');
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: ctx.root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ events: parseEvents(stdout), confirmations: [], stdout, stderr, exitCode: code, timedOut });
    });
  });
}

type InProcessStart = { kind: 'start'; agent: SecurityMode; id?: string } | { kind: 'resume'; id: string };

/** One phase in-process: start (or resume) the session with the CLI's own deps, submit `message`. */
async function runInProcess(
  ctx: CaseContext,
  server: ModelServer,
  how: InProcessStart,
  message: string,
  answer: boolean | ((command: string) => boolean),
  timeoutMs: number,
): Promise<DriverOutcome> {
  const env = childEnv(ctx, {});
  const io = captureIO({ cwd: ctx.root, env });
  const confirmations: string[] = [];
  const confirm = async (command: string): Promise<boolean> => {
    confirmations.push(command);
    return typeof answer === 'function' ? answer(command) : answer;
  };
  // Commands inherit process.env: HOME and XDG_STATE_HOME point into the case for the run.
  const saved = { HOME: process.env.HOME, XDG_STATE_HOME: process.env.XDG_STATE_HOME };
  process.env.HOME = env.HOME;
  process.env.XDG_STATE_HOME = env.XDG_STATE_HOME;
  const events: SessionEvent[] = [];
  let timedOut = false;
  try {
    const { deps } = sessionDeps(
      {
        workspace: ctx.root,
        provider: 'openai',
        model: 'scripted',
        'base-url': server.openaiBaseUrl,
        'api-key-env': KEY_VAR,
      },
      io,
      ctx.root,
      { confirm },
    );
    await sweepWorkspace(ctx.root, io);
    let session: Session;
    if (how.kind === 'start') {
      session = await Session.start(
        deps,
        how.id === undefined ? { agent: how.agent } : { agent: how.agent, id: how.id },
      );
    } else {
      try {
        session = await Session.resume(deps, how.id);
      } catch (err) {
        io.err += `resume failed: ${err instanceof Error ? err.message : String(err)}\n`;
        return { events, confirmations, stdout: io.out, stderr: io.err, exitCode: null, timedOut };
      }
    }
    const print = eventPrinter(io, false);
    for (const e of session.events.slice(session.replayedCount)) {
      events.push(e);
      print(e);
    }
    session.on((e) => {
      events.push(e);
      print(e);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        session.stop();
        resolve();
      }, timeoutMs);
    });
    try {
      await Promise.race([session.submit(message), deadline]);
      await session.idle();
    } finally {
      clearTimeout(timer);
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { events, confirmations, stdout: io.out, stderr: io.err, exitCode: null, timedOut };
}

function git(cwd: string, ctx: CaseContext, args: readonly string[]): void {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: ctx.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'vtsec',
      GIT_AUTHOR_EMAIL: 'vtsec@example.com',
      GIT_COMMITTER_NAME: 'vtsec',
      GIT_COMMITTER_EMAIL: 'vtsec@example.com',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd} failed: ${r.stderr}`);
}

/** Every session log under `.vtcode/sessions`, verified with the workspace's log key (read, never created). */
function readLogs(ctx: CaseContext): SessionLogReport[] {
  const dir = join(ctx.root, '.vtcode', 'sessions');
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort();
  } catch {
    return [];
  }
  let key: Uint8Array | null = null;
  let keyError: string | null = null;
  try {
    const file = join(logKeyDir({ XDG_STATE_HOME: join(ctx.base, 'state'), HOME: ctx.home }), workspaceKeyId(ctx.root));
    key = parseLogKeyHex(fs.readFileSync(file, 'utf8').trim());
    if (key === null) keyError = `the log key in ${file} is not 64 hex digits`;
  } catch (err) {
    keyError = `no log key: ${err instanceof Error ? err.message : String(err)}`;
  }
  return names.map((name): SessionLogReport => {
    const id = name.slice(0, -'.jsonl'.length);
    const text = fs.readFileSync(join(dir, name), 'utf8');
    if (key === null) return { id, text, events: [], untrusted: [], error: keyError };
    try {
      const contents = parseSessionLog(text, { key, sessionId: id });
      return { id, text, events: contents.events, untrusted: untrustedLines(contents), error: null };
    } catch (err) {
      return { id, text, events: [], untrusted: [], error: err instanceof Error ? err.message : String(err) };
    }
  });
}

function lastStatus(events: readonly SessionEvent[]): string | null {
  const completed = events.filter((e) => e.type === 'turn.completed');
  const last = completed[completed.length - 1];
  return last?.type === 'turn.completed' ? last.status : null;
}

function reportCalls(
  calls: readonly PreparedCall[],
  callIds: readonly string[],
  events: readonly SessionEvent[],
  requests: readonly { body: unknown }[],
): CommandReport[] {
  return calls.map((call, i) => {
    const callId = callIds[i] as string;
    const blocked = events.find((e) => e.type === 'tool.blocked' && e.callId === callId);
    const result = events.find((e) => e.type === 'tool.result' && e.callId === callId);
    return {
      tool: call.tool,
      command: call.label,
      callId,
      blocked: blocked?.type === 'tool.blocked' ? blocked.reason : null,
      result: result?.type === 'tool.result' ? { ok: result.ok, content: result.content } : null,
      seen: seenIn(requests, callId),
    };
  });
}

function scriptOf(
  calls: readonly PreparedCall[],
  callIds: readonly string[],
  finals: readonly ScriptedTurn[],
): ScriptedTurn[] {
  return [
    ...calls.map((call, i): ScriptedTurn => ({
      toolCalls: [{ id: callIds[i] as string, name: call.tool, arguments: call.json }],
    })),
    ...finals,
  ];
}

/** Runs one case end to end and reports what happened. Never judges; the caller asserts. */
export async function runCase(c: SecurityCase): Promise<CaseReport> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(c.name))
    throw new Error(`case name '${c.name}': use lower-case words and dashes`);
  const driver: Driver = c.via ?? (c.mode === 'build' ? 'session' : 'cli');
  if (c.sessionId !== undefined && driver !== 'session')
    throw new Error(`case ${c.name}: a fixed sessionId needs the session driver`);
  if (c.sandbox === 'none' && driver !== 'cli') throw new Error(`case ${c.name}: sandbox 'none' needs the cli driver`);
  const base = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'vtsec-run-')));
  const parent = c.repo?.at === 'parent' ? join(base, 'parent') : null;
  const ctx: CaseContext = {
    tag: `vtsec-${c.name}-${randomBytes(4).toString('hex')}`,
    base,
    root: parent !== null ? join(parent, 'ws') : join(base, 'ws'),
    outside: join(base, 'outside'),
    home: join(base, 'home'),
    tmp: os.tmpdir(),
    parent,
  };
  const servers: ModelServer[] = [];
  try {
    fs.cpSync(SAMPLE_WORKSPACE, ctx.root, { recursive: true });
    writeFiles(ctx.root, Object.fromEntries(Object.entries(c.files ?? {}).map(([k, v]) => [k, expand(v, ctx)])));
    for (const rel of c.executables ?? []) fs.chmodSync(join(ctx.root, rel), 0o755);
    for (const [rel, target] of Object.entries(c.symlinks ?? {})) {
      fs.mkdirSync(join(ctx.root, rel, '..'), { recursive: true });
      fs.symlinkSync(expand(target, ctx), join(ctx.root, rel));
    }
    writeFiles(ctx.outside, { ...CANARIES.outside, ...(c.outsideFiles ?? {}) });
    writeFiles(ctx.home, { ...CANARIES.home, ...(c.homeFiles ?? {}) });
    fs.mkdirSync(join(base, 'state'), { mode: 0o700 });
    // The workspace's session-log key, made now rather than by the run, so the state folder can
    // be watched: the run itself must change nothing in it.
    loadLogKey(ctx.root, { XDG_STATE_HOME: join(base, 'state'), HOME: ctx.home });
    if (c.repo) {
      const top = parent ?? ctx.root;
      if (parent !== null) writeFiles(parent, c.repo.parentFiles ?? {});
      git(top, ctx, ['init', '-q', '-b', 'main']);
      git(top, ctx, ['add', '-A']);
      git(top, ctx, ['commit', '-q', '-m', 'vtsec: initial']);
      for (const [key, value] of Object.entries(c.repo.config ?? {}))
        git(top, ctx, ['config', key, expand(value, ctx)]);
    }
    const watch = (c.watch ?? []).map((w) => expand(w, ctx));
    const isWs = (p: string) => p === 'ws/' || p.startsWith('ws/');
    const snap = () => ({
      ws: snapshotTree(ctx.root),
      outside: snapshotTree(ctx.outside),
      home: snapshotTree(ctx.home),
      watched: snapshotPaths(watch),
      parent: parent !== null ? snapshotTree(parent) : new Map<string, Entry>(),
    });
    const before = snap();
    const tmpBefore = new Set(tagged(ctx.tag));
    const timeoutMs = c.timeoutMs ?? 60_000;
    const requests: RecordedRequest[] = [];
    let consumed = 0;

    // Phase 0: the run.
    const server = await startModelServer();
    servers.push(server);
    const calls = prepareCalls(c.command, ctx, c.sessionId ?? null);
    const callIds = calls.map((_, i) => `call_sec_${i + 1}`);
    const script = scriptOf(
      calls,
      callIds,
      c.finalTurns ?? [
        c.mode === 'plan' ? { text: `<proposed_plan>\n${PLAN_FOR_CASES}\n</proposed_plan>` } : { text: 'Done.' },
      ],
    );
    server.enqueue(...script);
    const goal = c.goal ?? `Security case ${c.name}: run the command.`;
    const out =
      driver === 'cli'
        ? await runCli(
            c,
            ctx,
            [
              'run',
              ...scriptedProviderFlags(ctx.root, server, KEY_VAR),
              '--mode',
              c.mode,
              '--jsonl',
              ...(c.cliArgs ?? []),
              goal,
            ],
            timeoutMs,
          )
        : await runInProcess(
            ctx,
            server,
            c.sessionId === undefined
              ? { kind: 'start', agent: c.mode }
              : { kind: 'start', agent: c.mode, id: c.sessionId },
            goal,
            c.confirm ?? true,
            timeoutMs,
          );
    requests.push(...server.requests);
    consumed += script.length - server.pending();
    const started = out.events.find((e) => e.type === 'session.started');
    const sessionId = started?.session ?? c.sessionId ?? null;
    const reports = reportCalls(calls, callIds, out.events, server.requests);

    // Later phases: the same session, resumed.
    const phases: PhaseReport[] = [];
    for (const [k, phase] of (c.then ?? []).entries()) {
      const message = expand(phase.message, ctx, sessionId);
      if (sessionId === null) {
        phases.push({
          message,
          commands: [],
          events: [],
          confirmations: [],
          agent: null,
          turnStatus: null,
          stdout: '',
          stderr: 'no session to resume',
          exitCode: null,
          timedOut: false,
        });
        continue;
      }
      const next = await startModelServer();
      servers.push(next);
      const pcalls = prepareCalls(phase.command, ctx, sessionId);
      const pids = pcalls.map((_, i) => `call_sec_p${k + 1}_${i + 1}`);
      const pscript = scriptOf(pcalls, pids, phase.finalTurns ?? [{ text: 'Done.' }]);
      next.enqueue(...pscript);
      const flags =
        phase.cliArgs ??
        (c.cliArgs ?? []).filter((a, i, all) => a !== '--mode' && all[i - 1] !== '--mode' && !a.startsWith('--mode='));
      const pout =
        driver === 'cli'
          ? await runCli(
              c,
              ctx,
              ['resume', sessionId, ...scriptedProviderFlags(ctx.root, next, KEY_VAR), '--jsonl', ...flags, message],
              timeoutMs,
            )
          : await runInProcess(
              ctx,
              next,
              { kind: 'resume', id: sessionId },
              message,
              phase.confirm ?? c.confirm ?? true,
              timeoutMs,
            );
      requests.push(...next.requests);
      consumed += pscript.length - next.pending();
      const resumed = pout.events.find((e) => e.type === 'session.started' && e.resumed);
      phases.push({
        message,
        commands: reportCalls(pcalls, pids, pout.events, next.requests),
        events: pout.events,
        confirmations: pout.confirmations,
        agent: resumed?.type === 'session.started' ? resumed.agent : null,
        turnStatus: lastStatus(pout.events),
        stdout: pout.stdout,
        stderr: pout.stderr,
        exitCode: pout.exitCode,
        timedOut: pout.timedOut,
      });
    }

    if (c.sideEffect) await c.sideEffect(ctx);
    const after = snap();
    const tmp = tagged(ctx.tag).filter((p) => !tmpBefore.has(p));
    const isRuntime = (p: string) => p === '.vtcode/' || p.startsWith('.vtcode/');
    const report: CaseReport = {
      name: c.name,
      mode: c.mode,
      driver,
      context: ctx,
      commands: reports,
      workspace: diffTrees(before.ws, after.ws, (p) => !isRuntime(p)),
      runtime: diffTrees(before.ws, after.ws, isRuntime),
      outside: diffTrees(before.outside, after.outside),
      home: diffTrees(before.home, after.home),
      parent: diffTrees(before.parent, after.parent, (p) => !isWs(p)),
      watched: diffTrees(before.watched, after.watched),
      tmp,
      events: out.events,
      confirmations: out.confirmations,
      turnStatus: lastStatus(out.events),
      stdout: out.stdout,
      stderr: out.stderr,
      exitCode: out.exitCode,
      timedOut: out.timedOut,
      requests: requests.length,
      unscripted: requests.length - consumed,
      sessionId,
      logs: readLogs(ctx),
      phases,
    };
    for (const p of tmp) fs.rmSync(p, { recursive: true, force: true });
    return report;
  } finally {
    for (const s of servers) await s.close();
    if (!c.keep) fs.rmSync(base, { recursive: true, force: true });
  }
}

/** A few lines for an assertion message: what changed where, and what each command got. */
export function describeReport(r: CaseReport): string {
  const list = (t: TreeChanges) => `+[${t.created.join(', ')}] ~[${t.changed.join(', ')}] -[${t.deleted.join(', ')}]`;
  const calls = (cs: readonly CommandReport[]) =>
    cs.map(
      (c) =>
        `$ ${c.command}\n  blocked: ${c.blocked ?? '-'}\n  result: ${c.result ? `${c.result.ok ? 'ok' : 'failed'}: ${c.result.content.slice(0, 300)}` : '-'}\n  seen: ${c.seen?.slice(0, 300) ?? '-'}`,
    );
  return [
    `case ${r.name} (${r.mode}, ${r.driver}) session=${r.sessionId} turn=${r.turnStatus} exit=${r.exitCode} timedOut=${r.timedOut} requests=${r.requests} unscripted=${r.unscripted}`,
    `workspace ${list(r.workspace)}  runtime ${list(r.runtime)}`,
    `outside ${list(r.outside)}  home ${list(r.home)}  parent ${list(r.parent)}  watched ${list(r.watched)}  tmp [${r.tmp.join(', ')}]`,
    ...calls(r.commands),
    r.stderr ? `stderr: ${r.stderr.slice(0, 500)}` : '',
    ...r.phases.flatMap((p, i) => [
      `-- phase ${i + 1}: "${p.message}" agent=${p.agent} turn=${p.turnStatus} exit=${p.exitCode} timedOut=${p.timedOut} confirmations=[${p.confirmations.join(' | ')}]`,
      ...calls(p.commands),
      p.stderr ? `stderr: ${p.stderr.slice(0, 500)}` : '',
    ]),
    ...r.logs.map(
      (l) =>
        `log ${l.id}: ${l.events.length} verified events, untrusted lines [${l.untrusted.join(', ')}]${l.error ? `, error: ${l.error}` : ''}`,
    ),
  ].join('\n');
}
