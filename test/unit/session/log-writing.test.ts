/**
 * EVT-1, ADD-4: what the session-log writer puts in the file and when it makes it durable: which
 * events are fsync'd, what close() and sync() write, how streamed deltas are grouped, that secrets
 * passed to open() or reopen() are masked, and what it refuses to write through.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { EventSequencer, type SessionEvent } from '../../../src/core/session/events';
import { readSessionLog, SessionLog } from '../../../src/core/session/log';
import { nodeFileSystem } from '../../../src/node/fs';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-log-writing-');
const clock = { now: () => Date.parse('2026-12-02T05:00:00.000Z') };
const key = randomBytes(32);

/** nodeFileSystem whose handles count fsyncs (and still do them). */
function syncCounting(): { fs: typeof nodeFileSystem; syncs: () => number } {
  let syncs = 0;
  return {
    fs: {
      ...nodeFileSystem,
      async openAppend(p: string, mode: number) {
        const handle = await nodeFileSystem.openAppend(p, mode);
        return {
          ...handle,
          sync: async () => {
            syncs += 1;
            await handle.sync();
          },
        };
      },
    },
    syncs: () => syncs,
  };
}

async function eventsOf(root: string, id: string): Promise<SessionEvent[]> {
  const contents = await readSessionLog(nodeFileSystem, root, id, key);
  assert.ok(contents);
  assert.deepEqual(contents.problems, []);
  return contents.events;
}

test('ADD-4: session start, plan persisted and approval resolved are each fsync’d when appended', async () => {
  const root = tempRoot();
  const spy = syncCounting();
  const log = await SessionLog.open(spy.fs, root, 'd', { key });
  const seq = new EventSequencer('d', clock);
  const durable: SessionEvent[] = [
    seq.stamp({ type: 'session.started', agent: 'plan', provider: 'p', model: 'm', workspace: root, resumed: false }),
    seq.stamp({ type: 'plan.persisted', planFile: '.vtcode/plans/p.md' }),
    seq.stamp({ type: 'plan.approval.resolved', choice: 'execute', automatic: false }),
  ];
  for (const [i, event] of durable.entries()) {
    await log.append(event);
    assert.equal(spy.syncs(), i + 1, `${event.type} is fsync'd`);
  }
});

