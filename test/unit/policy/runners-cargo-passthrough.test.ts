/**
 * RO-2, MODE-1: cargo hands the words after `--` to the test harness or to rustc unchecked, and
 * those have options that write files (`cargo test -- --logfile out.txt`, `cargo clippy --
 * --emit=metadata=out`) or read more arguments from a file (`@args`): all were allowed in plan
 * mode. Only options that select tests or set lint levels pass now.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string): { allowed: boolean; class: string; reason: string | null } {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-2: test-harness options that write files or read @file arguments are refused after `cargo test --`', () => {
  for (const [command, word] of [
    ['cargo test -- --logfile out.txt', '--logfile'],
    ['cargo test -p core -- --nocapture --logfile=out.txt', '--logfile=out.txt'],
    ['cargo test -- @args', '@args'],
    ['cargo nextest run -- --logfile out.txt', '--logfile'],
    ['cargo test -- -Zunstable-options', '-Zunstable-options'],
  ] as const) {
    const sub = command.startsWith('cargo nextest') ? 'nextest' : 'test';
    assert.deepEqual(
      plan(command),
      {
        allowed: false,
        class: 'unknown',
        reason: `\`cargo ${sub} -- ${word}\` is not a test-selection option of the test harness (options that write files, such as \`--logfile\`, or read \`@file\` arguments are not allowed)`,
      },
      command,
    );
  }
});

test('RO-2: after `cargo clippy --` only lint levels pass', () => {
  for (const [command, word] of [
    ['cargo clippy -- --emit=metadata=out', '--emit=metadata=out'],
    ['cargo clippy -- @args', '@args'],
    ['cargo clippy -- -D warnings -o out', '-o'],
    ['cargo clippy -- -Cextra-filename=x', '-Cextra-filename=x'],
  ] as const) {
    assert.deepEqual(
      plan(command),
      {
        allowed: false,
        class: 'unknown',
        reason: `\`cargo clippy -- ${word}\` is not a lint level (\`-D warnings\`, \`-A clippy::x\`)`,
      },
      command,
    );
  }
});

test('RO-2: test filters, test-selection options and lint levels after `--` stay allowed', () => {
  for (const command of [
    'cargo test -- --nocapture parse',
    'cargo test -p core -- --test-threads 1 --exact tests::a',
    'cargo test -- --test-threads=2 --skip slow --include-ignored',
    'cargo test -- --list --format terse -q',
    'cargo test -- --color never --show-output --shuffle --shuffle-seed 7',
    'cargo nextest run -- parse',
    'cargo clippy -- -D warnings',
    'cargo clippy --all-targets -- -Dwarnings -A clippy::pedantic --cap-lints warn',
    'cargo clippy -- --deny warnings --allow=dead_code -W clippy::all -F unsafe_code',
  ]) {
    assert.deepEqual(plan(command), { allowed: true, class: 'verification', reason: null }, command);
  }
});
