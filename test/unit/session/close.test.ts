/**
 * EXEC-5, EVT-1 (issue 15 item 1): `Session.close()` is how a session ends (New Session, another
 * session, another folder, the window closing). It stops the running turn, waits for it, and only
 * resolves once the log holds everything the session emitted; listeners hear nothing after it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelProvider, ModelRequest, StreamChunk } from '../../../src/core/llm';
import { readSessionLog } from '../../../src/core/session/log';
import { useHarness } from './harness';

const h = useHarness();

/**
 * Streams one delta, then answers nothing until the request is cancelled, and takes a moment to
 * wind down after that (as a real connection does): close() must wait for it, not race it.
 */
class HangingModel implements ModelProvider {
  readonly id = 'hanging';
  readonly model = 'hanging';
  async *stream(request: ModelRequest): AsyncIterable<StreamChunk> {
    yield { type: 'text_delta', text: 'Reading the greeter first.' };
    await new Promise<void>((resolve) => {
      if (request.signal?.aborted) resolve();
      request.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await new Promise((r) => setTimeout(r, 50));
    yield { type: 'cancelled' };
  }
}

test('EXEC-5: close() stops a streaming turn and resolves only when the log holds the streamed text and the cancelled turn end', async () => {
  const { session, events } = await h.start('plan', h.deps({ provider: new HangingModel() }));
  const turn = session.submit('Add a shout flag');
  while (!events.some((e) => e.type === 'message.delta')) await new Promise((r) => setImmediate(r));
  const heard = events.length;

  await session.close();

  const contents = await readSessionLog(h.deps().fs, h.root, session.id, h.logKey);
  assert.ok(contents);
  assert.deepEqual(contents.problems, []);
  const logged = contents.events;
  assert.equal(
    logged
      .filter((e) => e.type === 'message.delta')
      .map((e) => (e.type === 'message.delta' ? e.text : ''))
      .join(''),
    'Reading the greeter first.',
  );
  const last = logged.at(-1);
  assert.equal(last?.type, 'turn.completed');
  assert.equal(last?.type === 'turn.completed' && last.status, 'cancelled');
  assert.equal(session.busy, false);
  assert.equal(events.length, heard, 'listeners hear nothing once the session is closing');
  assert.deepEqual(await turn, { kind: 'ran', status: 'cancelled' });
});

test('EXEC-5: close() on an idle session resolves, twice as well', async () => {
  const { session } = await h.start('plan', h.deps({ provider: new HangingModel() }));
  await session.close();
  await session.close();
  const contents = await readSessionLog(h.deps().fs, h.root, session.id, h.logKey);
  assert.deepEqual(
    contents?.events.map((e) => e.type),
    ['session.started'],
  );
});

test('EXEC-5: close() of an idle session whose log the user removed meanwhile resolves (nothing was left to write)', async () => {
  const { session } = await h.start('plan', h.deps({ provider: new HangingModel() }));
  rmSync(join(h.root, '.vtcode'), { recursive: true, force: true });
  await session.close();
  assert.equal(existsSync(session.logPath), false);
});

test('EVT-1: a listener that throws still lets the event into the log and to the other listeners, and its error reaches the caller', async () => {
  const { session, events } = await h.start('plan', h.deps({ provider: new HangingModel() }));
  session.on((e) => {
    if (e.type === 'notice') throw new Error('the view is gone');
  });
  const after: string[] = [];
  session.on((e) => after.push(e.type));

  await assert.rejects(session.dismissInterview('no-such-question'), /the view is gone/);

  assert.deepEqual(after, ['notice'], 'a listener after the failing one heard the event');
  assert.equal(events.at(-1)?.type, 'notice');
  const contents = await readSessionLog(h.deps().fs, h.root, session.id, h.logKey);
  assert.deepEqual(
    contents?.events.map((e) => e.type),
    ['session.started', 'notice'],
  );
  await session.close();
});
