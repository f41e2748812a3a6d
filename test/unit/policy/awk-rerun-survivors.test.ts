/**
 * RO-2, RO-3: readings of the awk lexer that the rerun of awk.ts after its rewrite showed unpinned
 * (issue 19). Every allowed program below runs with mawk, gawk, onetrue awk and busybox awk and
 * writes nothing; each would be refused, or read differently, if the lexer lost the rule its test
 * names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';
import { awkProgramProblem } from '../../../src/core/policy/awk';

function verdict(command: string): { allowed: boolean; reason: string } {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, reason: v.reason ?? '' };
}

// A command holding a line break is refused before awk is looked at (shell-scan.ts); the lexer
// still reads programs of several lines as awk does, for the day a quoted line break is allowed.
test('RO-3: a newline ends a `print` statement, so a comparison on the next line is not a redirection', () => {
  assert.equal(awkProgramProblem('{ print $1\nx = NR > 1 }'), null);
  assert.match(awkProgramProblem('{ print $1,\nx > 1 }') ?? 'ALLOWED', /writes a file/);
});

test('RO-3: after a newline a `/` starts a regular expression, as after any operator', () => {
  assert.equal(awkProgramProblem('NR==1\n/x/'), null);
});

test('RO-3: only `length` leaves a following `/` ambiguous; after a variable it is a division', () => {
  assert.deepEqual(verdict("awk '{ print x / 2, y / 3 }' f"), { allowed: true, reason: '' });
  assert.match(verdict("awk '{ print length / 2, y / 3 }' f").reason, /is a division to some awks/);
});

test('RO-3: a single `-` or `+` is an operator; only `++` and `--` end an operand', () => {
  assert.deepEqual(verdict("awk '{ print -1 / 2, $2 / 4 }' f"), { allowed: true, reason: '' });
  assert.deepEqual(verdict("awk '{ print +1 / 2, $2 / 4 }' f"), { allowed: true, reason: '' });
  assert.match(verdict("awk '{ print x++ / 2, $2 / 4 }' f").reason, /after `length`, `\+\+`, `--`/);
});

test('RO-3: a `]` outside brackets is literal, so the brackets opened after it still hold a `/`', () => {
  const v = verdict("awk '/a]b[c/d]/' f");
  assert.equal(v.allowed, false);
  assert.match(v.reason, /has `\/` inside `\[…\]`/);
});

test('RO-2: an awk option off the read-only list is refused with a reason naming it', () => {
  assert.match(
    verdict('awk -f prog.awk f').reason,
    /awk option `-f` is not on the read-only list \(program files, includes, extensions, profiles and dumps are not allowed\)/,
  );
});

test('RO-3: a `\\` joins lines only up to the line break; what follows it on its own line is still read', () => {
  // Every awk rejects `\` before anything but blanks and a line break; the lexer refuses the write anyway.
  assert.match(awkProgramProblem('{ print \\ > "out" }') ?? 'ALLOWED', /writes a file/);
  assert.equal(awkProgramProblem('{ print $1, \\\n $2 }'), null);
});
