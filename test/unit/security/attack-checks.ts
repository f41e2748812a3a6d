/**
 * The judgement half of the attack suite (attacks-*.test.ts): an attack is a SecurityCase run
 * end to end by harness.ts, and these checks say what must hold afterwards, each as its own
 * subtest named after the requirement it guards:
 *
 *   RO-1     plan mode wrote nothing in the workspace;
 *   RO-2     no canary from outside the workspace (outside folder, HOME, parent repository) and no
 *            provider key reached the model or the terminal;
 *   MODE-1   nothing was written outside the workspace in any mode, and the session's mode did
 *            not change (no `mode.changed`, every (re)start in the recorded mode);
 *   STORE-2  `.vtcode/` changed only by the runtime (its session log, its plans), every log line
 *            verifies under the workspace's key and none carries a forgery;
 *   RO-3     (when the case says the policy names the attack) the command was refused before it ran;
 *   EXEC-3   the turn went on: every call got an answer the model saw, the run ended by itself.
 *
 * Cases of one class run concurrently (they spawn the CLI); `session`-driver cases (build mode)
 * swap process.env, so `attackSuite` runs them one at a time.
 */
import { describe, test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  CANARY_TEXTS,
  describeReport,
  runCase,
  TEST_API_KEY,
  type CaseReport,
  type CommandReport,
  type SecurityCase,
  type TreeChanges,
} from './harness';
import { RUNTIME_GITIGNORE } from '../../../src/core/store/runtime-gitignore';

type RequirementId = 'RO-1' | 'RO-2' | 'RO-3' | 'MODE-1' | 'STORE-2' | 'EXEC-3';

interface AttackExpectations {
  /**
   * Workspace changes (outside `.vtcode/`) that must NOT happen, in any mode: exact relative
   * paths, or a pattern. In plan mode nothing may change anyway.
   */
  noWorkspace?: readonly (string | RegExp)[];
  /** Extra secret texts (besides the canaries and the key) that must not be seen. */
  secrets?: readonly string[];
  /** Indices (0-based, phase 0) of calls the policy claims to refuse before they run (RO-3); `all` for every call. */
  refused?: 'all' | readonly number[];
  /** Per `then` phase (by index): calls the runtime must refuse there (e.g. a plan-mode write after resume). */
  refusedInPhase?: Readonly<Record<number, 'all' | readonly number[]>>;
  /** Per `then` phase (by index): commands build mode must ask about (proof it is still build mode). */
  confirmedInPhase?: Readonly<Record<number, readonly string[]>>;
  /** Whether every call must get an answer the model saw (default true). */
  everyCallAnswered?: boolean;
  /** Expected exit code of the CLI run (`cli` driver); default: not checked. */
  exitCode?: number;
  /** The harness's own deadline; default 90 s. */
  timeoutMs?: number;
  /** Extra checks on the report, run as one more subtest. */
  extra?: { name: string; check: (r: CaseReport) => void };
}

export interface Attack {
  /** The class, e.g. `sed`; part of the test name. */
  title: string;
  c: SecurityCase;
  expect?: AttackExpectations;
}

/** Text forged lines carry: it must never reach a session log or `.vtcode/`. */
export const FORGED = 'vtsec-forged';

const NONE: TreeChanges = { created: [], changed: [], deleted: [] };

/** The key and forms a command could print it in to get past exact-match masking. */
function keyForms(key: string = TEST_API_KEY): string[] {
  const forms = new Set<string>([
    key,
    [...key].reverse().join(''),
    key.toUpperCase(),
    Buffer.from(key).toString('hex'),
  ]);
  for (let a = 0; a < 3; a++) {
    const part = Buffer.from(key.slice(a));
    const whole = Math.floor(part.length / 3) * 3;
    forms.add(part.subarray(0, whole).toString('base64'));
  }
  // A distinctive fragment: a partial print (cut, head -c) still shows it.
  forms.add('do-not-leak');
  forms.add('kael-ton-od');
  return [...forms];
}

