/**
 * INT-1, SYN-3: what the user is asked and what the model is told they answered, as plain values
 * (`recoveryInterview`, `answerText`), before any session renders or sends them.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { answerText, recoveryInterview, RECOVERY_CHOICES } from '../../../src/core/session/interview';

test('INT-1: the model is told each answer under its question (its id when unknown), with the chosen label verbatim and the note, one line per answer', () => {
  const questions = [
    { id: 'port', question: 'Which port?', options: [{ label: '8080' }], allowFreeform: true },
    { id: 'store', question: 'Which store?', options: [{ label: 'Redis' }, { label: 'Memory' }], allowFreeform: false },
  ];
  const text = answerText(questions, [
    { questionId: 'store', label: 'Memory', note: 'tests only' },
    { questionId: 'port' },
    { questionId: 'withdrawn', label: 'Yes' },
  ]);
  assert.equal(
    text,
    [
      'The user answered:',
      '- Which store?: selected "Memory"; note: tests only',
      '- Which port?: no option selected',
      '- withdrawn: selected "Yes"',
    ].join('\n'),
  );
});

test('SYN-3: the recovery interview asks once, under a header, for one of the three recovery choices, each described, retrying recommended, free text allowed', () => {
  const questions = recoveryInterview();
  assert.equal(questions.length, 1);
  const [q] = questions;
  assert.ok(q?.header, 'the question has a header');
  assert.deepEqual(
    q.options.map((o) => [o.label, o.recommended === true]),
    [
      [RECOVERY_CHOICES[0], true],
      [RECOVERY_CHOICES[1], false],
      [RECOVERY_CHOICES[2], false],
    ],
  );
  for (const o of q.options) assert.ok(o.description, `'${o.label}' is described`);
  assert.equal(q.allowFreeform, true, '"Add clarification" needs free text');
});
