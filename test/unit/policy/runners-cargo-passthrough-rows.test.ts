/**
 * RO-2: the words after `cargo test --` and `cargo clippy --`, one row per allowed option, and how a
 * value is taken (the harness's getopts takes the next word as a value even when it starts with `-`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function allowed(command: string): boolean {
  return checkCommand(command, 'plan').allowed;
}

test('RO-2: each test-selection flag of the test harness is allowed after `cargo test --`', () => {
  for (const flag of [
    '--nocapture',
    '--no-capture',
    '--show-output',
    '--exact',
    '--ignored',
    '--include-ignored',
    '--list',
    '-q',
    '--quiet',
    '--test',
    '--bench',
    '--shuffle',
    '--report-time',
    '--force-run-in-process',
  ]) {
    assert.equal(allowed(`cargo test -- ${flag}`), true, flag);
  }
});

test('RO-2: a valued harness option takes the next word only when written without `=`', () => {
  assert.equal(allowed('cargo test -- --skip --logfile'), true, '`--logfile` is the value of --skip');
  assert.equal(allowed('cargo test -- --skip=slow --logfile out.txt'), false);
  assert.equal(allowed('cargo test -- --test-threads=2 --logfile out.txt'), false);
});

test('RO-2: after `cargo clippy --` a lint level must start the word; only a bare level option takes the next word', () => {
  assert.equal(allowed('cargo clippy -- @x-D'), false);
  assert.equal(allowed('cargo clippy -- -Dclippy--all @args'), false);
  assert.equal(allowed('cargo clippy -- --deny warnings'), true);
});
