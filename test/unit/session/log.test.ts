import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { createOpenAIProvider, collectStream, streamWithRetry } from '../../../src/core/llm';
import { EventSequencer } from '../../../src/core/session/events';
import {
  initialHead,
  parseSessionLog,
  readSessionLog,
  resumePoint,
  sealLine,
  SessionLog,
  sessionLogPath,
  untrustedLines,
  type ChainHead,
} from '../../../src/core/session/log';
import { nodeFileSystem } from '../../../src/node/fs';
import { startModelServer } from '../../fixtures/model-server';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-log-');

const clock = { now: () => Date.parse('2026-11-29T10:00:00Z') };
const key = randomBytes(32);

/**
 * Writes a log the way the runtime's writer does: events are sealed on the chain, raw strings are
 * lines the writer found in the file and passed over (its next tag covers them).
 */
function writtenLog(sessionId: string, parts: ReadonlyArray<object | string>): string {
  let head: ChainHead = initialHead(sessionId);
  let skipped: string[] = [];
  const lines: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      lines.push(part);
      skipped.push(part);
      continue;
    }
    if (skipped.length > 0)
      head = {
        ...head,
        skipped: createHash('sha256')
          .update(skipped.map((l) => `${l}\n`).join(''))
          .digest('hex'),
      };
    const sealed = sealLine(key, head, JSON.stringify(part));
    lines.push(sealed.line);
    head = sealed.head;
    skipped = [];
  }
  return lines.join('\n');
}

test('EVT-1, ADD-4, STORE-2: events are appended one sealed JSON line each, in order, and read back; deltas of one kind share a line', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'abc-1', { key });
  const seq = new EventSequencer('abc-1', clock);
  const events = [
    seq.stamp({
      type: 'session.started',
      agent: 'plan',
      provider: 'openai',
      model: 'm',
      workspace: root,
      resumed: false,
    }),
    seq.stamp({ type: 'message.delta', text: 'a\nb' }),
    seq.stamp({ type: 'message.delta', text: 'c' }),
    seq.stamp({ type: 'turn.completed', status: 'idle' }),
  ];
  // Not awaited one by one: the log keeps the order anyway.
  await Promise.all(events.map((e) => log.append(e)));
  const file = sessionLogPath(root, 'abc-1');
  assert.equal(file, join(root, '.vtcode/sessions/abc-1.jsonl'));
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  assert.equal(lines.length, 4);
  for (const line of lines.slice(0, -1)) assert.match(line, /^\{"type":.*,"mac":"[0-9a-f]{64}"\}$/);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const coalesced = { ...events[2]!, text: 'a\nbc' };
  const contents = await readSessionLog(nodeFileSystem, root, 'abc-1', key);
  assert.deepEqual(contents?.events, [events[0], coalesced, events[3]]);
  assert.deepEqual(contents?.problems, []);
  assert.deepEqual(resumePoint(contents?.events ?? []), { seq: 3, turn: 0 });
});

test('EVT-1: a truncated last line is reported, corrupt middle lines the writer passed over are reported by number, valid ones kept', () => {
  const seq = new EventSequencer('s', clock);
  const delta = (text: string) => seq.stamp({ type: 'message.delta', text });
  const text = writtenLog('s', [
    delta('one'),
    '{"type":"message.delta",',
    delta('two'),
    '',
    delta('three'),
    '{"type":"message.del',
  ]);
  const contents = parseSessionLog(text, { key, sessionId: 's' });
  assert.deepEqual(
    contents.events.map((e) => (e.type === 'message.delta' ? e.text : '')),
    ['one', 'two', 'three'],
  );
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind, p.acknowledged ?? false]),
    [
      [2, 'invalid_json', true],
      [4, 'invalid_json', true],
      [6, 'truncated', false],
    ],
  );
  assert.deepEqual(untrustedLines(contents), [], 'covered lines and a cut-off last line are not tampering');
});

test('EVT-1: a sealed line whose seq goes backwards is reported as out of order and not applied', () => {
  const a = new EventSequencer('s', clock);
  const first = a.stamp({ type: 'message.delta', text: '1' });
  const second = a.stamp({ type: 'message.delta', text: '2' });
  const contents = parseSessionLog(writtenLog('s', [second, first]), { key, sessionId: 's' });
  assert.equal(contents.events.length, 1);
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind]),
    [[2, 'out_of_order']],
  );
  assert.deepEqual(untrustedLines(contents), [2]);
});

