/**
 * The chat view is rebuilt from the event stream (EVT-1): live events and a replayed log must give
 * the same transcript, and the footer says what the session waits for (UI-1, GATE-1, INT-1).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventSequencer, type EventInput } from '../../../src/core/session/events';
import { renderMarkdown, StreamingMarkdown } from '../../../src/extension/markdown';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { HostNotification, type EntryOf, type TranscriptEntry } from '../../../src/protocol';
import { initialState, reduce } from '../../../webview/src/store';
import { sessionStarted, stampEvents } from '../../fixtures/events';
import { shoutFlagPlan } from '../../fixtures/plans/shout-flag';

const PLAN = shoutFlagPlan();

const planning: EventInput[] = [
  sessionStarted(),
  { type: 'turn.started', agent: 'plan', kind: 'user', input: 'Add a shout flag' },
  { type: 'message.delta', text: 'Looking at ' },
  { type: 'message.delta', text: 'the greeter.' },
  { type: 'message.completed', text: 'Looking at the greeter.', finishReason: 'tool_calls' },
  { type: 'tool.call', callId: 'c1', name: 'read_file', arguments: '{"path":"src/greet.js"}' },
  { type: 'tool.result', callId: 'c1', name: 'read_file', ok: true, content: '1\tfunction greet' },
  { type: 'tool.call', callId: 'c2', name: 'write_file', arguments: '{"path":"x"}' },
  {
    type: 'tool.blocked',
    callId: 'c2',
    name: 'write_file',
    reason: 'Mutation blocked: plan mode is read-only.',
    policy: 'read_only',
  },
  { type: 'message.completed', text: `Here it is.\n<proposed_plan>\n${PLAN}\n</proposed_plan>`, finishReason: 'stop' },
  { type: 'plan.completed', text: PLAN },
  { type: 'plan.persisted', planFile: '.vtcode/plans/shout-flag.md', title: 'Shout flag' },
  { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
  { type: 'turn.completed', status: 'awaiting_approval' },
];

test('UI-1, EVT-1: live events and a replayed log give the same transcript', () => {
  const events = stampEvents(planning);
  const live = new TranscriptBuilder(() => 0.07);
  for (const e of events)
    for (const m of live.apply(e)) assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
  const replayed = new TranscriptBuilder(() => 0.07);
  replayed.replay(events);
  const kinds = (b: TranscriptBuilder) => b.snapshot().transcript.map((e) => e.kind);
  assert.deepEqual(kinds(live), ['user', 'assistant', 'tool', 'tool', 'assistant', 'plan', 'approval']);
  assert.deepEqual(kinds(replayed), kinds(live));
  const liveText = live
    .snapshot()
    .transcript.filter((e) => e.kind === 'assistant')
    .map((e) => e.kind === 'assistant' && e.text);
  assert.deepEqual(liveText[0], 'Looking at the greeter.');
  // PLAN-1: the plan markup never reaches the transcript text, after a reload either.
  const replayedText = replayed
    .snapshot()
    .transcript.filter((e) => e.kind === 'assistant')
    .map((e) => e.kind === 'assistant' && e.text);
  assert.deepEqual(replayedText, ['Looking at the greeter.', 'Here it is.']);
  assert.deepEqual(
    replayed.snapshot().transcript,
    live.snapshot().transcript,
    'the same entries, rendered HTML included',
  );
});

test('UI-1, RO-1: tool cards carry their target, status and the blocked reason', () => {
  const b = new TranscriptBuilder();
  b.replay(stampEvents(planning));
  const tools = b.snapshot().transcript.filter((e) => e.kind === 'tool');
  assert.deepEqual(
    tools.map((t) => t.kind === 'tool' && [t.name, t.target, t.status, t.blockedReason]),
    [
      ['read_file', 'src/greet.js', 'ok', null],
      ['write_file', 'x', 'blocked', 'Mutation blocked: plan mode is read-only.'],
    ],
  );
});

test('GATE-1: the gate carries the synopsis and the context figure; the footer waits for approval', () => {
  const b = new TranscriptBuilder(() => 0.07);
  b.replay(stampEvents(planning));
  const { status, transcript } = b.snapshot();
  const gate = transcript.find((e) => e.kind === 'approval');
  assert.ok(gate && gate.kind === 'approval');
  assert.equal(gate.state, 'pending');
  assert.equal(gate.contextUsage, 0.07);
  assert.equal(gate.synopsis.title, 'Shout flag');
  assert.equal(gate.synopsis.steps.length, 1);
  assert.equal(status.status, 'Waiting for approval');
  assert.equal(status.busy, false);
});

test('UI-1: "Planning..." only while a planning turn runs; blocked shows the reason', () => {
  const b = new TranscriptBuilder();
  const events = stampEvents([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    {
      type: 'turn.completed',
      status: 'blocked',
      reason: 'The plan is still invalid after 2 repairs: step 1 has no verify.',
    },
  ]);
  const statuses = events.map((e) => (b.apply(e), b.snapshot().status.status));
  assert.deepEqual(statuses, [
    null,
    'Planning...',
    'Blocked: The plan is still invalid after 2 repairs: step 1 has no verify.',
  ]);
});

test('INT-1, INT-2: an open question locks the composer with the reason until it is answered', () => {
  const b = new TranscriptBuilder();
  const events = stampEvents([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    {
      type: 'interview.requested',
      interviewId: 'c9',
      source: 'model',
      questions: [{ id: 'q1', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }], allowFreeform: true }],
    },
    { type: 'turn.completed', status: 'awaiting_input' },
  ]);
  b.replay(events);
  assert.equal(b.snapshot().status.status, 'Waiting for your answer');
  assert.match(b.snapshot().status.inputLockedReason ?? '', /Answer the question/);
  const [resolved] = stampEvents([
    { type: 'interview.resolved', interviewId: 'c9', answers: [{ questionId: 'q1', label: 'B' }], cancelled: false },
  ]);
  b.apply(resolved!);
  const entry = b.snapshot().transcript.find((e) => e.kind === 'interview');
  assert.ok(entry && entry.kind === 'interview' && entry.state === 'answered');
  assert.equal(b.snapshot().status.inputLockedReason, null);
});

test('EVT-1, GATE-2: the plan card fills in from plan.delta, and a plan re-validated from the edited file updates that card and its gate', () => {
  const b = new TranscriptBuilder();
  b.replay(
    stampEvents([
      planning[0]!,
      { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
      { type: 'plan.delta', text: '# Shout flag\n\n## Sum' },
      { type: 'plan.delta', text: 'mary\n' },
    ]),
  );
  const streaming = b.snapshot().transcript.filter((e) => e.kind === 'plan');
  assert.equal(streaming.length, 1);
  assert.ok(
    streaming[0]!.kind === 'plan' &&
      streaming[0]!.status === 'streaming' &&
      streaming[0]!.markdown === '# Shout flag\n\n## Summary\n',
  );
  b.replay(
    stampEvents([
      { type: 'message.completed', text: `<proposed_plan>\n${PLAN}\n</proposed_plan>`, finishReason: 'stop' },
      { type: 'plan.completed', text: PLAN },
      { type: 'plan.persisted', planFile: '.vtcode/plans/shout-flag.md', title: 'Shout flag' },
      { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
      { type: 'turn.completed', status: 'awaiting_approval' },
      // Ctrl+G: the user saved an edited, valid plan.
      { type: 'plan.completed', text: PLAN.replace('Lower-case stays the default.', 'Shouting is opt-in.') },
      { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
    ]),
  );
  const plans = b.snapshot().transcript.filter((e) => e.kind === 'plan');
  assert.deepEqual(
    plans.map((p) => p.kind === 'plan' && [p.status, p.revision?.number, p.revision?.source]),
    [['persisted', 2, 'editor']],
  );
  assert.match(plans[0]?.kind === 'plan' ? plans[0].markdown : '', /Shouting is opt-in\./);
  const gates = b.snapshot().transcript.filter((e) => e.kind === 'approval');
  assert.deepEqual(
    gates.map((g) => g.kind === 'approval' && g.state),
    ['pending'],
  );
});

const STREAMED =
  'I read **src/greet.js** first.\n\nIt exports `greet`:\n\n```js\nfunction greet(name) {\n\n  return `hi ${name}`;\n}\n```\n\nNext I check the [tests](https://example.com/t).';

/** The events of one turn whose answer streams in pieces of `size` characters. */
function streamedTurn(text: string, size: number, complete = true): EventInput[] {
  const pieces = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
  return [
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'Explain *greet*' },
    ...pieces.map((t): EventInput => ({ type: 'message.delta', text: t })),
    ...(complete
      ? [
          { type: 'message.completed', text, finishReason: 'stop' } as const,
          { type: 'turn.completed', status: 'idle' } as const,
        ]
      : []),
  ];
}

