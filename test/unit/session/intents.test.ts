import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyIntent, type Intent } from '../../../src/core/session/intents';
import { runCli } from '../../../src/cli/run';
import { captureIO } from '../../fixtures/cli';

const plain = (text: string): Intent => classifyIntent(text, { afterImplementationPrompt: false });
const afterPrompt = (text: string): Intent => classifyIntent(text, { afterImplementationPrompt: true });

function expectAll(fn: (t: string) => Intent, intent: Intent, texts: string[]): void {
  for (const text of texts) assert.equal(fn(text), intent, JSON.stringify(text));
}

test('MODE-6: the seed exit words exit in any context, in the forms people type', () => {
  const texts = [
    'implement',
    'approve',
    'lgtm',
    'ship it',
    'yes',
    'go',
    'start',
    'Implement it.',
    'yes, implement it',
    'Yes implement this plan please',
    'LGTM!',
    'lgtm, ship it',
    'Approved.',
    'go!',
    "let's go",
    'start implementing',
    'Yes, clear context and implement',
    'Yes, switch to Auto and implement',
    'looks good to me',
    'y',
    'yep, go for it',
    'Ship it 🚀',
    'IMPLEMENT',
    'Go ahead and implement it',
    'implement the plan in build mode',
    'I approve',
    'ok implement',
    'Yes!',
  ];
  expectAll(plain, 'exit', texts);
  expectAll(afterPrompt, 'exit', texts);
});

test('MODE-6, FUSE-3: continue, ok, go ahead exit only right after the assistant asked to implement', () => {
  const confirmations = [
    'continue',
    'ok',
    'OK!',
    'go ahead',
    'okay, go ahead',
    'sure',
    'sounds good',
    'proceed',
    'do it',
    'Continue.',
    "let's do it",
    'sure, go ahead',
  ];
  expectAll(afterPrompt, 'exit', confirmations);
  // Without the prompt, `continue` means keep planning (the blocked-turn nudge); the rest is ordinary input.
  expectAll(plain, 'stay', ['continue', 'Continue.', 'keep going', 'go on']);
  expectAll(plain, 'none', ['ok', 'go ahead', 'sure', 'sounds good', 'proceed', 'do it', "let's do it"]);
});

test('MODE-6: stay phrases stay, and stay overrides any exit phrase', () => {
  const texts = [
    'stay in planning',
    'stay in planning workflow',
    'Stay in the planning workflow',
    'keep planning',
    'continue planning',
    'revise the plan',
    'edit the plan',
    'No, stay in Plan mode',
    'no wait, stay in planning',
    'yes but stay in planning',
    'LGTM, but keep planning',
    'please revise the plan: step 3 should use zod',
    'stay',
    'revise',
    "don't implement yet",
    'not yet',
    'not now',
    'no wait',
    'wait',
    'hold on',
  ];
  expectAll(plain, 'stay', texts);
  expectAll(afterPrompt, 'stay', texts);
});

test('MODE-6: cancel words cancel; /plan off cancels', () => {
  const texts = [
    'no',
    'No.',
    'nope',
    'cancel',
    'Cancel the plan',
    'abandon plan',
    'abandon the plan',
    '/plan off',
    '/PLAN OFF',
    'no thanks',
    'never mind',
    'ok, cancel',
  ];
  expectAll(plain, 'cancel', texts);
  expectAll(afterPrompt, 'cancel', texts);
});

test('MODE-6: long messages that merely contain an intent word are ordinary input', () => {
  const texts = [
    'go through the auth module and list every token check',
    'start by reading the config loader',
    'implement caching in the API layer',
    'yes, but use zod for validation',
    'no, use postgres instead',
    'ok so what about the tests?',
    'Can you approve of the approach in docs/adr-3.md?',
    'continue with step 2 of the research',
    '/plan',
    '/mode build',
    '',
    '   ',
    'yes no',
  ];
  expectAll(plain, 'none', texts);
  expectAll(
    afterPrompt,
    'none',
    texts.filter((t) => t !== 'continue with step 2 of the research'),
  );
});

test('MODE-6: adding a word outside the vocabulary to an exit utterance makes it ordinary input, never a cancel', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('yes', 'implement it', 'lgtm', 'ship it', 'go', 'start'),
      fc.constantFrom('auth', 'module', 'tests', 'database', 'refactor', 'because', 'but'),
      fc.boolean(),
      (exit, word, before) => {
        const text = before ? `${word} ${exit}` : `${exit} ${word}`;
        return plain(text) === 'none' && afterPrompt(text) === 'none';
      },
    ),
  );
});

test('MODE-6, ADD-2: vtplan intent --json prints exactly {"intent": …} and exits 0', async () => {
  const cases: [string[], string][] = [
    [['--json', '--', 'yes, implement it'], 'exit'],
    [['--json', '--', 'no wait, stay in planning'], 'stay'],
    [['--json', '--', 'abandon plan'], 'cancel'],
    [['--json', '--', 'go through the auth module and check it'], 'none'],
    [['--json', '--', 'continue'], 'stay'],
    [['--after-implementation-prompt', '--json', '--', 'continue'], 'exit'],
    [['--json', '--', '/plan', 'off'], 'cancel'],
    [['--json', '--', '/implement'], 'exit'],
    [['--json', '--', 'exit the planning workflow and proceed'], 'exit'],
    [['--after-implementation-prompt', '--json', '--', 'ready to implement?'], 'none'],
  ];
  for (const [args, intent] of cases) {
    const io = captureIO();
    assert.equal(await runCli(['intent', ...args], io), 0, args.join(' '));
    assert.equal(io.out, `{"intent": "${intent}"}\n`, args.join(' '));
    assert.deepEqual(JSON.parse(io.out), { intent });
  }
});

test('MODE-6, ADD-2: vtplan intent prints the bare word, reads - from stdin, and rejects bad usage with 2', async () => {
  const io = captureIO();
  assert.equal(await runCli(['intent', '--', 'LGTM!'], io), 0);
  assert.equal(io.out, 'exit\n');
  const stdin = captureIO({ stdin: 'ok\n' });
  assert.equal(await runCli(['intent', '--after-implementation-prompt', '-'], stdin), 0);
  assert.equal(stdin.out, 'exit\n');
  const missing = captureIO();
  assert.equal(await runCli(['intent', '--json'], missing), 2);
  assert.match(missing.err, /message to classify/);
  const unknown = captureIO();
  assert.equal(await runCli(['intent', '--yes', '--', 'x'], unknown), 2);
  assert.match(unknown.err, /Unknown option/i);
});
