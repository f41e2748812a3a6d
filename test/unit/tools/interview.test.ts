import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { requestUserInputTool, startPlanningTool } from '../../../src/core/tools';
import { ctxFor, makeWorkspace } from './helpers';

const ws = makeWorkspace();
test.after(() => ws.cleanup());

test('INT-1: request_user_input returns an interview outcome in the event shape, labels unchanged', async () => {
  const r = await requestUserInputTool.run(
    {
      questions: [
        {
          id: 'storage',
          header: 'Storage',
          question: 'Where should sessions be stored?',
          options: [
            { label: 'SQLite (Recommended)', description: 'One file, transactional.', recommended: true },
            { label: 'JSON files' },
          ],
        },
        { question: 'Keep the old API?', options: [{ label: 'Yes' }, { label: 'No' }], allow_note: false },
      ],
    },
    ctxFor(ws),
  );
  assert.ok(r.ok, r.content);
  assert.deepEqual(r.outcome, {
    kind: 'interview',
    questions: [
      {
        id: 'storage',
        header: 'Storage',
        question: 'Where should sessions be stored?',
        options: [
          { label: 'SQLite (Recommended)', description: 'One file, transactional.', recommended: true },
          { label: 'JSON files' },
        ],
        allowFreeform: true,
      },
      { id: 'q2', question: 'Keep the old API?', options: [{ label: 'Yes' }, { label: 'No' }], allowFreeform: false },
    ],
  });
  assert.equal(r.summary, 'asked the user 2 questions: Where should sessions be stored?');
});

test('INT-1: request_user_input is available in every mode (it asks, it does not change anything)', async () => {
  for (const mode of ['plan', 'build', 'auto'] as const) {
    const r = await requestUserInputTool.run(
      { questions: [{ question: 'Q?', options: [{ label: 'A' }, { label: 'B' }] }] },
      ctxFor(ws, { mode }),
    );
    assert.equal(r.outcome?.kind, 'interview', mode);
  }
});

test('INT-1: malformed interviews name the bad field', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ questions: [] }, /`questions`: Too small/],
    [{ questions: [{ question: 'Q?', options: [{ label: 'Only' }] }] }, /`questions\[0\]\.options`: Too small/],
    [
      { questions: [{ question: 'Q?', options: [{ label: 'A' }, { label: 'a' }] }] },
      /`questions\[0\]\.options\[1\]\.label`: duplicate option label "a"/,
    ],
    [
      {
        questions: [
          {
            question: 'Q?',
            options: [
              { label: 'A', recommended: true },
              { label: 'B', recommended: true },
            ],
          },
        ],
      },
      /`questions\[0\]\.options`: at most one option may be recommended/,
    ],
    [
      {
        questions: [
          { id: 'x', question: 'Q?', options: [{ label: 'A' }, { label: 'B' }] },
          { id: 'x', question: 'R?', options: [{ label: 'A' }, { label: 'B' }] },
        ],
      },
      /`questions\[1\]\.id`: duplicate question id "x"/,
    ],
    [
      { questions: [{ question: '  ', options: [{ label: 'A' }, { label: 'B' }] }] },
      /`questions\[0\]\.question`: Too small/,
    ],
    [{ question: 'Q?' }, /unknown field `question`/],
  ];
  for (const [args, expected] of cases) {
    const r = await requestUserInputTool.run(args, ctxFor(ws));
    assert.equal(r.ok, false, JSON.stringify(args));
    assert.equal(r.outcome, undefined);
    assert.match(r.content, expected);
  }
});

test('MODE-4: start_planning returns a planning_suggested outcome with the reason and changes nothing', async () => {
  const r = await startPlanningTool.run(
    { reason: 'The migration touches three services.' },
    ctxFor(ws, { mode: 'build' }),
  );
  assert.ok(r.ok);
  assert.deepEqual(r.outcome, { kind: 'planning_suggested', reason: 'The migration touches three services.' });
  assert.match(r.content, /nothing changes until they decide/);
  const planning = await startPlanningTool.run({ reason: 'x' }, ctxFor(ws, { mode: 'plan' }));
  assert.equal(planning.error?.code, 'refused');
  assert.equal(planning.outcome, undefined);
  const noReason = await startPlanningTool.run({}, ctxFor(ws, { mode: 'auto' }));
  assert.match(noReason.content, /`reason`: /);
});
