/**
 * NAV-4 in an execution agent, as a session sees it: navigation's verdict (three same-target
 * listings, or twelve low-signal outcomes in one window) starts the same tool-free recovery pass a
 * tripped fuse starts (FUSE-1): one `recovery` directive naming the dominant churn family, a
 * notice for the user, the next request with `tool_choice: none`, a tool call in the pass counted
 * by the recovery fuse, and tools open again on the next turn. A pass already pending is never
 * announced twice.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMITS, of, useHarness } from './harness';

const h = useHarness();

const listSrc = (id: string) => ({ id, name: 'list_dir', arguments: '{"path":"src"}' });
const listDir = (id: string, path: string) => ({ id, name: 'list_dir', arguments: JSON.stringify({ path }) });
/** A grep that finds nothing: a low-signal outcome of the family `exec::inspection::grep::*`. */
const fruitlessGrep = (n: number) => ({
  id: `g${n}`,
  name: 'grep',
  arguments: JSON.stringify({ pattern: `nothing-here-${n}` }),
});
/** A read of a missing file: a low-signal outcome of its own family `exec::inspection::read_file::<path>`. */
const missingRead = (n: number) => ({
  id: `m${n}`,
  name: 'read_file',
  arguments: JSON.stringify({ path: `missing-${n}.txt` }),
});

test('NAV-4, FUSE-1: in build, four list_dir calls on src in one batch start one tool-free recovery pass naming the churn family', async () => {
  h.server.enqueue(
    { toolCalls: [listSrc('l1'), listSrc('l2'), listSrc('l3'), listSrc('l4')] },
    { text: 'src holds greet.js; I edit it next.' },
  );
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Look at src'), { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok]),
    [
      ['l1', true],
      ['l2', true],
      ['l3', true],
      ['l4', true],
    ],
    'the pass follows the batch: every call of it runs',
  );
  const directives = of(events, 'directive');
  assert.deepEqual(
    directives.map((d) => [d.kind, d.toolsClosed]),
    [['recovery', true]],
    'one pass, announced once although the fourth listing is past the tripwire too',
  );
  assert.match(directives[0]?.text ?? '', /\(repeated listing of one target: exec::inspection::list_dir::src ×3\)/);
  assert.match(directives[0]?.text ?? '', /Do not call tools in this reply/);
  assert.doesNotMatch(directives[0]?.text ?? '', /\{\{reason\}\}/);
  const notices = of(events, 'notice').map((n) => [n.level, n.text]);
  assert.deepEqual(notices, [
    [
      'info',
      'Tool calls stopped adding evidence (repeated listing of one target: exec::inspection::list_dir::src ×3). The agent answers once without tools from what it found; tools reopen with your next message.',
    ],
  ]);
  assert.equal(h.server.requests.length, 2);
  assert.equal(h.body(0).tool_choice, 'auto');
  assert.equal(h.body(1).tool_choice, 'none', 'the recovery request is tool-free');
  assert.equal(
    String(h.body(1).messages.at(-1)?.content),
    directives[0]?.text,
    'the directive is what the model reads',
  );
});

test('NAV-4: in auto, three `ls` variants over src across three requests start the recovery pass named exec::inspection::ls::src ×3', async () => {
  const commands = ['ls src', 'ls -la src', 'ls -1 src'];
  h.server.enqueue(
    ...commands.map((command, i) => ({
      toolCalls: [{ id: `c${i + 1}`, name: 'run_command', arguments: JSON.stringify({ command }) }],
    })),
    { text: 'src holds greet.js.' },
  );
  const { session, events } = await h.start('auto');
  assert.deepEqual(await session.submit('Look at src'), { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.result').map((r) => [r.callId, r.ok]),
    commands.map((_, i) => [`c${i + 1}`, true]),
  );
  const [pass, ...more] = of(events, 'directive');
  assert.equal(more.length, 0);
  assert.equal(pass?.kind, 'recovery');
  assert.match(pass?.text ?? '', /\(repeated listing of one target: exec::inspection::ls::src ×3\)/);
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => h.body(i).tool_choice),
    ['auto', 'auto', 'auto', 'none'],
    'only the request after the third listing is tool-free',
  );
});

