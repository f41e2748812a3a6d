/**
 * MODE-6: the edges of the intent rule (src/core/session/intents.ts) that the phrase table does not
 * reach: exactly which slash commands are `/implement` and `/plan off`, what counts as a question
 * mark at the end, the default context, and an utterance made only of fillers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyIntent, type Intent } from '../../../src/core/session/intents';

const SLASH: ReadonlyArray<readonly [string, Intent]> = [
  ['/implement ', 'exit'], // surrounding whitespace (a trailing space or newline from the input box) is ignored
  ['/implement\n', 'exit'],
  ['/review /implement', 'none'], // the command must start the message
  ['/plan off.', 'cancel'],
  ['/plan off!', 'cancel'],
  ['/plan  off', 'cancel'], // any run of spaces between `plan` and `off`
  ['/plan offline', 'none'], // nothing may follow `off` but . and !
  ['/x /plan off', 'none'],
];

test('MODE-6: `/implement` and `/plan off` are recognised only as the whole trimmed message, with trailing . or ! allowed', () => {
  for (const [message, intent] of SLASH) assert.equal(classifyIntent(message), intent, JSON.stringify(message));
});

const QUESTIONS: ReadonlyArray<readonly [string, Intent]> = [
  ['implement it?!', 'none'], // ? then ! still ends in a question
  ['implement it? !', 'none'], // ? then space and ! too
  ['implement it?.', 'none'],
  ['ok? implement it', 'exit'], // a ? inside the message is no question: the message ends in an imperative
];

test('MODE-6: only a message that ends in ? (optionally followed by spaces, ! or .) is a question that never exits', () => {
  for (const [message, intent] of QUESTIONS) assert.equal(classifyIntent(message), intent, JSON.stringify(message));
});

test('MODE-6: without a context a short confirmation is read as not following an implementation prompt ("ok" is none)', () => {
  assert.equal(classifyIntent('ok'), 'none');
  assert.equal(classifyIntent('ok', { afterImplementationPrompt: true }), 'exit');
});

test('MODE-6: an utterance made only of fillers is none, even right after the implementation prompt', () => {
  for (const message of ['thank you', 'thanks', 'please', 'now then'])
    for (const afterImplementationPrompt of [false, true])
      assert.equal(
        classifyIntent(message, { afterImplementationPrompt }),
        'none',
        `${message} / ${afterImplementationPrompt}`,
      );
});