test('ADD-4: reopening after a crash closes the cut line so new events stay readable, and covers it', async () => {
  const root = tempRoot();
  const seq = new EventSequencer('s2', clock);
  const log = await SessionLog.open(nodeFileSystem, root, 's2', { key });
  await log.append(seq.stamp({ type: 'message.delta', text: 'before' }));
  await log.sync();
  fs.appendFileSync(log.path, '{"type":"message.delta","te'); // the crash
  const reopened = await SessionLog.open(nodeFileSystem, root, 's2', { key });
  await reopened.append(seq.stamp({ type: 'turn.completed', status: 'idle' }));
  const contents = await readSessionLog(nodeFileSystem, root, 's2', key);
  assert.ok(contents);
  assert.deepEqual(
    contents.events.map((e) => e.type),
    ['message.delta', 'turn.completed'],
  );
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind, p.acknowledged]),
    [[2, 'invalid_json', true]],
  );
  assert.deepEqual(untrustedLines(contents), []);
});

test('ADD-1, EVT-1: secrets never reach the log, even inside a provider failure that echoes the key', async () => {
  const apiKey = 'sk-live-abcdefghijklmnop';
  const logKey = key;
  const server = await startModelServer([], { apiKey: 'the-right-key-000' });
  try {
    const root = tempRoot();
    const log = await SessionLog.open(nodeFileSystem, root, 'secret', { key: logKey, secrets: [apiKey] });
    const seq = new EventSequencer('secret', clock);
    const provider = createOpenAIProvider({ model: 'm', baseUrl: server.openaiBaseUrl, apiKey });
    const outcome = await collectStream(
      streamWithRetry(provider, {
        system: 's',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        maxOutputTokens: 10,
      }),
    );
    assert.ok(outcome.status === 'failed');
    await log.append(seq.stamp({ type: 'provider.failed', failure: outcome.failure }));
    // A producer mistake (the key inside ordinary text) is masked as well.
    await log.append(seq.stamp({ type: 'message.delta', text: `my key is ${apiKey}` }));
    await log.append(seq.stamp({ type: 'turn.completed', status: 'failed', reason: `auth failed for ${apiKey}` }));
    const text = fs.readFileSync(log.path, 'utf8');
    assert.ok(!text.includes(apiKey), 'the key was written to the session log');
    assert.match(text, /\[redacted\]/);
    assert.match(text, /HTTP 401/);
    assert.deepEqual(parseSessionLog(text, { key, sessionId: 'secret' }).problems, []);
  } finally {
    await server.close();
  }
});

test('ADD-4: the log refuses a symlinked .vtcode/sessions and invalid session ids', async () => {
  const root = tempRoot();
  const elsewhere = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  fs.symlinkSync(elsewhere, join(root, '.vtcode/sessions'));
  await assert.rejects(SessionLog.open(nodeFileSystem, root, 'ok', { key }), /symbolic link/);
  assert.deepEqual(fs.readdirSync(elsewhere), []);
  assert.throws(() => sessionLogPath(root, '../escape'), /invalid session id/);
  assert.throws(() => sessionLogPath(root, 'a/b'), /invalid session id/);
});

test('EVT-1: append validates: an invalid event is refused and nothing is written', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'v', { key });
  const bad = {
    type: 'turn.completed',
    status: 'weird',
    session: 'v',
    turn: 0,
    seq: 0,
    ts: '2026-11-29T10:00:00.000Z',
  };
  assert.throws(() => log.append(bad as never), /status/);
  await log.sync();
  assert.equal(fs.readFileSync(log.path, 'utf8'), '');
});

