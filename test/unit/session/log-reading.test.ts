/**
 * EVT-1, STORE-2: what the reader of a session log reports for each kind of line it does not apply
 * (with the message a user or a bug report sees), what it refuses to apply even when signed, and
 * the notice a resumed session shows for the lines it ignored (MODE-1, GATE-5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { EventSequencer, type SessionEvent } from '../../../src/core/session/events';
import {
  initialHead,
  integrityNotice,
  parseSessionLog,
  resumePoint,
  sealLine,
  SessionLogError,
  sessionLogPath,
  untrustedLines,
  type ChainHead,
} from '../../../src/core/session/log';

const SESSION = 's-read';
const key = randomBytes(32);
const clock = { now: () => Date.parse('2026-12-02T05:00:00.000Z') };

function stamped(): EventSequencer {
  return new EventSequencer(SESSION, clock);
}

/** Seals each body on the chain, as the writer does when no line was passed over. */
function signed(bodies: readonly string[]): string {
  let head: ChainHead = initialHead(SESSION);
  const lines: string[] = [];
  for (const body of bodies) {
    const sealed = sealLine(key, head, body);
    lines.push(sealed.line);
    head = sealed.head;
  }
  return lines.map((l) => `${l}\n`).join('');
}

const read = (text: string) => parseSessionLog(text, { key, sessionId: SESSION });
const problemsOf = (text: string) => read(text).problems.map((p) => [p.line, p.kind, p.message]);

function notice(text: string): string {
  const seq = stamped();
  return JSON.stringify(seq.stamp({ type: 'notice', level: 'info', text }));
}

test('STORE-2: a signed line with text added after its tag is not applied', () => {
  const line = signed([notice('genuine')]).trimEnd();
  const contents = read(`${line} \n`);
  assert.deepEqual(contents.events, []);
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind, p.tag]),
    [[1, 'unverified', 'missing']],
  );
  const junk = read(`${line}x\n`);
  assert.deepEqual(junk.events, []);
  assert.deepEqual(
    junk.problems.map((p) => [p.line, p.kind]),
    [[1, 'invalid_json']],
  );
});

test('STORE-2: a signed event of another session is reported as such and not applied', () => {
  const other = new EventSequencer('s-other', clock).stamp({ type: 'notice', level: 'info', text: 'x' });
  const contents = read(signed([JSON.stringify(other)]));
  assert.deepEqual(contents.events, []);
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind, p.message]),
    [[1, 'invalid_event', 'the event belongs to session "s-other"']],
  );
});

test('EVT-1: a signed line that is not JSON, or not an event, is reported with the reason and not applied', () => {
  const seq = stamped();
  const good = JSON.stringify(seq.stamp({ type: 'notice', level: 'info', text: 'kept' }));
  const noSession = JSON.stringify({ type: 'notice', level: 'info', text: 'x', turn: 0, seq: 5, ts: 'x' });
  const emptyChoice = JSON.stringify({
    ...seq.stamp({ type: 'notice', level: 'info', text: 'x' }),
    type: 'planning.awaiting_input',
    reason: 'r',
    choices: [''],
    level: undefined,
    text: undefined,
  });
  const contents = read(signed(['{"broken"}', '{"type":"bogus"}', noSession, emptyChoice, good]));
  assert.deepEqual(
    contents.events.map((e) => JSON.stringify(e)),
    [good],
  );
  let parseError = '';
  try {
    JSON.parse('{"broken"}');
  } catch (err) {
    parseError = (err as Error).message;
  }
  const [p1, p2, p3, p4, ...rest] = contents.problems;
  assert.deepEqual(rest, []);
  assert.deepEqual([p1?.line, p1?.kind, p1?.message], [1, 'invalid_json', parseError]);
  assert.deepEqual([p2?.line, p2?.kind], [2, 'invalid_event']);
  assert.match(p2?.message ?? '', /^type: Invalid discriminator value\. Expected 'session\.started' \| /);
  assert.deepEqual(
    [p3?.line, p3?.kind, p3?.message],
    [3, 'invalid_event', 'session: Invalid input: expected string, received undefined'],
  );
  assert.deepEqual([p4?.line, p4?.kind], [4, 'invalid_event']);
  assert.match(p4?.message ?? '', /^choices\.0: \S/, 'a nested field is named by its dotted path');
});

test('EVT-1: a signed line repeating the seq of the line before is out of order and not applied', () => {
  const seq = stamped();
  const first = seq.stamp({ type: 'notice', level: 'info', text: 'one' });
  const again = { ...seq.stamp({ type: 'notice', level: 'info', text: 'two' }), seq: first.seq };
  const contents = read(signed([JSON.stringify(first), JSON.stringify(again)]));
  assert.deepEqual(
    contents.events.map((e) => e.seq),
    [first.seq],
  );
  assert.deepEqual(
    contents.problems.map((p) => [p.line, p.kind, p.message]),
    [[2, 'out_of_order', `seq ${first.seq} after seq ${first.seq}`]],
  );
});

test('EVT-1: an empty or blank line is reported as an empty line', () => {
  const seq = stamped();
  const a = JSON.stringify(seq.stamp({ type: 'notice', level: 'info', text: 'a' }));
  const [l1] = signed([a]).split('\n') as [string];
  assert.deepEqual(problemsOf(`${l1}\n\n   \n`), [
    [2, 'invalid_json', 'empty line'],
    [3, 'invalid_json', 'empty line'],
  ]);
});

