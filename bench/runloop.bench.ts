/**
 * Runloop figures (issue 6): the runloop's own overhead per tool call with a zero-latency
 * scripted model and a trivial tool runtime (so neither the model nor the tool's own work is
 * measured), the peak memory of a 200-turn session, and a 200 KB reply streamed in 1-character
 * chunks through a session with its log (EVT-1: deltas are coalesced in the log). Run: npx tsx bench/runloop.bench.ts
 * (`--expose-gc` through NODE_OPTIONS makes the heap figures steadier; it is optional).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import type { ModelProvider, ModelRequest, StreamChunk } from '../src/core/llm';
import { systemClock } from '../src/core/ports';
import { EventSequencer, type EventInput } from '../src/core/session/events';
import { runTurn } from '../src/core/session/runloop';
import { Session } from '../src/core/session/session';
import { applyEvent, initialState, type SessionState } from '../src/core/session/state';
import { nodeFileSystem } from '../src/node/fs';
import { Calibration } from './lib/calibration';
import { PROMPTS, ScriptedModel, trivialTools, UNLIMITED } from './lib/scripted-session';

/** One reply of `text`, one character per chunk. */
class CharStreamModel implements ModelProvider {
  readonly id = 'scripted';
  readonly model = 'char-stream';
  constructor(private readonly text: string) {}

  async *stream(_request: ModelRequest): AsyncIterable<StreamChunk> {
    for (const ch of this.text) yield { type: 'text_delta', text: ch };
    yield { type: 'finish', reason: 'stop' };
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** One build turn of `batches` × `perBatch` calls through runTurn, events folded in memory (no log). */
async function inMemoryTurn(batches: number, perBatch: number): Promise<number> {
  let state: SessionState = initialState({
    id: 'bench',
    workspace: '/ws',
    provider: 'scripted',
    model: 'zero-latency',
    agent: 'build',
  });
  const seq = new EventSequencer('bench', systemClock);
  const emit = async (input: EventInput): Promise<void> => {
    state = applyEvent(state, seq.stamp(input));
  };
  seq.beginTurn();
  await emit({ type: 'turn.started', agent: 'build', kind: 'user', input: 'go' });
  const t0 = performance.now();
  const end = await runTurn(
    {
      fs: nodeFileSystem,
      root: '/ws',
      provider: new ScriptedModel(batches, perBatch),
      tools: trivialTools(),
      prompts: PROMPTS,
      ...UNLIMITED,
      emit,
      state: () => state,
      checkpoint: async () => ({ status: 'unsupported' }),
    },
    new AbortController().signal,
  );
  const ms = performance.now() - t0;
  if (end.status !== 'idle') throw new Error(`bench turn ended ${end.status}: ${end.reason ?? ''}`);
  return ms / (batches * perBatch);
}

async function sessionTurns(
  root: string,
  turns: number,
  batches: number,
  perBatch: number,
  onTurn?: () => void,
): Promise<number> {
  const session = await buildSession(root, new ScriptedModel(batches, perBatch));
  const t0 = performance.now();
  for (let i = 0; i < turns; i++) {
    const r = await session.submit(`turn ${i}`);
    if (r.kind !== 'ran' || r.status !== 'idle') throw new Error(`turn ${i} ended ${JSON.stringify(r)}`);
    onTurn?.();
  }
  return (performance.now() - t0) / (turns * batches * perBatch);
}

/** A build-mode session on the Node file system with its log, trivial tools and no limits. */
function buildSession(root: string, provider: ModelProvider): Promise<Session> {
  return Session.start(
    {
      fs: nodeFileSystem,
      root,
      provider,
      tools: trivialTools(),
      prompts: PROMPTS,
      clock: systemClock,
      logKey: randomBytes(32),
      turnSettings: () => UNLIMITED,
    },
    { agent: 'build' },
  );
}

/** A 200 KB reply in 1-character chunks through a session with the Node file system and the log. */
async function streamedReply(root: string): Promise<{ ms: number; lines: number }> {
  const text = 'The quick brown fox jumps over the lazy dog.\n'
    .repeat(Math.ceil((200 * 1024) / 45))
    .slice(0, 200 * 1024);
  const session = await buildSession(root, new CharStreamModel(text));
  const t0 = performance.now();
  const r = await session.submit('stream');
  const ms = performance.now() - t0;
  if (r.kind !== 'ran' || r.status !== 'idle') throw new Error(`streamed turn ended ${JSON.stringify(r)}`);
  return { ms, lines: fs.readFileSync(session.logPath, 'utf8').split('\n').length - 1 };
}

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  // Warm-up, then the median of several runs (a 500-call turn: 100 requests × 5 calls).
  await inMemoryTurn(20, 5);
  const calibration = new Calibration(170);
  const perCall: number[] = [];
  for (let i = 0; i < 7; i++) {
    calibration.sample();
    perCall.push(await inMemoryTurn(100, 5));
  }
  console.log(
    `runloop overhead per tool call (500-call turn, in-memory events): ${median(perCall).toFixed(3)} ms (target ≤ 1 ms); ${calibration.describe(median(perCall), 1, 500)}`,
  );

  const root = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'vtp-bench-runloop-')));
  try {
    const withLog: number[] = [];
    const logCalibration = new Calibration(250);
    for (let i = 0; i < 5; i++) {
      logCalibration.sample();
      withLog.push(await sessionTurns(root, 10, 10, 5));
    }
    console.log(
      `session overhead per tool call (incl. JSONL log append): ${median(withLog).toFixed(3)} ms (target ≤ 1 ms); ${logCalibration.describe(median(withLog), 1, 500)}`,
    );

    // 200 turns of 3 requests × 2 calls each: ~1,800 history messages at the end.
    gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sample = (): void => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    };
    const timer = setInterval(sample, 5);
    const per = await sessionTurns(root, 200, 3, 2, sample);
    clearInterval(timer);
    sample();
    console.log(`200-turn session: peak RSS: ${mb(peakRss)} MB (target ≤ 256 MB)`);
    console.log(
      `200-turn session: peak heap used: ${mb(peakHeap)} MB, growth ${mb(peakHeap - base.heapUsed)} MB (target growth ≤ 64 MB)`,
    );
    console.log(
      `200-turn session: wall time per tool call incl. log appends and the per-turn fsync: ${per.toFixed(3)} ms (target ≤ 5 ms)`,
    );

    // After the memory figures: 200,000 delta events in memory would inflate the peak RSS above.
    const streams: { ms: number; lines: number }[] = [];
    for (let i = 0; i < 3; i++) streams.push(await streamedReply(root));
    console.log(
      `200 KB reply in 1-character chunks through a session incl. the JSONL log: ${median(streams.map((s) => s.ms)).toFixed(0)} ms, ${streams[0]?.lines ?? 0} log lines (target ≤ 5,000 ms; one line per delta took 72 s in the report)`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
