/**
 * Long sessions (issue 16 item 3): a 10,000-line session log made by a real Session (a scripted
 * model, tools that return 1.5 KB each), then
 *   - resume: Session.resume (read, verify every line's tag, validate, replay to state, reopen the
 *     log) and the chat restore the extension does on reload (TranscriptBuilder over every event
 *     and the `state` message it posts), beside reading the file and JSON.parse of every line
 *     (the least any reader of the log does) in the same run;
 *   - append: one non-durable event appended to that log, beside a write of the same line to an
 *     open file, interleaved; and the same append on a fresh log, to show the cost does not grow.
 * BENCH_SCALE shrinks the log. Run: npx tsx bench/session.bench.ts
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/core/ports';
import { EventSequencer, type SessionEvent } from '../src/core/session/events';
import { SessionLog } from '../src/core/session/log';
import { Session, type SessionDeps } from '../src/core/session/session';
import { TranscriptBuilder } from '../src/extension/transcript';
import { nodeFileSystem } from '../src/node/fs';
import { PROMPTS, ScriptedModel, trivialTools, UNLIMITED } from './lib/scripted-session';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
if (!(SCALE > 0 && SCALE <= 1)) throw new Error(`BENCH_SCALE must be in (0, 1], not ${process.env.BENCH_SCALE}`);
const LINES = Math.round(10_000 * SCALE);
const RUNS = 5;
const APPENDS = 300;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const lineCount = (file: string): number => fs.readFileSync(file, 'utf8').split('\n').length - 1;

const ANSWER =
  `## Findings\n\nThe handler in \`src/core/h.ts\` validates nothing:\n\n- parse with **zod**\n- return typed errors\n\n\`\`\`ts\nconst Input = z.object({ id: z.string() });\n\`\`\`\n`.repeat(
    4,
  );
const TOOL_OUTPUT = Array.from(
  { length: 30 },
  (_, i) => `src/core/handlers/h${i}.ts:${i + 1}: export function handler_${i}(input: unknown) {`,
).join('\n');

function deps(root: string, key: Uint8Array): SessionDeps {
  return {
    fs: nodeFileSystem,
    root,
    provider: new ScriptedModel(3, 5, {
      before: 'Reading the handlers before deciding. '.repeat(4),
      answer: ANSWER,
      chunks: 40,
    }),
    tools: trivialTools(TOOL_OUTPUT),
    prompts: PROMPTS,
    clock: systemClock,
    logKey: key,
    turnSettings: () => UNLIMITED,
  };
}

/** Runs turns until the session's log has `lines` lines; returns the session id. */
async function makeLog(root: string, key: Uint8Array, lines: number): Promise<string> {
  const session = await Session.start(deps(root, key), { agent: 'build' });
  for (let turn = 0; lineCount(session.logPath) < lines; turn++) {
    const r = await session.submit(`turn ${turn}`);
    if (r.kind !== 'ran' || r.status !== 'idle') throw new Error(`turn ${turn} ended ${JSON.stringify(r)}`);
  }
  return session.id;
}

/** The extension's reload: every event through a fresh TranscriptBuilder and the `state` message it posts. */
function chatRestore(events: readonly SessionEvent[]): number {
  const builder = new TranscriptBuilder();
  builder.replay(events);
  return JSON.stringify({ type: 'state', ...builder.snapshot() }).length;
}

async function appendCosts(
  log: SessionLog,
  seq: EventSequencer,
  file: string,
): Promise<{ append: number[]; raw: number[] }> {
  const append: number[] = [];
  const raw: number[] = [];
  const handle = await fs.promises.open(file, 'a');
  try {
    for (let i = 0; i < APPENDS; i++) {
      const event = seq.stamp({
        type: 'tool.result',
        callId: `bench-${i}`,
        name: 'read_file',
        ok: true,
        content: TOOL_OUTPUT,
      });
      const t0 = performance.now();
      await log.append(event);
      append.push(performance.now() - t0);
      const line = `${JSON.stringify(event)}\n`;
      const t1 = performance.now();
      await handle.write(line);
      raw.push(performance.now() - t1);
    }
  } finally {
    await handle.close();
  }
  return { append, raw };
}

async function main(): Promise<void> {
  const root = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'vtp-bench-session-')));
  try {
    const key = randomBytes(32);
    const t0 = performance.now();
    const id = await makeLog(root, key, LINES);
    const file = join(root, '.vtcode', 'sessions', `${id}.jsonl`);
    const size = fs.statSync(file).size;
    console.log(
      `session log: ${lineCount(file)} lines, ${(size / 1024 / 1024).toFixed(1)} MB, made by a real session in ${((performance.now() - t0) / 1000).toFixed(1)} s${SCALE < 1 ? ` (BENCH_SCALE=${SCALE})` : ''}`,
    );

    const resume: number[] = [];
    const restore: number[] = [];
    const cpu: number[] = [];
    const baseline: number[] = [];
    let events = 0;
    let stateKb = 0;
    for (let i = 0; i < RUNS; i++) {
      const b0 = performance.now();
      const parsed = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown);
      baseline.push(performance.now() - b0);
      if (parsed.length === 0) throw new Error('empty log');
      const cpu0 = process.cpuUsage();
      const r0 = performance.now();
      const session = await Session.resume(deps(root, key), id);
      resume.push(performance.now() - r0);
      const c0 = performance.now();
      stateKb = chatRestore(session.events) / 1024;
      restore.push(performance.now() - c0);
      const used = process.cpuUsage(cpu0);
      cpu.push((used.user + used.system) / 1000);
      events = session.events.length;
    }
    const [r, c, b] = [median(resume), median(restore), median(baseline)];
    console.log(
      `resume of a ${LINES}-line session (${events} events): Session.resume ${r.toFixed(0)} ms + chat restore ${c.toFixed(0)} ms (a ${stateKb.toFixed(0)} KB state message) = ${(r + c).toFixed(0)} ms (target ≤ 300 ms; median of ${RUNS}); CPU time ${median(cpu).toFixed(0)} ms (all threads of this process, garbage collection included)`,
    );
    console.log(
      `  vs reading the file and JSON.parse of every line in the same run: ${b.toFixed(0)} ms; ratio ${((r + c) / b).toFixed(2)}× (no target: the floor any reader of the log pays)`,
    );

    // Appends at that size, then on a fresh log.
    for (const [label, logId] of [
      [`the ${LINES}-line log`, id],
      ['a fresh log', 'bench-fresh'],
    ] as const) {
      const log = await SessionLog.open(nodeFileSystem, root, logId, { key });
      const seq = new EventSequencer(logId, systemClock, { seq: 1_000_000, turn: 1 });
      const { append, raw } = await appendCosts(log, seq, join(root, 'raw-appends.jsonl'));
      await log.sync();
      const [a, w] = [median(append), median(raw)];
      console.log(
        `append of one event (tool.result, ${(TOOL_OUTPUT.length / 1024).toFixed(1)} KB) to ${label}: ${a.toFixed(3)} ms (target ≤ 1 ms; median of ${APPENDS}) vs a write of the same line to an open file ${w.toFixed(3)} ms, interleaved: ratio ${(a / w).toFixed(2)}× (no target: the append validates, redacts and seals the line; the log is opened once, with its symlink checks)`,
      );
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