const assistantOf = (b: TranscriptBuilder): EntryOf<'assistant'> => {
  const e = b.snapshot().transcript.find((x): x is EntryOf<'assistant'> => x.kind === 'assistant');
  assert.ok(e, 'an assistant entry');
  return e;
};

test('UI-1: streamed text travels as appends; finished paragraphs settle once, byte-identical from then on, and only the tail is resent', () => {
  const b = new TranscriptBuilder();
  let shown: string[] | null = null;
  const history: string[][] = [];
  const settledSends = new Map<number, number>();
  for (const event of stampEvents(streamedTurn(STREAMED, 4))) {
    for (const m of b.apply(event)) {
      assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
      if (m.type === 'entry' && m.entry.kind === 'assistant' && m.entry.streaming) shown = m.entry.html;
      if (m.type === 'append') {
        assert.ok(m.html && shown, 'an assistant append carries its HTML change');
        assert.ok(m.html.keep <= shown.length);
        for (let i = 0; i < m.html.chunks.length - 1; i++)
          settledSends.set(m.html.keep + i, (settledSends.get(m.html.keep + i) ?? 0) + 1);
        shown = [...shown.slice(0, m.html.keep), ...m.html.chunks];
        assert.deepEqual(shown, assistantOf(b).html, 'what the webview rebuilds is what the host holds');
        history.push(shown);
      }
      if (m.type === 'entry' && m.entry.kind === 'assistant' && !m.entry.streaming) {
        assert.deepEqual(
          m.entry.html,
          [renderMarkdown(STREAMED)],
          'the finished message is rendered whole, in one chunk',
        );
      }
    }
  }
  const last = history.at(-1) ?? [];
  assert.equal(last.length, 4, 'three settled chunks (two paragraphs, the code block) and the tail');
  for (let i = 0; i < last.length - 1; i++) {
    assert.equal(settledSends.get(i), 1, `settled chunk ${i} was sent once`);
    for (const list of history.filter((l) => l.length > i + 1))
      assert.equal(list[i], last[i], `settled chunk ${i} is byte-identical in every later append`);
  }
  assert.equal(last.filter((c) => c.includes('<pre>')).length, 1, 'the code block with a blank line settled whole');
  assert.ok(
    last.some((c) => c.includes('function greet(name) {\n\n  return')),
    'blank line and all',
  );
  assert.deepEqual(assistantOf(b).html, [renderMarkdown(STREAMED)]);
  const userEntry = b.snapshot().transcript.find((e) => e.kind === 'user');
  assert.ok(userEntry?.kind === 'user');
  assert.equal(userEntry.html, renderMarkdown('Explain *greet*'));
});