test('ADD-4: close() writes the held deltas and fsyncs an append that was not synced yet', async () => {
  const root = tempRoot();
  const spy = syncCounting();
  const log = await SessionLog.open(spy.fs, root, 'c', { key });
  const seq = new EventSequencer('c', clock);
  await log.append(seq.stamp({ type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{}' }));
  void log.append(seq.stamp({ type: 'message.delta', text: 'held' }));
  assert.equal(spy.syncs(), 0);
  await log.close();
  assert.equal(spy.syncs(), 1);
  assert.deepEqual(
    (await eventsOf(root, 'c')).map((e) => e.type),
    ['tool.call', 'message.delta'],
  );
});

test('ADD-4: sync() fsyncs what was appended', async () => {
  const root = tempRoot();
  const spy = syncCounting();
  const log = await SessionLog.open(spy.fs, root, 's', { key });
  const seq = new EventSequencer('s', clock);
  await log.append(seq.stamp({ type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{}' }));
  await log.sync();
  assert.equal(spy.syncs(), 1);
});

test('ADD-4: closing a log nothing was appended to does not recreate it after the user removed it', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'r', { key });
  fs.rmSync(log.path);
  await log.close();
  assert.equal(fs.existsSync(log.path), false);
});

test('EVT-1: reasoning deltas are grouped like message deltas, and deltas of different turns are not', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'g', { key });
  const seq = new EventSequencer('g', clock);
  await log.append(seq.stamp({ type: 'reasoning.delta', text: 'thin' }));
  await log.append(seq.stamp({ type: 'reasoning.delta', text: 'king' }));
  const inTurn0 = seq.stamp({ type: 'message.delta', text: 'end of 0' });
  const inTurn1 = { ...seq.stamp({ type: 'message.delta', text: 'start of 1' }), turn: inTurn0.turn + 1 };
  await log.append(inTurn0);
  await log.append(inTurn1);
  await log.close();
  assert.deepEqual(
    (await eventsOf(root, 'g')).map((e) => [e.type, e.turn, 'text' in e ? e.text : '']),
    [
      ['reasoning.delta', inTurn0.turn, 'thinking'],
      ['message.delta', inTurn0.turn, 'end of 0'],
      ['message.delta', inTurn1.turn, 'start of 1'],
    ],
  );
});

test('ADD-4: reopening a log that is still empty adds no blank line before the next event', async () => {
  const root = tempRoot();
  await (await SessionLog.open(nodeFileSystem, root, 'e', { key })).close();
  const log = await SessionLog.open(nodeFileSystem, root, 'e', { key });
  await log.append(new EventSequencer('e', clock).stamp({ type: 'notice', level: 'info', text: 'first' }));
  await log.close();
  assert.equal(fs.readFileSync(log.path, 'utf8').split('\n').length, 2);
  assert.deepEqual(
    (await eventsOf(root, 'e')).map((e) => e.type),
    ['notice'],
  );
});

test('ADD-1, EVT-1: secrets given to open() and reopen() are masked; without secrets the text is kept as is', async () => {
  const root = tempRoot();
  const secret = 'custom-gateway-token-4242'; // not key-shaped: only the secrets list masks it
  const seq = new EventSequencer('k', clock);
  const say = (text: string) => seq.stamp({ type: 'notice', level: 'info', text });
  const opened = await SessionLog.open(nodeFileSystem, root, 'k', { key, secrets: [secret] });
  await opened.append(say(`opened ${secret}`));
  await opened.close();
  const reopened = await SessionLog.reopen(nodeFileSystem, root, 'k', { key, secrets: [secret] });
  assert.ok(reopened);
  await reopened.log.append(say(`reopened ${secret}`));
  await reopened.log.close();
  assert.equal(fs.readFileSync(opened.path, 'utf8').includes(secret), false);

  const plain = 'Stryker was here and sk-like text stays';
  const bare = await SessionLog.open(nodeFileSystem, root, 'k', { key });
  await bare.append(say(plain));
  await bare.close();
  const again = await SessionLog.reopen(nodeFileSystem, root, 'k', { key });
  assert.ok(again);
  await again.log.append(say(plain));
  await again.log.close();
  const texts = (await eventsOf(root, 'k')).map((e) => ('text' in e ? e.text : ''));
  assert.equal(texts.length, 4);
  assert.ok(!(texts[0] ?? '').includes(secret) && !(texts[1] ?? '').includes(secret));
  assert.deepEqual(texts.slice(2), [plain, plain]);
});

test('ADD-4: the log refuses a .vtcode/sessions that is a file, saying what it is', async () => {
  const root = tempRoot();
  fs.mkdirSync(join(root, '.vtcode'));
  fs.writeFileSync(join(root, '.vtcode/sessions'), '');
  await assert.rejects(SessionLog.open(nodeFileSystem, root, 'ok', { key }), {
    name: 'SessionLogError',
    message: `refusing to write the session log: ${join(root, '.vtcode/sessions')} is a file`,
  });
});

/** Polls `check` until it holds; a generous deadline only turns a hang into a clear failure. */
async function eventually(what: string, check: () => boolean, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) assert.fail(`${what}: still not the case after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('EVT-1: a timed delta write that fails is reported by the next sync()', async () => {
  const root = tempRoot();
  let timedWriteFailed = false;
  const failing = {
    ...nodeFileSystem,
    async openAppend(p: string, mode: number) {
      const handle = await nodeFileSystem.openAppend(p, mode);
      return {
        ...handle,
        async append() {
          timedWriteFailed = true;
          throw new Error('disk full');
        },
      };
    },
  };
  const log = await SessionLog.open(failing, root, 't', { key });
  await log.append(new EventSequencer('t', clock).stamp({ type: 'message.delta', text: 'lost' }));
  await eventually('the time bound attempted the write', () => timedWriteFailed);
  // The rejection reaches the log's handler through promise callbacks, all run before the next macrotask.
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(log.sync(), /disk full/);
});

test('EVT-1: held deltas waiting for their time bound do not keep a finished CLI process alive', async () => {
  const root = tempRoot();
  const log = await SessionLog.open(nodeFileSystem, root, 'u', { key });
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  await log.append(new EventSequencer('u', clock).stamp({ type: 'message.delta', text: 'held' }));
  assert.equal(timers(), before, 'the pending flush holds no reference on the event loop');
  await log.close();
});

test('ADD-4: reading the log of a session that has none gives null', async () => {
  assert.equal(await readSessionLog(nodeFileSystem, tempRoot(), 'none', key), null);
});
