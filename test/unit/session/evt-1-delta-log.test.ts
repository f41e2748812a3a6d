/**
 * EVT-1, ADD-4: streamed deltas reach listeners one by one, while the session log coalesces
 * consecutive deltas of one kind into few lines; a session rebuilt from the log has the same text.
 * Through a real Session over the Node file system; timing figures live in bench/runloop.bench.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ModelProvider, ModelRequest, StreamChunk } from '../../../src/core/llm';
import type { SessionEvent } from '../../../src/core/session/events';
import { readSessionLog } from '../../../src/core/session/log';
import { Session } from '../../../src/core/session/session';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { of, planText, useHarness, VALID_PLAN } from './harness';

const h = useHarness();

/** Streams each queued reply in chunks of `chunk` characters, in process (no HTTP in between). */
class ChunkedModel implements ModelProvider {
  readonly id = 'chunked';
  readonly model = 'chunked';
  constructor(
    private readonly replies: string[],
    private readonly chunk = 1,
  ) {}

  async *stream(_request: ModelRequest): AsyncIterable<StreamChunk> {
    const reply = this.replies.shift() ?? 'Done.';
    for (let i = 0; i < reply.length; i += this.chunk)
      yield { type: 'text_delta', text: reply.slice(i, i + this.chunk) };
    yield { type: 'finish', reason: 'stop' };
  }
}

const textOf = (events: readonly SessionEvent[], type: 'message.delta' | 'plan.delta'): string =>
  events
    .filter((e): e is Extract<SessionEvent, { type: typeof type }> => e.type === type)
    .map((e) => e.text)
    .join('');

/** 200 KB of markdown-ish prose with line breaks, so it is more than one long line. */
function bigReply(): string {
  const line = 'The quick brown fox jumps over the lazy dog; streaming one character at a time.';
  const lines: string[] = [];
  while (lines.join('\n').length < 200 * 1024) lines.push(`${lines.length % 20 === 0 ? '\n## Part ' : ''}${line}`);
  return lines.join('\n').slice(0, 200 * 1024);
}

test(
  'EVT-1: a 200 KB reply in 1-character chunks reaches listeners delta by delta, the log holds it in a few lines, and the replay has the identical text',
  { timeout: 120_000 },
  async () => {
    const reply = bigReply();
    const provider = new ChunkedModel([reply]);
    const { session, events } = await h.start('build', h.deps({ provider }));
    assert.deepEqual(await session.submit('Write it all'), { kind: 'ran', status: 'idle' });

    const live = of(events, 'message.delta');
    assert.equal(live.length, reply.length, 'every delta reached the listener');
    assert.equal(textOf(events, 'message.delta'), reply);

    const lines = readFileSync(session.logPath, 'utf8').split('\n').length - 1;
    assert.ok(lines < 20, `the log has ${lines} lines`);
    const contents = await readSessionLog(h.deps().fs, h.root, session.id, h.logKey);
    assert.ok(contents);
    assert.deepEqual(contents.problems, []);
    assert.equal(textOf(contents.events, 'message.delta'), reply);

    const resumed = await Session.resume(h.deps({ provider }), session.id);
    assert.equal(textOf(resumed.events, 'message.delta'), reply);
    assert.equal(of(resumed.events, 'message.completed')[0]?.text, reply);
    assert.deepEqual(resumed.state.history, session.state.history);
  },
);

test('EVT-1, ADD-4: message and plan deltas are coalesced per kind in order, and a reload rebuilds the same transcript', async () => {
  const reply = planText(VALID_PLAN);
  const provider = new ChunkedModel([reply], 3);
  const { session, events } = await h.start('plan', h.deps({ provider }));
  const liveView = new TranscriptBuilder();
  for (const e of events) liveView.apply(e);
  session.on((e) => liveView.apply(e));
  await session.submit('Add shouting');
  assert.ok(session.state.pendingApproval);

  const contents = await readSessionLog(h.deps().fs, h.root, session.id, h.logKey);
  assert.ok(contents);
  assert.deepEqual(contents.problems, []);
  const logged = contents.events.map((e) => e.type).filter((t) => t.endsWith('.delta'));
  // Runs of one kind become one line each; the kinds keep their order.
  const runs = events
    .map((e) => e.type)
    .filter((t) => t.endsWith('.delta'))
    .filter((t, i, all) => t !== all[i - 1]);
  assert.deepEqual(logged, runs);
  assert.ok(of(events, 'plan.delta').length > 100 && of(contents.events, 'plan.delta').length === 1);
  assert.equal(textOf(contents.events, 'plan.delta'), textOf(events, 'plan.delta'));
  assert.equal(textOf(contents.events, 'message.delta'), textOf(events, 'message.delta'));

  const replayed = new TranscriptBuilder();
  replayed.replay(contents.events);
  // Entry ids come from seq numbers, which differ for a coalesced line; what is shown is the same.
  const shown = (b: TranscriptBuilder) => b.snapshot().transcript.map(({ id: _id, ...entry }) => entry);
  assert.deepEqual(shown(replayed), shown(liveView));
  assert.deepEqual(replayed.snapshot().status, liveView.snapshot().status);
});

test('ADD-4: a resume reads the session log once (a long log was read twice: to verify it, then to open it)', async () => {
  const provider = new ChunkedModel(['First answer.', 'Second answer.']);
  const { session } = await h.start('build', h.deps({ provider }));
  await session.submit('one');
  const reads: string[] = [];
  const fs = h.deps().fs;
  const spyFs = { ...fs, readText: async (p: string) => (reads.push(p), fs.readText(p)) };
  const resumed = await Session.resume(h.deps({ provider, fs: spyFs }), session.id);
  assert.equal(reads.filter((p) => p === session.logPath).length, 1, reads.join('\n'));
  assert.equal(resumed.state.history.at(-1)?.content, 'First answer.');
  const next = await resumed.submit('two');
  assert.deepEqual(next, { kind: 'ran', status: 'idle' });
});