test('EVT-1, UI-1: after a reload a finished message is rendered whole; one the log leaves mid-stream goes on from the same chunks', () => {
  const whole = new TranscriptBuilder();
  whole.replay(stampEvents(streamedTurn(STREAMED, 4)));
  assert.deepEqual(assistantOf(whole).html, [renderMarkdown(STREAMED)]);

  const events = stampEvents(streamedTurn(STREAMED, 4, false));
  const cut = events.length - 5;
  const reloaded = new TranscriptBuilder();
  reloaded.replay(events.slice(0, cut));
  const live = new TranscriptBuilder();
  for (const e of events.slice(0, cut)) live.apply(e);
  const entry = assistantOf(reloaded);
  assert.equal(entry.streaming, true);
  assert.deepEqual(entry.html, new StreamingMarkdown().update(entry.text).chunks);
  assert.equal(entry.html.join(''), assistantOf(live).html.join(''), 'the same HTML as if it had been watched live');
  let shown = entry.html;
  for (const e of events.slice(cut)) {
    for (const m of reloaded.apply(e))
      if (m.type === 'append' && m.html) shown = [...shown.slice(0, m.html.keep), ...m.html.chunks];
  }
  assert.deepEqual(shown, assistantOf(reloaded).html);
  assert.equal(assistantOf(reloaded).text, STREAMED);
});