function allCommands(r: CaseReport): CommandReport[] {
  return [...r.commands, ...r.phases.flatMap((p) => p.commands)];
}

function allStdout(r: CaseReport): string {
  return [r.stdout, ...r.phases.map((p) => p.stdout)].join('\n');
}

function allStderr(r: CaseReport): string {
  return [r.stderr, ...r.phases.map((p) => p.stderr)].join('\n');
}

function allEventsJson(r: CaseReport): string {
  return JSON.stringify([r.events, ...r.phases.map((p) => p.events)]);
}

/** Whitespace removed: base64 and hex dumps wrap lines. */
function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

function hits(haystack: string, needles: readonly string[]): string[] {
  const flat = squash(haystack);
  return needles.filter((n) => haystack.includes(n) || (n.length >= 16 && !/\s/.test(n) && flat.includes(n)));
}

function isRefusal(c: CommandReport): boolean {
  if (c.blocked !== null) return true;
  return (
    c.result !== null &&
    !c.result.ok &&
    /^(Mutation blocked|Path blocked|Build mode runs a command only after|Not run:)/.test(c.result.content)
  );
}

function indices(spec: 'all' | readonly number[], n: number): number[] {
  return spec === 'all' ? [...Array(n).keys()] : [...spec];
}

function matches(path: string, p: string | RegExp): boolean {
  return typeof p === 'string' ? path === p || path === `${p}/` : p.test(path);
}

/** Paths under `.vtcode/` the runtime itself writes in this case: its logs, the plans and checklists it persisted. */
function runtimePaths(r: CaseReport): Set<string> {
  // The runtime's own ignore file (issue 13) is created once by the session, never by a command.
  const allowed = new Set(['.vtcode/', '.vtcode/sessions/', '.vtcode/plans/', '.vtcode/tasks/', RUNTIME_GITIGNORE]);
  const ids = new Set<string>();
  for (const e of [...r.events, ...r.phases.flatMap((p) => p.events)]) {
    ids.add(e.session);
    if (e.type === 'plan.persisted') {
      allowed.add(e.planFile);
      if (e.trackerFile) allowed.add(e.trackerFile);
    }
  }
  if (r.sessionId) ids.add(r.sessionId);
  for (const id of ids) allowed.add(`.vtcode/sessions/${id}.jsonl`);
  return allowed;
}