test('NAV-4: listings of distinct trees never group: two of src and two of test in build start no pass', async () => {
  h.server.enqueue(
    { toolCalls: [listDir('a1', 'src'), listDir('a2', 'test'), listDir('a3', 'src/'), listDir('a4', './test')] },
    { text: 'Both folders hold one file.' },
  );
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Look at src and test'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'tool.result').length, 4);
  assert.deepEqual(of(events, 'directive'), []);
  assert.deepEqual(of(events, 'notice'), []);
  assert.equal(h.body(1).tool_choice, 'auto');
});

test('NAV-4: twelve diverse low-signal outcomes in build start the recovery pass naming the dominant churn family', async () => {
  // Eight fruitless greps and four reads of missing files: no family repeats often enough to be a
  // same-target listing, and the grep family dominates.
  const calls = [
    ...[1, 2, 3, 4].map(fruitlessGrep),
    ...[1, 2].map(missingRead),
    ...[5, 6, 7, 8].map(fruitlessGrep),
    ...[3, 4].map(missingRead),
  ];
  h.server.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: 'Nothing matches; the names differ.' });
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Find the helper'), { kind: 'ran', status: 'idle' });
  const [pass, ...more] = of(events, 'directive');
  assert.equal(more.length, 0);
  assert.equal(pass?.kind, 'recovery');
  assert.match(
    pass?.text ?? '',
    /\(12 low-signal outcomes without progress; dominant churn family exec::inspection::grep::\* ×8\)/,
  );
  assert.equal(h.server.requests.length, 13);
  assert.equal(h.body(11).tool_choice, 'auto', 'eleven outcomes leave tools open');
  assert.equal(h.body(12).tool_choice, 'none');
});

test('NAV-4: a write resets the execution churn window, so eleven fruitless searches on each side of it start no pass', async () => {
  const write = { id: 'w1', name: 'write_file', arguments: '{"path":"notes.txt","content":"progress"}' };
  const before = Array.from({ length: 11 }, (_, i) => fruitlessGrep(i + 1));
  const after = Array.from({ length: 11 }, (_, i) => fruitlessGrep(i + 12));
  h.server.enqueue(...[...before, write, ...after].map((call) => ({ toolCalls: [call] })), {
    text: 'Wrote the notes; nothing else matched.',
  });
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Search, note, search'), { kind: 'ran', status: 'idle' });
  assert.equal(of(events, 'tool.result').find((r) => r.callId === 'w1')?.ok, true, 'the write is a mutation');
  assert.deepEqual(of(events, 'directive'), []);
  assert.equal(h.body(23).tool_choice, 'auto');
});

test('NAV-4, FUSE-1: a tool call in the execution recovery pass is counted by the recovery fuse and the pass is not announced again', async () => {
  h.server.enqueue(
    { toolCalls: [listSrc('l1'), listSrc('l2'), listSrc('l3')] },
    { toolCalls: [listSrc('l4')] },
    { text: 'src holds greet.js.' },
  );
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Look at src'), { kind: 'ran', status: 'idle' });
  const refused = of(events, 'tool.blocked');
  assert.deepEqual(
    refused.map((b) => [b.callId, b.policy]),
    [['l4', 'fuse']],
  );
  assert.deepEqual(
    of(events, 'directive').map((d) => d.kind),
    ['recovery'],
  );
  assert.equal(of(events, 'notice').length, 1);
  assert.equal(h.body(2).tool_choice, 'none', 'the pass stays tool-free after the refused call');
});

