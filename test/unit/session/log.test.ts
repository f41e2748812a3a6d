import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { createOpenAIProvider, collectStream, streamWithRetry } from '../../../src/core/llm';
import { EventSequencer } from '../../../src/core/session/events';
import { parseSessionLog, readSessionLog, resumePoint, SessionLog, sessionLogPath } from '../../../src/core/session/log';
import { nodeFileSystem } from '../../../src/node/fs';
import { startModelServer } from '../../fixtures/model-server';

const dirs: string[] = [];
function tempRoot(): string {
  const dir = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const clock = { now: () => Date.parse('2026-11-29T10:00:00Z') };

test('EVT-1, ADD-4: events are appended one JSON line each, in order, and read back', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'abc-1');
  const seq = new EventSequencer('abc-1', clock);
  const events = [
    seq.stamp({ type: 'session.started', agent: 'plan', provider: 'openai', model: 'm', workspace: root, resumed: false }),
    seq.stamp({ type: 'message.delta', text: 'a\nb' }),
    seq.stamp({ type: 'message.delta', text: 'c' }),
    seq.stamp({ type: 'turn.completed', status: 'idle' }),
  ];
  // Not awaited one by one: the log keeps the order anyway.
  await Promise.all(events.map((e) => log.append(e)));
  const file = sessionLogPath(root, 'abc-1');
  assert.equal(file, join(root, '.vtcode/sessions/abc-1.jsonl'));
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(text.split('\n').length, 5);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(await readSessionLog(nodeFileSystem, root, 'abc-1'), { events, problems: [] });
  assert.deepEqual(resumePoint(events), { seq: 3, turn: 0 });
});

test('EVT-1: a truncated last line is reported, corrupt middle lines are reported by number, valid ones kept', () => {
  const seq = new EventSequencer('s', clock);
  const line = (text: string) => JSON.stringify(seq.stamp({ type: 'message.delta', text }));
  const text = [line('one'), '{"type":"message.delta",', line('two'), '{"type":"nope","session":"s","turn":0,"seq":9,"ts":"2026-11-29T10:00:00.000Z"}', line('three'), '{"type":"message.del'].join('\n');
  const { events, problems } = parseSessionLog(text);
  assert.deepEqual(events.map((e) => (e.type === 'message.delta' ? e.text : '')), ['one', 'two', 'three']);
  assert.deepEqual(problems.map((p) => [p.line, p.kind]), [
    [2, 'invalid_json'],
    [4, 'invalid_event'],
    [6, 'truncated'],
  ]);
});

test('EVT-1: a line whose seq goes backwards is reported as out of order', () => {
  const a = new EventSequencer('s', clock);
  const first = JSON.stringify(a.stamp({ type: 'message.delta', text: '1' }));
  const second = JSON.stringify(a.stamp({ type: 'message.delta', text: '2' }));
  const { events, problems } = parseSessionLog(`${second}\n${first}\n`);
  assert.equal(events.length, 2);
  assert.deepEqual(problems.map((p) => [p.line, p.kind]), [[2, 'out_of_order']]);
});

test('ADD-4: reopening after a crash closes the cut line so new events stay readable', async () => {
  const root = tempRoot();
  const seq = new EventSequencer('s2', clock);
  const log = await SessionLog.open(nodeFileSystem, root, 's2');
  await log.append(seq.stamp({ type: 'message.delta', text: 'before' }));
  fs.appendFileSync(log.path, '{"type":"message.delta","te'); // the crash
  const reopened = await SessionLog.open(nodeFileSystem, root, 's2');
  await reopened.append(seq.stamp({ type: 'turn.completed', status: 'idle' }));
  const contents = await readSessionLog(nodeFileSystem, root, 's2');
  assert.ok(contents);
  assert.deepEqual(contents.events.map((e) => e.type), ['message.delta', 'turn.completed']);
  assert.deepEqual(contents.problems.map((p) => [p.line, p.kind]), [[2, 'invalid_json']]);
});

test('ADD-1, EVT-1: secrets never reach the log, even inside a provider failure that echoes the key', async () => {
  const key = 'sk-live-abcdefghijklmnop';
  const server = await startModelServer([], { apiKey: 'the-right-key-000' });
  try {
    const root = tempRoot();
    const log = await SessionLog.open(nodeFileSystem, root, 'secret', { secrets: [key] });
    const seq = new EventSequencer('secret', clock);
    const provider = createOpenAIProvider({ model: 'm', baseUrl: server.openaiBaseUrl, apiKey: key });
    const outcome = await collectStream(
      streamWithRetry(provider, { system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], maxOutputTokens: 10 }),
    );
    assert.ok(outcome.status === 'failed');
    await log.append(seq.stamp({ type: 'provider.failed', failure: outcome.failure }));
    // A producer mistake (the key inside ordinary text) is masked as well.
    await log.append(seq.stamp({ type: 'message.delta', text: `my key is ${key}` }));
    await log.append(seq.stamp({ type: 'turn.completed', status: 'failed', reason: `auth failed for ${key}` }));
    const text = fs.readFileSync(log.path, 'utf8');
    assert.ok(!text.includes(key), 'the key was written to the session log');
    assert.match(text, /\[redacted\]/);
    assert.match(text, /HTTP 401/);
    assert.deepEqual(parseSessionLog(text).problems, []);
  } finally {
    await server.close();
  }
});

test('ADD-4: the log refuses a symlinked .vtcode/sessions and invalid session ids', async () => {
  const root = tempRoot();
  const elsewhere = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  fs.symlinkSync(elsewhere, join(root, '.vtcode/sessions'));
  await assert.rejects(SessionLog.open(nodeFileSystem, root, 'ok'), /symbolic link/);
  assert.deepEqual(fs.readdirSync(elsewhere), []);
  assert.throws(() => sessionLogPath(root, '../escape'), /invalid session id/);
  assert.throws(() => sessionLogPath(root, 'a/b'), /invalid session id/);
});

test('EVT-1: append validates: an invalid event is refused and nothing is written', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'v');
  const bad = { type: 'turn.completed', status: 'weird', session: 'v', turn: 0, seq: 0, ts: '2026-11-29T10:00:00.000Z' };
  assert.throws(() => log.append(bad as never), /status/);
  await log.sync();
  assert.equal(fs.readFileSync(log.path, 'utf8'), '');
});

test('ADD-4: turn boundaries and approval changes are fsynced', async () => {
  const root = tempRoot();
  const synced: string[] = [];
  const spyFs = { ...nodeFileSystem, syncFile: async (p: string) => void synced.push(p) };
  const log = await SessionLog.open(spyFs, root, 'f');
  const seq = new EventSequencer('f', clock);
  await log.append(seq.stamp({ type: 'message.delta', text: 'x' }));
  assert.equal(synced.length, 0);
  await log.append(seq.stamp({ type: 'plan.approval.requested', planFile: '.vtcode/plans/p.md' }));
  await log.append(seq.stamp({ type: 'turn.completed', status: 'awaiting_approval' }));
  assert.equal(synced.length, 2);
});