/** Runs the requirement subtests for one attack's report. */
export async function checkAttack(t: TestContext, a: Attack, r: CaseReport): Promise<void> {
  const e = a.expect ?? {};
  const msg = (): string => describeReport(r);
  const inPlan = a.c.mode === 'plan';

  await t.test('EXEC-3: the run ended by itself and every call got an answer the model saw', () => {
    assert.equal(r.timedOut, false, `the run hit the harness deadline: ${msg()}`);
    for (const p of r.phases) assert.equal(p.timedOut, false, `a resume hit the harness deadline: ${msg()}`);
    assert.ok(r.sessionId !== null, `the session never started: ${msg()}`);
    if (e.exitCode !== undefined) assert.equal(r.exitCode, e.exitCode, msg());
    if (e.everyCallAnswered ?? true) {
      for (const c of allCommands(r))
        assert.ok(c.seen !== null, `no answer reached the model for ${c.command}: ${msg()}`);
    }
  });

  if (inPlan) {
    await t.test('RO-1: plan mode wrote nothing in the workspace', () => {
      assert.deepEqual(r.workspace, NONE, msg());
    });
  }
  if (e.noWorkspace && e.noWorkspace.length > 0) {
    await t.test('RO-1/MODE-1: the attack left none of its files in the workspace', () => {
      const touched = [...r.workspace.created, ...r.workspace.changed, ...r.workspace.deleted];
      const bad = touched.filter((p) => e.noWorkspace?.some((q) => matches(p, q)));
      assert.deepEqual(bad, [], msg());
    });
  }

  await t.test(
    'MODE-1: nothing was written outside the workspace (outside folder, HOME, parent repo, /tmp, watched paths)',
    () => {
      assert.deepEqual(r.outside, NONE, `outside folder: ${msg()}`);
      assert.deepEqual(r.home, NONE, `fake HOME: ${msg()}`);
      assert.deepEqual(r.parent, NONE, `parent repository: ${msg()}`);
      assert.deepEqual(r.watched, NONE, `watched paths: ${msg()}`);
      assert.deepEqual(r.tmp, [], `tagged temp entries: ${msg()}`);
    },
  );

  await t.test('STORE-2: .vtcode/ changed only by the runtime; every log line verifies; no forgery', () => {
    const allowed = runtimePaths(r);
    const foreign = [...r.runtime.created, ...r.runtime.changed].filter((p) => !allowed.has(p));
    assert.deepEqual(foreign, [], `.vtcode/ entries the runtime did not write: ${msg()}`);
    assert.deepEqual(r.runtime.deleted, [], `.vtcode/ entries deleted: ${msg()}`);
    assert.ok(r.logs.length > 0, `no session log: ${msg()}`);
    for (const log of r.logs) {
      assert.equal(log.error, null, `log ${log.id} could not be verified: ${msg()}`);
      assert.deepEqual(log.untrusted, [], `log ${log.id} has lines the runtime did not write: ${msg()}`);
      // Every line is a verified event (a foreign line, even one the runtime wrote past, is not).
      const lines = log.text.split('\n').filter((l) => l.trim() !== '');
      assert.equal(lines.length, log.events.length, `log ${log.id} holds lines that are not verified events: ${msg()}`);
      // The forgery marker may appear only inside what a command or tool call said, never as an event of its own.
      const forgedEvents = log.events.filter(
        (x) => JSON.stringify(x).includes(FORGED) && !['tool.call', 'tool.result', 'tool.blocked'].includes(x.type),
      );
      assert.deepEqual(forgedEvents, [], `a forged event is in log ${log.id}: ${msg()}`);
    }
  });

  await t.test("MODE-1: the session's mode did not change", () => {
    const events = [...r.events, ...r.phases.flatMap((p) => p.events), ...r.logs.flatMap((l) => l.events)];
    const changes = events.filter((x) => x.type === 'mode.changed');
    assert.deepEqual(changes, [], msg());
    for (const x of events)
      if (x.type === 'session.started') assert.equal(x.agent, a.c.mode, `a (re)start in another mode: ${msg()}`);
    for (const p of r.phases) assert.equal(p.agent, a.c.mode, `resumed in another mode: ${msg()}`);
  });

  await t.test(
    'RO-2: the provider key appears nowhere (stdout, stderr, events, session logs, what the model saw), in no encoding',
    () => {
      const forms = keyForms();
      for (const c of allCommands(r))
        assert.deepEqual(hits(c.seen ?? '', forms), [], `the model saw the key through ${c.command}: ${msg()}`);
      assert.deepEqual(hits(allStdout(r), forms), [], `stdout carries the key: ${msg()}`);
      assert.ok(!allStderr(r).includes(TEST_API_KEY), `stderr carries the key: ${msg()}`);
      assert.ok(!allEventsJson(r).includes(TEST_API_KEY), `an event carries the key: ${msg()}`);
      for (const log of r.logs) assert.ok(!log.text.includes(TEST_API_KEY), `log ${log.id} carries the key`);
    },
  );

  await t.test('RO-2: no canary (outside folder, HOME, parent repo) reached the model or the terminal', () => {
    const needles = [...CANARY_TEXTS, ...(e.secrets ?? [])];
    for (const c of allCommands(r))
      assert.deepEqual(hits(c.seen ?? '', needles), [], `the model saw a canary through ${c.command}: ${msg()}`);
    assert.deepEqual(hits(allStdout(r), needles), [], `stdout carries a canary: ${msg()}`);
  });

  if (e.refused !== undefined || e.refusedInPhase !== undefined) {
    await t.test('RO-3: the policy refused the named forms before they ran', () => {
      if (e.refused !== undefined) {
        for (const i of indices(e.refused, r.commands.length)) {
          const c = r.commands[i];
          assert.ok(c !== undefined && isRefusal(c), `not refused: ${c?.command ?? `call #${i}`}: ${msg()}`);
        }
      }
      for (const [k, spec] of Object.entries(e.refusedInPhase ?? {})) {
        const p = r.phases[Number(k)];
        assert.ok(p !== undefined, `no phase ${k}: ${msg()}`);
        for (const i of indices(spec, p.commands.length)) {
          const c = p.commands[i];
          assert.ok(
            c !== undefined && isRefusal(c),
            `not refused after the resume: ${c?.command ?? `call #${i}`}: ${msg()}`,
          );
        }
      }
    });
  }

  if (e.confirmedInPhase !== undefined) {
    await t.test('MODE-1: after the resume build mode still asks before each command', () => {
      for (const [k, commands] of Object.entries(e.confirmedInPhase ?? {})) {
        const p = r.phases[Number(k)];
        assert.ok(p !== undefined, `no phase ${k}: ${msg()}`);
        for (const cmd of commands)
          assert.ok(
            p.confirmations.some((x) => x === cmd),
            `not asked about \`${cmd}\`: ${msg()}`,
          );
      }
    });
  }

  if (e.extra) {
    const extra = e.extra;
    await t.test(extra.name, () => extra.check(r));
  }
}

/** Short form of a case's calls for the test name. */
function callsOf(c: SecurityCase): string {
  const list = typeof c.command === 'string' || !Array.isArray(c.command) ? [c.command] : c.command;
  const text = list.map((x) => (typeof x === 'string' ? x : `${x.tool}(${String(x.args.path ?? '')})`)).join(' ⏎ ');
  return text.length > 140 ? `${text.slice(0, 137)}…` : text;
}

function idsFor(a: Attack): RequirementId[] {
  const ids: RequirementId[] = [];
  if (a.c.mode === 'plan') ids.push('RO-1');
  ids.push('RO-2', 'MODE-1', 'STORE-2');
  if (a.expect?.refused !== undefined || a.expect?.refusedInPhase !== undefined) ids.push('RO-3');
  ids.push('EXEC-3');
  return ids;
}

/**
 * One `describe` per class: every attack is a test named `<class> [<mode>] <ids>: <calls>` whose
 * subtests are the requirement checks. CLI cases run `concurrency` at a time; session-driver
 * cases, which swap process.env, one at a time after them.
 */
export function attackSuite(name: string, attacks: readonly Attack[], options: { concurrency?: number } = {}): void {
  const isSession = (a: Attack) => (a.c.via ?? (a.c.mode === 'build' ? 'session' : 'cli')) === 'session';
  const cli = attacks.filter((a) => !isSession(a));
  const inProcess = attacks.filter(isSession);
  const one = (a: Attack) => {
    const mode = a.c.sandbox === 'none' ? `${a.c.mode}, no sandbox` : a.c.mode;
    test(
      `${a.title} [${mode}] ${idsFor(a).join(' ')}: ${a.c.name}: ${callsOf(a.c)}`,
      { timeout: (a.expect?.timeoutMs ?? 90_000) + 30_000 },
      async (t) => {
        const r = await runCase({ timeoutMs: a.expect?.timeoutMs ?? 90_000, ...a.c });
        // VTSEC_REPORT=1 prints what each call got (refused, or what it did in the sandbox).
        if (process.env.VTSEC_REPORT) t.diagnostic(describeReport(r));
        await checkAttack(t, a, r);
      },
    );
  };
  if (cli.length > 0) describe(name, { concurrency: options.concurrency ?? 4 }, () => cli.forEach(one));
  if (inProcess.length > 0)
    describe(`${name} (in-process, one at a time)`, { concurrency: 1 }, () => inProcess.forEach(one));
}
