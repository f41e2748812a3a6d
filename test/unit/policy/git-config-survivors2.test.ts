import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-2: a valued option of `git config` takes the next word, so `--get NAME VALUE-PATTERN` after `--type bool` is still a read', () => {
  assert.deepEqual(plan('git config --get --type bool core.bare true'), {
    allowed: true,
    class: 'inspection',
    reason: null,
  });
  assert.deepEqual(plan('git config --get --type=bool core.bare'), {
    allowed: true,
    class: 'inspection',
    reason: null,
  });
});

test('RO-3: an option that is no read option is refused as a mutation naming it, even beside `--get`', () => {
  assert.deepEqual(plan('git config --get --unset x'), {
    allowed: false,
    class: 'mutation',
    reason:
      '`git config --unset` is not a read option (only --get, --get-all, --get-regexp, --list and their display options are allowed)',
  });
});

test('RO-3: `git config` without a read form, or with more operands than one takes, is refused as a mutation', () => {
  assert.deepEqual(plan('git config core.pager less'), {
    allowed: false,
    class: 'mutation',
    reason: '`git config` without `--get`/`--list` (or `git config get|list`) sets or edits configuration',
  });
  assert.deepEqual(plan('git config --list core.pager'), {
    allowed: false,
    class: 'mutation',
    reason: '`git config` with more operands than a read form takes sets a value',
  });
});

test('RO-3: `-z` is the only short display flag of git config; `--z` is no option, and `-e` edits', () => {
  assert.deepEqual(plan('git config --list -z'), { allowed: true, class: 'inspection', reason: null });
  for (const [command, option] of [
    ['git config --list --z', '--z'],
    ['git config --get -e core.pager', '-e'],
  ] as const)
    assert.deepEqual(
      plan(command),
      {
        allowed: false,
        class: 'mutation',
        reason: `\`git config ${option}\` is not a read option (only --get, --get-all, --get-regexp, --list and their display options are allowed)`,
      },
      command,
    );
});
