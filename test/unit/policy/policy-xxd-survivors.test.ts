import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-3: a glob operand of xxd is refused (it could expand to two files, and xxd writes the second)', () => {
  assert.deepEqual(plan('xxd a?.bin'), {
    allowed: false,
    class: 'unknown',
    reason: 'a glob after `xxd` could expand to two files, and xxd writes the second',
  });
});

test('RO-3: `-` (stdin) ends the options, so the word after it is the output file xxd writes', () => {
  assert.deepEqual(plan('xxd - out.bin'), {
    allowed: false,
    class: 'mutation',
    reason: '`xxd` writes its second operand (`out.bin`)',
  });
  assert.deepEqual(plan('xxd a.bin out.bin'), {
    allowed: false,
    class: 'mutation',
    reason: '`xxd` writes its second operand (`out.bin`)',
  });
});

test('RO-3: a dump with known options is an inspection; an attached value counts only when it is a (signed) number', () => {
  assert.deepEqual(plan('xxd -c8 a.bin'), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(plan('xxd -s-16 a.bin'), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(plan('xxd -s+16 a.bin'), { allowed: true, class: 'inspection', reason: null });
  assert.deepEqual(plan('xxd -cx8 a.bin'), {
    allowed: false,
    class: 'unknown',
    reason: '`xxd -cx8`: write the value as a separate word or a number attached to the letter (`-c 8`, `-c8`)',
  });
});

test('RO-3: revert and unknown options are refused with their class and reason', () => {
  assert.deepEqual(plan('xxd -r a.bin'), {
    allowed: false,
    class: 'mutation',
    reason: '`xxd -r` reverts a dump into binary, patching its output file in place',
  });
  assert.deepEqual(plan('xxd -z a.bin'), {
    allowed: false,
    class: 'unknown',
    reason: 'xxd option `-z` is not on the read-only list',
  });
});