test('ADD-4: turn boundaries and approval changes are fsynced', async () => {
  const root = tempRoot();
  const synced: string[] = [];
  const spyFs = {
    ...nodeFileSystem,
    async openAppend(p: string, mode: number) {
      const handle = await nodeFileSystem.openAppend(p, mode);
      return { ...handle, sync: async () => void synced.push(p) };
    },
  };
  const log = await SessionLog.open(spyFs, root, 'f', { key });
  const seq = new EventSequencer('f', clock);
  await log.append(seq.stamp({ type: 'message.delta', text: 'x' }));
  assert.equal(synced.length, 0);
  await log.append(seq.stamp({ type: 'plan.approval.requested', planFile: '.vtcode/plans/p.md' }));
  await log.append(seq.stamp({ type: 'turn.completed', status: 'awaiting_approval' }));
  assert.equal(synced.length, 2);
});

test('ADD-4: the log is opened once per turn, not per event; a symlink put at its path meanwhile receives nothing, and the next turn refuses it', async () => {
  const root = tempRoot();
  let opens = 0;
  const countingFs = {
    ...nodeFileSystem,
    openAppend(p: string, mode: number) {
      opens += 1;
      return nodeFileSystem.openAppend(p, mode);
    },
  };
  const log = await SessionLog.open(countingFs, root, 'k', { key });
  const seq = new EventSequencer('k', clock);
  const call = (i: number) => seq.stamp({ type: 'tool.call', callId: `c${i}`, name: 'read_file', arguments: '{}' });
  for (let i = 0; i < 5; i++) await log.append(call(i));
  assert.equal(opens, 1, 'one open for five appends');

  // Mid-turn the path is swapped for a symlink to a file elsewhere: the open handle still writes the real log.
  const elsewhere = join(tempRoot(), 'elsewhere.txt');
  fs.writeFileSync(elsewhere, '');
  fs.renameSync(log.path, `${log.path}.moved`);
  fs.symlinkSync(elsewhere, log.path);
  await log.append(call(5));
  await log.append(seq.stamp({ type: 'turn.completed', status: 'idle' })); // fsync, and the handle is closed
  assert.equal(opens, 1);
  assert.equal(fs.readFileSync(`${log.path}.moved`, 'utf8').trim().split('\n').length, 7);

  // The next turn opens the path again, with its checks: the symlink is refused, nothing reaches its target.
  await assert.rejects(log.append(call(6)), /symbolic link, not a regular file/);
  assert.equal(opens, 2);
  assert.equal(fs.readFileSync(elsewhere, 'utf8'), '');
});

