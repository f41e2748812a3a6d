/**
 * MODE-6: every phrase of the intent classifier (src/core/session/intents.ts) has a table row here
 * whose decision changes when that phrase is deleted from the classifier (checked by deleting each
 * one in turn, issue 19). The rows are literal on purpose: a phrase added there needs a row here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyIntent, type Intent } from '../../../src/core/session/intents';

/** Stay phrases count anywhere: inside a message that is otherwise ordinary input (`none`). */
const STAY_ANYWHERE = [
  'stay in planning',
  'stay in plan',
  'stay in the planning',
  'stay in the plan',
  'stay planning',
  'keep planning',
  'continue planning',
  'continue the planning',
  'back to planning',
  'revise the plan',
  'revise this plan',
  'revise plan',
  'edit the plan',
  'edit this plan',
  'edit plan',
  'change the plan',
  'update the plan',
  'keep in planning',
  'keep in plan',
  'dont implement',
  'do not implement',
  'dont exit',
  'do not exit',
  'not ready',
  'dont start',
  'not yet',
  'not now',
];

/** Exit words and imperatives: alone, they exit without an implementation prompt. */
const EXIT = [
  'go for it',
  'looks good to me',
  'implement',
  'implementing',
  'implementation',
  'approve',
  'approved',
  'lgtm',
  'yes',
  'y',
  'yeah',
  'yep',
  'yup',
  'go',
  'start',
  'ship',
  'execute',
  'accept',
  'accepted',
  'exit the planning',
  'exit planning',
  'exit plan mode',
  'switch to agent mode',
  'ready to implement',
  'proceed to implementation',
  'proceed to implement',
  'proceed to coding',
  'proceed with coding',
  'go ahead and code',
  'start coding',
  'begin coding',
  'start building',
];

/** Confirmations: they exit only right after the assistant asked to implement. */
const CONFIRM = [
  'go ahead',
  'sounds good',
  'looks good',
  'do it',
  'make it so',
  'ok',
  'okay',
  'k',
  'sure',
  'proceed',
  'begin',
  'alright',
  'fine',
  'good',
  'great',
  'perfect',
  'cool',
  'nice',
];

/** `continue` and friends keep planning, except right after the implementation prompt. */
const KEEP_GOING = ['keep going', 'go on', 'carry on', 'continue'];

const CANCEL = [
  'abandon planning',
  'cancel planning',
  'stop planning',
  'never mind',
  'nevermind',
  'forget it',
  'no',
  'nope',
  'nah',
  'n',
  'cancel',
  'abandon',
  'abort',
];

const STAY = ['hold on', 'wait', 'stay', 'revise', 'edit'];

/** Fillers change nothing: `yes <filler>` still exits (an unknown word would make it ordinary input). */
const FILLER = [
  'clear context',
  'fresh context',
  'switch to auto',
  'in auto mode',
  'in build mode',
  'thank you',
  'please',
  'pls',
  'plz',
  'now',
  'then',
  'it',
  'this',
  'that',
  'the',
  'plan',
  'proposed',
  'workflow',
  'mode',
  'with',
  'and',
  'lets',
  'thanks',
  'thx',
  'ty',
  'right',
  'away',
  'just',
  'all',
  'so',
  'i',
  'we',
  'can',
];

type Row = readonly [text: string, prompted: boolean, want: Intent];

/**
 * Phrases of the spec (MODE-6) that the classifier reads word by word, with no entry of their own:
 * `ship` + a filler, a filler + `go`, a cancel word + fillers. Since `lets go` is no phrase, the
 * phrase after `lets` counts: "let's go ahead" is a confirmation like "go ahead", "let's go on" a
 * keep-going like "go on".
 */
const SPELLED_BY_THEIR_WORDS: readonly Row[] = [
  ['ship it', false, 'exit'],
  ["let's go", false, 'exit'],
  ['abandon plan', true, 'cancel'],
  ['abandon the plan', true, 'cancel'],
  ['cancel plan', true, 'cancel'],
  ['cancel the plan', true, 'cancel'],
  ["let's go for it", false, 'exit'],
  ["let's go ahead and code", false, 'exit'],
  ["let's go ahead", true, 'exit'],
  ["let's go ahead", false, 'none'],
  ["let's go on", false, 'stay'],
];

const ROWS: readonly Row[] = [
  ...STAY_ANYWHERE.map((p): Row => [`yes, ${p}, and look at the auth module`, false, 'stay']),
  ...EXIT.map((p): Row => [p, false, 'exit']),
  ...CONFIRM.flatMap((p): Row[] => [
    [p, true, 'exit'],
    [p, false, 'none'],
  ]),
  ...KEEP_GOING.flatMap((p): Row[] => [
    [p, true, 'exit'],
    [p, false, 'stay'],
  ]),
  ...CANCEL.map((p): Row => [p, true, 'cancel']),
  ...STAY.map((p): Row => [p, true, 'stay']),
  ...FILLER.map((p): Row => [`yes ${p}`, false, 'exit']),
  ...SPELLED_BY_THEIR_WORDS,
];

test('MODE-6: every intent phrase decides its table row (stay anywhere, exit, confirm, keep going, cancel, stay, filler)', () => {
  // Positive control: the same messages without a known phrase are ordinary input.
  assert.equal(classifyIntent('yes, and look at the auth module'), 'none');
  assert.equal(classifyIntent('yes unheard-of'), 'none');
  const wrong = ROWS.filter(
    ([text, prompted, want]) => classifyIntent(text, { afterImplementationPrompt: prompted }) !== want,
  );
  assert.deepEqual(
    wrong.map(
      ([text, prompted, want]) =>
        `${JSON.stringify(text)}${prompted ? ' (prompted)' : ''}: ${classifyIntent(text, { afterImplementationPrompt: prompted })}, want ${want}`,
    ),
    [],
  );
});