test('UI-1: reasoning streams as plain text, without HTML', () => {
  const b = new TranscriptBuilder();
  const out = stampEvents([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'reasoning.delta', text: '<b>why</b>' },
    { type: 'reasoning.delta', text: ' not' },
  ]).flatMap((e) => b.apply(e));
  const append = out.find((m) => m.type === 'append');
  assert.deepEqual(append, { type: 'append', id: append?.type === 'append' ? append.id : '', text: ' not' });
  const reasoning = b.snapshot().transcript.find((e) => e.kind === 'reasoning');
  assert.deepEqual(reasoning && { ...reasoning, id: '' }, {
    kind: 'reasoning',
    id: '',
    text: '<b>why</b> not',
    streaming: true,
  });
});

test('UI-1, EVT-1, SYN-4: plan cards carry the plan rendered, from the first delta to approval, and a rejected draft rendered', () => {
  const plans = (b: TranscriptBuilder) =>
    b.snapshot().transcript.filter((e): e is EntryOf<'plan'> => e.kind === 'plan');
  const b = new TranscriptBuilder();
  const sent: TranscriptEntry[] = [];
  const seq = new EventSequencer('s-1', { now: () => 1_700_000_000_000 });
  const apply = (inputs: EventInput[]) => {
    for (const input of inputs) {
      if (input.type === 'turn.started') seq.beginTurn();
      for (const m of b.apply(seq.stamp(input))) if (m.type === 'entry') sent.push(m.entry);
    }
  };
  apply([planning[0]!, { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' }]);
  let markdown = '';
  for (const piece of PLAN.match(/[\s\S]{1,9}/g) ?? []) {
    markdown += piece;
    apply([{ type: 'plan.delta', text: piece }]);
    const [card] = plans(b);
    assert.equal(card?.markdown, markdown);
    // Cut only between blocks that do not interact, so the streamed chunks read as the whole rendered.
    assert.equal(card?.html, renderMarkdown(markdown));
  }
  const draft = PLAN.replace(/ -> verify: \[[^\]]*\]/, '');
  apply([
    { type: 'message.completed', text: `<proposed_plan>\n${draft}\n</proposed_plan>`, finishReason: 'stop' },
    {
      type: 'plan.rejected',
      draft,
      reasons: [{ code: 'missing_verify', message: 'Step 1 has no verify.', line: 7 }],
      attempt: 0,
      final: false,
    },
  ]);
  assert.equal(plans(b)[0]?.status, 'rejected');
  assert.equal(plans(b)[0]?.html, renderMarkdown(draft));
  apply([
    { type: 'plan.completed', text: PLAN },
    { type: 'plan.persisted', planFile: '.vtcode/plans/shout-flag.md', title: 'Shout flag' },
    { type: 'plan.approval.requested', planFile: '.vtcode/plans/shout-flag.md' },
    { type: 'turn.completed', status: 'awaiting_approval' },
    { type: 'plan.approval.resolved', planFile: '.vtcode/plans/shout-flag.md', choice: 'execute', automatic: false },
  ]);
  const [, approved] = plans(b);
  assert.equal(approved?.status, 'approved');
  assert.equal(approved?.html, renderMarkdown(PLAN));
  for (const e of sent) assert.ok(HostNotification.safeParse({ type: 'entry', entry: e }).success);
  assert.ok(
    sent.filter((e) => e.kind === 'plan').every((e) => e.kind === 'plan' && e.html !== ''),
    'every plan card sent had its HTML',
  );
});

test('RO-1, UI-1: the header status carries the sandbox state from session.started (live and replayed)', () => {
  const b = new TranscriptBuilder();
  const sandbox = { sandboxed: false, summary: 'sandbox: unavailable (bwrap not found) — policy only' };
  for (const e of stampEvents([sessionStarted({ sandbox })])) b.apply(e);
  assert.deepEqual(b.snapshot().status.sandbox, sandbox);
  const older = new TranscriptBuilder();
  for (const e of stampEvents([sessionStarted()])) older.apply(e);
  assert.equal(older.snapshot().status.sandbox, null, 'a log from before the field says nothing rather than guessing');
});

test('EVT-1, UI-1: a streaming plan travels as its card once, then appends with only the HTML that changed; the webview rebuilds the card from them, after a reload too', () => {
  const b = new TranscriptBuilder();
  let view = reduce(initialState, { type: 'state', ...b.snapshot() });
  const seq = new EventSequencer('s-1', { now: () => 1_700_000_000_000 });
  const sent: HostNotification[] = [];
  const apply = (input: EventInput) => {
    if (input.type === 'turn.started') seq.beginTurn();
    for (const m of b.apply(seq.stamp(input))) {
      assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
      sent.push(m);
      view = reduce(view, m);
    }
  };
  const cardIn = (state: typeof view) => state.transcript.find((e): e is EntryOf<'plan'> => e.kind === 'plan');
  const hostCard = () => b.snapshot().transcript.find((e): e is EntryOf<'plan'> => e.kind === 'plan');
  apply(planning[0]!);
  apply({ type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' });
  const pieces = PLAN.match(/[\s\S]{1,9}/g) ?? [];
  const half = Math.floor(pieces.length / 2);
  let markdown = '';
  for (const [i, piece] of pieces.entries()) {
    if (i === half) {
      // The webview reloads mid-stream: it starts over from a snapshot and the appends go on.
      view = reduce(initialState, { type: 'state', ...b.snapshot() });
    }
    markdown += piece;
    sent.length = 0;
    apply({ type: 'plan.delta', text: piece });
    assert.deepEqual(
      sent.map((m) => m.type),
      [i === 0 ? 'entry' : 'append'],
      `delta ${i}`,
    );
    const card = cardIn(view);
    assert.equal(card?.markdown, markdown);
    assert.equal(card?.html, renderMarkdown(markdown));
    assert.deepEqual(card?.htmlChunks, hostCard()?.htmlChunks, "the chunks the webview rebuilt are the host's");
    const append = sent[0];
    if (append?.type === 'append') {
      assert.equal(append.text, piece);
      assert.ok(
        append.html && append.html.chunks.length <= 2,
        'a delta carries at most a newly settled block and the tail',
      );
    }
  }
  assert.ok((hostCard()?.htmlChunks?.length ?? 0) >= 3, 'blocks settled along the way');
  apply({ type: 'plan.completed', text: PLAN });
  assert.equal(cardIn(view)?.htmlChunks, undefined, 'the finished plan is one whole card again');
  assert.equal(cardIn(view)?.html, renderMarkdown(PLAN));
});

test('EVT-1: after a reload that left a plan mid-stream, its next delta sends the card whole with its chunks, then appends', () => {
  const events = stampEvents([
    planning[0]!,
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'plan.delta', text: '# Shout flag\n\n## Summary\n' },
    { type: 'plan.delta', text: 'Add a flag.' },
  ]);
  const b = new TranscriptBuilder();
  b.replay(events.slice(0, 3));
  let view = reduce(initialState, { type: 'state', ...b.snapshot() });
  const first = b.apply(events[3]!);
  assert.deepEqual(
    first.map((m) => m.type),
    ['entry'],
  );
  for (const m of first) view = reduce(view, m);
  const seq = new EventSequencer(
    's-1',
    { now: () => 1_700_000_000_000 },
    { seq: events[3]!.seq, turn: events[3]!.turn },
  );
  const next = b.apply(seq.stamp({ type: 'plan.delta', text: ' Default off.\n' }));
  assert.deepEqual(
    next.map((m) => m.type),
    ['append'],
  );
  for (const m of next) view = reduce(view, m);
  const card = view.transcript.find((e): e is EntryOf<'plan'> => e.kind === 'plan');
  assert.equal(card?.markdown, '# Shout flag\n\n## Summary\nAdd a flag. Default off.\n');
  assert.equal(card?.html, renderMarkdown(card?.markdown ?? ''));
});