/** Polls `check` until it holds; a generous deadline only turns a hang into a clear failure. */
async function eventually(what: string, check: () => Promise<boolean>, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`${what}: still not the case after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('EVT-1: held deltas are written before any other event, once 64K characters are pending, and by themselves once they stop coming', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'd', { key });
  const seq = new EventSequencer('d', clock);
  const read = async () => (await readSessionLog(nodeFileSystem, root, 'd', key))?.events ?? [];
  const texts = async () =>
    (await read()).map((e) =>
      e.type === 'message.delta' || e.type === 'plan.delta' ? `${e.type}:${e.text.length}` : e.type,
    );

  await log.append(seq.stamp({ type: 'message.delta', text: 'a' }));
  await log.append(seq.stamp({ type: 'message.delta', text: 'b' }));
  assert.deepEqual(await texts(), [], 'held');
  await log.append(seq.stamp({ type: 'plan.delta', text: 'p' }));
  assert.deepEqual(await texts(), ['message.delta:2'], 'another kind writes the held ones first');
  await log.append(seq.stamp({ type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{}' }));
  assert.deepEqual(await texts(), ['message.delta:2', 'plan.delta:1', 'tool.call']);

  const chunk = 'x'.repeat(16 * 1024);
  for (let i = 0; i < 4; i++) await log.append(seq.stamp({ type: 'message.delta', text: chunk }));
  assert.deepEqual((await texts()).slice(3), ['message.delta:65536'], 'the size bound writes without waiting');

  await log.append(seq.stamp({ type: 'message.delta', text: 'tail' }));
  assert.equal((await read()).length, 4);
  // No further delta and no other event: only the time bound can write them.
  await eventually('the held delta is written by the time bound', async () => (await read()).length === 5);
  assert.deepEqual((await texts()).slice(4), ['message.delta:4']);
});

test('EVT-1: a timed delta write that fails is reported by the next append, which still writes its own event', async () => {
  const root = tempRoot();
  let failNext = false;
  let timedWriteFailed = false;
  const flaky = {
    ...nodeFileSystem,
    async openAppend(p: string, mode: number) {
      const handle = await nodeFileSystem.openAppend(p, mode);
      return {
        ...handle,
        async append(text: string) {
          if (failNext) {
            failNext = false;
            timedWriteFailed = true;
            throw new Error('disk full');
          }
          await handle.append(text);
        },
      };
    },
  };
  const log = await SessionLog.open(flaky, root, 'e', { key });
  const seq = new EventSequencer('e', clock);
  await log.append(seq.stamp({ type: 'message.delta', text: 'lost' }));
  failNext = true;
  // The log's timer is unref'd, so polling (not a bare promise) keeps the process alive meanwhile.
  await eventually('the time bound attempted the write', async () => timedWriteFailed);
  // The rejection reaches the log's handler through promise callbacks, all run before the next macrotask.
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(log.append(seq.stamp({ type: 'turn.completed', status: 'idle' })), /disk full/);
  await log.sync();
  assert.deepEqual(
    (await readSessionLog(nodeFileSystem, root, 'e', key))?.events.map((e) => e.type),
    ['turn.completed'],
  );
});

test('STORE-2: a genuine log copied over another session id, or read with another key, does not verify', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'one', { key });
  const seq = new EventSequencer('one', clock);
  await log.append(
    seq.stamp({ type: 'session.started', agent: 'build', provider: 'p', model: 'm', workspace: root, resumed: false }),
  );
  await log.append(seq.stamp({ type: 'turn.completed', status: 'idle' }));
  const text = fs.readFileSync(log.path, 'utf8');
  const copied = parseSessionLog(text.replaceAll('"session":"one"', '"session":"two"'), { key, sessionId: 'two' });
  assert.deepEqual(copied.events, []);
  assert.deepEqual(
    copied.problems.map((p) => [p.line, p.kind, p.tag]),
    [
      [1, 'unverified', 'mismatch'],
      [2, 'unverified', 'mismatch'],
    ],
  );
  const otherKey = parseSessionLog(text, { key: randomBytes(32), sessionId: 'one' });
  assert.deepEqual(otherKey.events, []);
  assert.deepEqual(untrustedLines(otherKey), [1, 2]);
  assert.throws(() => parseSessionLog(text, { key: randomBytes(16), sessionId: 'one' }), /16 bytes; at least 32/);
});

test('ADD-4: reopening a log for a resume reads it once, chains on where it ends, and closes a cut-off last line first', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'r', { key });
  const seq = new EventSequencer('r', clock);
  await log.append(
    seq.stamp({
      type: 'session.started',
      agent: 'plan',
      provider: 'openai',
      model: 'm',
      workspace: root,
      resumed: false,
    }),
  );
  await log.append(seq.stamp({ type: 'turn.completed', status: 'idle' }));
  fs.appendFileSync(log.path, '{"cut');

  const reads: string[] = [];
  const spyFs = { ...nodeFileSystem, readText: async (p: string) => (reads.push(p), nodeFileSystem.readText(p)) };
  const reopened = await SessionLog.reopen(spyFs, root, 'r', { key });
  assert.ok(reopened);
  assert.deepEqual(reads, [log.path], 'one read of the log');
  assert.deepEqual(
    reopened.contents.events.map((e) => e.type),
    ['session.started', 'turn.completed'],
  );
  assert.deepEqual(
    reopened.contents.problems.map((p) => [p.line, p.kind]),
    [[3, 'truncated']],
  );

  await reopened.log.append(seq.stamp({ type: 'notice', level: 'info', text: 'after the resume' }));
  await reopened.log.sync();
  const again = await readSessionLog(nodeFileSystem, root, 'r', key);
  assert.deepEqual(
    again?.events.map((e) => e.type),
    ['session.started', 'turn.completed', 'notice'],
    'the new line chains on and does not merge into the cut one',
  );
});

test('ADD-4: reopening a session that has no log gives null and creates nothing', async () => {
  const root = tempRoot();
  assert.equal(await SessionLog.reopen(nodeFileSystem, root, 'missing', { key }), null);
  assert.equal(fs.existsSync(join(root, '.vtcode')), false);
});
