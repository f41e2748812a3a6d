import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-3: a word starting with `-` after an option that takes a value is read as an option, so no value model hides a denied one', () => {
  assert.deepEqual(plan('git tag -n -d'), {
    allowed: false,
    class: 'mutation',
    reason: '`git tag -d` is not a listing option',
  });
  assert.deepEqual(plan('git branch --sort -d'), {
    allowed: false,
    class: 'mutation',
    reason: '`git branch -d` is not a listing option',
  });
});

test('RO-2: an option that takes a value may end the command without one', () => {
  assert.deepEqual(plan('git tag -n'), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(plan('git branch --sort'), { allowed: true, class: 'inspection', reason: null });
});

test('RO-2: a long option is allowed for a program whose denied options are short letters only', () => {
  assert.deepEqual(plan('tree --dirsfirst src'), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(plan('printf --x'), { allowed: true, class: 'inspection', reason: null });
});

test('RO-3: only a long option that takes a value swallows the next word, and only when written without `=`', () => {
  for (const command of ['uniq --group in.txt out.txt', 'uniq --skip-fields=1 in.txt out.txt'])
    assert.deepEqual(
      plan(command),
      { allowed: false, class: 'mutation', reason: '`uniq` writes its second operand (`out.txt`)' },
      command,
    );
});
