/**
 * STORE-2: the integrity tag's input is part of the log format. Logs already on disk were tagged
 * as HMAC-SHA256 under the workspace key over `<prev>\n<skipped>\n<line without its tag>`, chained
 * from `vtplan-session-log/1 <session id>`; a reader computed differently would refuse every one
 * of them. The tags here are computed by hand, not by the module under test.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { EventSequencer } from '../../../src/core/session/events';
import { parseSessionLog, sealLine, initialHead } from '../../../src/core/session/log';

const SESSION = 's-format';
const key = randomBytes(32);
const seed = `vtplan-session-log/1 ${SESSION}`;
const hmac = (input: string): string => createHmac('sha256', key).update(input).digest('hex');
const tagged = (body: string, tag: string): string => `${body.slice(0, -1)},"mac":"${tag}"}`;

function bodies(): string[] {
  const seq = new EventSequencer(SESSION, { now: () => Date.parse('2026-12-01T00:00:00.000Z') });
  return [
    seq.stamp({ type: 'notice', level: 'info', text: 'Planning starts' }),
    seq.stamp({ type: 'message.completed', text: 'First answer', finishReason: 'stop' }),
    seq.stamp({ type: 'message.completed', text: 'Second answer', finishReason: 'stop' }),
  ].map((e) => JSON.stringify(e));
}

test('STORE-2: a line is sealed with HMAC-SHA256 over the chain head and the line, joined by newlines', () => {
  const [body] = bodies() as [string];
  const sealed = sealLine(key, initialHead(SESSION), body);
  const tag = hmac(`${seed}\n\n${body}`);
  assert.equal(sealed.line, tagged(body, tag));
  assert.deepEqual(sealed.head, { prev: tag, skipped: '' });
});

test('STORE-2: a log tagged by hand in that format verifies, and a line after a foreign one chains over its digest', () => {
  const [b1, b2, b3] = bodies() as [string, string, string];
  const t1 = hmac(`${seed}\n\n${b1}`);
  const t2 = hmac(`${t1}\n\n${b2}`);
  const foreign = '{"type":"mode.changed","to":"auto"}';
  const skipped = createHash('sha256').update(`${foreign}\n`).digest('hex');
  const t3 = hmac(`${t2}\n${skipped}\n${b3}`);
  const log = [tagged(b1, t1), tagged(b2, t2), foreign, tagged(b3, t3)].join('\n') + '\n';

  const contents = parseSessionLog(log, { key, sessionId: SESSION });
  assert.deepEqual(
    contents.events.map((e) => JSON.stringify(e)),
    [b1, b2, b3],
  );
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind, p.acknowledged]),
    [[3, 'unverified', true]],
  );
  assert.deepEqual(contents.head, { prev: t3, skipped: '' });
});
