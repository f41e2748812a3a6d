/**
 * MODE-6: a short confirmation ("ok") exits planning only right after the assistant asked to
 * implement. That closing question may be wrapped in Markdown emphasis or trailed by emoji or a
 * `(yes/no)` hint; a text that does not end in the question does not count.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventSequencer } from '../../../src/core/session/events';
import { classifyIntent } from '../../../src/core/session/intents';
import { applyEvent, initialState } from '../../../src/core/session/state';

/** What the user's "ok" means after an assistant message ending the turn with `text`. */
function okAfter(text: string): string {
  const seq = new EventSequencer('s', { now: () => 1_700_000_000_000 });
  seq.beginTurn();
  const state = applyEvent(
    initialState({ id: 's', workspace: '/w', provider: 'p', model: 'm', agent: 'plan' }),
    seq.stamp({ type: 'message.completed', text, finishReason: 'stop' }),
  );
  return classifyIntent('ok', { afterImplementationPrompt: state.askedToImplement });
}

const ASKS: string[] = [
  'The plan is ready. Shall I implement it?',
  'The plan is ready.\n\n**Ready to code?**',
  'The plan is ready.\n\n_Shall I implement this?_',
  'The plan is ready.\n\n*Shall I proceed?*',
  'The plan is ready.\n\n~~Old.~~ __Start the implementation?__',
  'The plan is ready. Ready to code? 🚀',
  'The plan is ready. Shall I implement this? 👍🏽',
  'The plan is ready. Shall I implement this? ✔️',
  'The plan is ready. Shall I implement this? (yes/no)',
  'The plan is ready. Proceed? (y/n)',
  'The plan is ready. __Proceed?__',
  'The plan is ready.\n\n**Shall I implement this? (yes / no)** 🚀',
];

const DOES_NOT_ASK: string[] = [
  'The plan is ready.',
  'I will implement the parser in **step 2**',
  'I will implement the parser.**',
  'See https://example.com/implement?step=2',
  'See https://example.com/implement?step=2**',
  'Shall I implement this? Then I will also update the docs.',
  '**Ready to code?** The tests come first.',
  'Shall I implement this? (maybe)',
  'Ready to code? `npm test` first',
];

for (const text of ASKS) {
  test(`MODE-6: "ok" confirms after ${JSON.stringify(text)}`, () => {
    assert.equal(okAfter(text), 'exit');
  });
}

for (const text of DOES_NOT_ASK) {
  test(`MODE-6: "ok" does not confirm after ${JSON.stringify(text)}`, () => {
    assert.equal(okAfter(text), 'none');
  });
}