test('EVT-1: a cut-off last line is reported as truncated with the parse error, also after a leading empty line', () => {
  let parseError = '';
  try {
    JSON.parse('{"type":');
  } catch (err) {
    parseError = (err as Error).message;
  }
  const message = `last line is incomplete (a write was cut short): ${parseError}`;
  assert.deepEqual(problemsOf('{"type":'), [[1, 'truncated', message]]);
  assert.deepEqual(problemsOf('\n{"type":'), [
    [1, 'invalid_json', 'empty line'],
    [2, 'truncated', message],
  ]);
});

test('STORE-2: an unsigned line and a line whose tag does not match are reported with what each means', () => {
  const seq = stamped();
  const a = JSON.stringify(seq.stamp({ type: 'notice', level: 'info', text: 'a' }));
  const forged = `${a.slice(0, -1)},"mac":"${'0'.repeat(64)}"}`;
  assert.deepEqual(problemsOf(`${a}\n${forged}\n`), [
    [
      1,
      'unverified',
      'no integrity tag: the line was not written by VT Code Planning (or by a version before it signed its logs)',
    ],
    [
      2,
      'unverified',
      'the integrity tag does not match: this line, or one before it, was changed, added, moved or removed outside VT Code, or the log was signed with another key',
    ],
  ]);
});

test('STORE-2: only a one-line JSON object can be sealed', () => {
  const head = initialHead(SESSION);
  for (const body of ['x"}', '["a"]}', '{"a":1', '{"a":\n1}']) {
    assert.throws(
      () => sealLine(key, head, body),
      (err: unknown) =>
        err instanceof SessionLogError &&
        err.name === 'SessionLogError' &&
        err.message === 'only a one-line JSON object can be sealed' &&
        err.path === '',
      body,
    );
  }
});

test('STORE-2: reading with a short key is refused with the key size, naming no file', () => {
  assert.throws(
    () => parseSessionLog('', { key: randomBytes(16), sessionId: SESSION }),
    (err: unknown) =>
      err instanceof SessionLogError &&
      err.message === 'the session-log key has 16 bytes; at least 32 are needed' &&
      err.path === '',
  );
});

test('ADD-4: an invalid session id is refused with the rule it breaks', () => {
  assert.throws(
    () => sessionLogPath('/w', 'a/b'),
    new SessionLogError(
      'invalid session id "a/b": a session id is 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit',
      '/w',
    ),
  );
  assert.throws(
    () => sessionLogPath('/w', 'a..b'),
    (err: unknown) =>
      err instanceof SessionLogError && err.message === 'invalid session id "a..b": a session id cannot contain ".."',
  );
});

/** A hand-made tag: the chain seed plus `skipped` over `body`, as log-format.test.ts pins it. */
function tagWith(head: ChainHead, body: string): string {
  return createHmac('sha256', key).update(`${head.prev}\n${head.skipped}\n`).update(body).digest('hex');
}

test('MODE-1, GATE-5: the resume notice lists ignored lines as ranges of three or more, singly otherwise', () => {
  const seq = stamped();
  const ok = JSON.stringify(seq.stamp({ type: 'notice', level: 'info', text: 'ok' }));
  const okLine = `${ok.slice(0, -1)},"mac":"${tagWith(initialHead(SESSION), ok)}"}`;
  const bad = '{"type":"mode.changed"}';
  // lines 2-4, 6, 7 and 9 are unsigned; 1, 5 and 8 are blank only to keep the numbering.
  const text = [okLine, bad, bad, bad, '', bad, bad, '', bad].join('\n') + '\n';
  const contents = read(text);
  const lines = [2, 3, 4, 6, 7, 9];
  assert.equal(
    integrityNotice(contents, lines),
    'The session log was changed outside VT Code: lines 2\u20134, 6, 7, 9 were ignored; resuming in plan mode.',
  );
});

test('STORE-2: a log without tags whose last line was cut short is still reported as unsigned', () => {
  const text = '{"type":"mode.changed"}\n{"type":';
  const contents = read(text);
  const lines = untrustedLines(contents);
  assert.deepEqual(lines, [1]);
  assert.equal(
    integrityNotice(contents, lines),
    'The session log has no integrity tags (it was written before VT Code Planning signed its logs, or not by VT Code): line 1 was ignored; resuming in plan mode.',
  );
});

test('STORE-2: no verified line, some unsigned and some with a wrong tag: the log could not be verified', () => {
  const forged = `{"type":"notice","mac":"${'0'.repeat(64)}"}`;
  const contents = read(`{"type":"mode.changed"}\n${forged}\n`);
  const lines = untrustedLines(contents);
  assert.equal(
    integrityNotice(contents, lines),
    'The session log could not be verified: lines 1, 2 were ignored; resuming in plan mode. It was changed outside VT Code, or signed with a key this computer does not have for this folder (a log copied from another machine or folder, or a replaced key).',
  );
});

test('STORE-2: no verified line, a wrong tag and a broken line: the log was changed outside VT Code', () => {
  const forged = `{"type":"notice","mac":"${'0'.repeat(64)}"}`;
  const contents = read(`${forged}\n{broken\n{"type":"mode.changed"}\n`);
  const lines = untrustedLines(contents);
  assert.equal(
    integrityNotice(contents, lines),
    'The session log was changed outside VT Code: lines 1\u20133 were ignored; resuming in plan mode.',
  );
});

test('ADD-4: a resume continues after the highest seq in the last turn; an empty log gives no resume point', () => {
  assert.equal(resumePoint([]), undefined);
  const seq = stamped();
  const events: SessionEvent[] = [seq.stamp({ type: 'notice', level: 'info', text: 'a' })];
  const second = seq.stamp({ type: 'notice', level: 'info', text: 'b' });
  events.push({ ...second, turn: 2 });
  assert.deepEqual(resumePoint(events), { seq: second.seq, turn: 2 });
});