test('NAV-4, FUSE-1: with the recovery fuse at cap 1, two calls in the execution recovery pass end the turn blocked', async () => {
  h.server.enqueue(
    { toolCalls: [listSrc('l1'), listSrc('l2'), listSrc('l3')] },
    { toolCalls: [listSrc('l4'), listSrc('l5')] },
    { text: 'never requested' },
  );
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 1 } }));
  assert.deepEqual(await session.submit('Look at src'), { kind: 'ran', status: 'blocked' });
  assert.match(
    of(events, 'turn.completed').at(-1)?.reason ?? '',
    /^Turn blocked: Blocked tool-call limit reached during recovery/,
  );
  assert.equal(h.server.requests.length, 2);
});

test('NAV-4: a pass the fuse armed in the same batch is not announced again by navigation', async () => {
  // Cap 1: the third listing schedules navigation's pass, then two blocked writes trip the fuse.
  const outside = (id: string) => ({ id, name: 'write_file', arguments: '{"path":"../outside.txt","content":"x"}' });
  h.server.enqueue(
    { toolCalls: [listSrc('l1'), listSrc('l2'), listSrc('l3'), outside('w1'), outside('w2')] },
    { text: 'Stopping here.' },
  );
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, maxConsecutiveBlocked: 1 } }));
  assert.deepEqual(await session.submit('List and write'), { kind: 'ran', status: 'idle' });
  const directives = of(events, 'directive');
  assert.deepEqual(
    directives.map((d) => d.kind),
    ['recovery'],
  );
  assert.match(directives[0]?.text ?? '', /\(Blocked tool-call limit reached: more than 1 consecutive blocked calls\./);
  assert.doesNotMatch(directives[0]?.text ?? '', /list_dir/);
  assert.deepEqual(of(events, 'notice'), [], 'no churn notice for a pass the fuse started');
  assert.equal(h.body(1).tool_choice, 'none');
});

test('NAV-4: after the execution recovery pass the next turn has tools again and starts counting listings afresh', async () => {
  h.server.enqueue(
    { toolCalls: [listSrc('l1'), listSrc('l2'), listSrc('l3')] },
    { text: 'src holds greet.js.' },
    { toolCalls: [listSrc('n1'), listSrc('n2')] },
    { text: 'Still greet.js.' },
  );
  const { session, events } = await h.start('build');
  assert.deepEqual(await session.submit('Look at src'), { kind: 'ran', status: 'idle' });
  assert.deepEqual(await session.submit('Look again'), { kind: 'ran', status: 'idle' });
  assert.equal(h.body(2).tool_choice, 'auto', 'the next turn offers tools');
  assert.ok((h.body(2).tools ?? []).some((t) => t.function.name === 'list_dir'));
  assert.deepEqual(
    of(events, 'tool.result')
      .filter((r) => r.callId.startsWith('n'))
      .map((r) => [r.callId, r.ok]),
    [
      ['n1', true],
      ['n2', true],
    ],
  );
  assert.equal(of(events, 'directive').length, 1, 'two listings in the new turn are below the tripwire');
  assert.equal(h.body(3).tool_choice, 'auto');
});

test('NAV-4, NAV-6: in build, a used-up tool-call budget refuses the call but starts no pass; only navigation or the fuse closes tools', async () => {
  const read = (id: string) => ({ id, name: 'read_file', arguments: '{"path":"README.md"}' });
  h.server.enqueue({ toolCalls: [read('r1'), read('r2'), read('r3')] }, { text: 'Read it twice.' });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, toolCallsPerTurn: 2 } }));
  assert.deepEqual(await session.submit('Read the readme'), { kind: 'ran', status: 'idle' });
  assert.deepEqual(
    of(events, 'tool.blocked').map((b) => [b.callId, b.policy]),
    [['r3', 'budget']],
  );
  assert.equal(of(events, 'budget_exhausted').length, 1);
  assert.deepEqual(of(events, 'directive'), []);
  assert.equal(h.body(1).tool_choice, 'auto');
});
