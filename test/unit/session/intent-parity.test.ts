/**
 * MODE-6 at parity with VT Code (issue 14 item 4). One table: each row is a message, whether the
 * assistant had just asked to implement, what VT Code's planning-workflow intent detection
 * decides for it, and — only where the seed or this project's safety rules deliberately differ —
 * what we decide and why. The rows are VT Code's own test vectors and its accepted phrase
 * families, written out as a user would type them, plus our stay, refusal and question rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyIntent, type Intent } from '../../../src/core/session/intents';

interface Row {
  text: string;
  /** The assistant's last message asked whether to implement the plan. */
  prompted: boolean;
  /** VT Code's decision (`none` also covers its "no planning intent"). */
  vtcode: Intent;
  /** Ours, where it deliberately differs, with the reason. */
  ours?: { intent: Intent; why: string };
}

const row = (text: string, vtcode: Intent, prompted = false, ours?: Row['ours']): Row => ({
  text,
  prompted,
  vtcode,
  ours,
});

const ROWS: readonly Row[] = [
  // Direct commands and approvals.
  row('implement', 'exit'),
  row('Implement the plan.', 'exit'),
  row('implement now', 'exit'),
  row('approve', 'exit'),
  row('approved', 'exit'),
  row('approve the plan', 'exit'),
  row('Approve the proposed plan', 'exit'),
  row('lgtm', 'exit'),
  row('accept', 'exit'),
  row('Accepted.', 'exit'),
  row('accept this plan', 'exit'),
  row("looks good, let's go", 'exit'),
  row('ship it', 'exit'),
  row('yes', 'exit'),
  row('go', 'exit'),
  row('start', 'exit'),
  // Imperative sentences: execute the plan, leave the planning workflow, start coding.
  row('execute plan', 'exit'),
  row('Execute the plan.', 'exit'),
  row('please execute this plan now', 'exit'),
  row('start implementing', 'exit'),
  row('Start implementation', 'exit'),
  row('begin implementation', 'exit'),
  row('begin coding', 'exit'),
  row('start coding', 'exit'),
  row('start building', 'exit'),
  row('proceed to implement', 'exit'),
  row('Proceed with implementation', 'exit'),
  row('proceed to coding', 'exit'),
  row("let's implement", 'exit'),
  row('Go ahead and implement it', 'exit'),
  row('go ahead and code', 'exit'),
  row('ready to implement', 'exit'),
  row('switch to agent mode', 'exit'),
  row('exit planning workflow', 'exit'),
  row('Exit the planning workflow and proceed.', 'exit'),
  row('exit planning workflow and implement', 'exit'),
  row('Please exit plan mode and start implementing', 'exit'),
  row('/implement', 'exit'),
  // Short go-ahead words right after an implementation prompt.
  ...[
    'yes',
    'y',
    'ok',
    'okay',
    'continue',
    'go',
    'go ahead',
    'proceed',
    'start',
    'start now',
    'begin',
    'begin now',
    "let's start",
    'sounds good',
    'do it',
  ].map((t) => row(t, 'exit', true)),
  // The same words without the prompt: only the seed's exit words exit.
  row('ok', 'none'),
  row('proceed', 'none'),
  row('begin', 'none'),
  row('continue', 'none', false, {
    intent: 'stay',
    why: '[seed wins] FUSE-3: after a blocked turn, `continue` keeps planning',
  }),
  // Stay in planning wins over any exit phrase.
  row('Do not implement yet; keep planning.', 'stay'),
  row("Stay in planning workflow and don't implement.", 'stay'),
  row('keep in planning workflow', 'stay'),
  row('continue planning', 'stay'),
  row('not ready to implement', 'stay'),
  row("don't exit planning workflow", 'stay'),
  row('do not exit the planning workflow, ship it later', 'stay'),
  row('I disapprove, keep planning', 'stay'),
  row('lgtm, but keep planning', 'stay'),
  // Ordinary input.
  row('The implementation details are unclear.', 'none'),
];

/** Rows of our own that VT Code has no test for: refusals, cancels and questions keep their meaning. */
const OURS: readonly [string, boolean, Intent][] = [
  ['no', false, 'cancel'],
  ['cancel', true, 'cancel'],
  ['abandon plan', false, 'cancel'],
  ['/plan off', false, 'cancel'],
  ["I don't approve", false, 'none'],
  ["don't accept it", true, 'none'],
  ['never implement this', false, 'none'],
  ['do not execute the plan', false, 'none'],
  ['no, stay in plan mode', true, 'stay'],
  ['implement?', false, 'none'],
  ['Ready to implement?', true, 'none'],
  ['should we exit planning?', false, 'none'],
  ['yes?', true, 'none'],
  ['no?', false, 'none'],
  ['continue?', false, 'stay'],
  ['what would you change?', true, 'none'],
  ['/implement the auth module', false, 'none'],
  ['/mode build', false, 'none'],
  ['exit the auth module', false, 'none'],
  ['switch to agent mode for the tests', false, 'none'],
];

test('MODE-6 (issue 14 item 4): every VT Code intent vector is decided as VT Code decides it, or as the seed says with the reason', () => {
  const wrong = ROWS.filter(
    (r) => classifyIntent(r.text, { afterImplementationPrompt: r.prompted }) !== (r.ours?.intent ?? r.vtcode),
  );
  assert.deepEqual(
    wrong.map(
      (r) =>
        `${JSON.stringify(r.text)}${r.prompted ? ' (prompted)' : ''}: ${classifyIntent(r.text, { afterImplementationPrompt: r.prompted })}`,
    ),
    [],
  );
  for (const r of ROWS) if (r.ours) assert.notEqual(r.ours.why.trim(), '', `${r.text}: a deviation names its reason`);
});

test('MODE-6 (issue 14): agreement with VT Code over its vectors is at least 95 %', () => {
  const agree = ROWS.filter(
    (r) => classifyIntent(r.text, { afterImplementationPrompt: r.prompted }) === r.vtcode,
  ).length;
  const share = agree / ROWS.length;
  console.log(`intent parity: ${agree}/${ROWS.length} VT Code vectors agree (${(share * 100).toFixed(1)} %)`);
  assert.ok(share >= 0.95, `only ${(share * 100).toFixed(1)} % agree`);
});

test('MODE-6: refusals, cancels and questions keep their meaning (a question never approves or discards a plan)', () => {
  const wrong = OURS.filter(
    ([text, prompted, want]) => classifyIntent(text, { afterImplementationPrompt: prompted }) !== want,
  );
  assert.deepEqual(
    wrong.map(
      ([text, prompted]) =>
        `${JSON.stringify(text)}${prompted ? ' (prompted)' : ''}: ${classifyIntent(text, { afterImplementationPrompt: prompted })}`,
    ),
    [],
  );
});
