import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

// Survivors of the quiet-machine rerun of git-config.ts (issue 19): the read forms git 2.39 and
// git 2.46 (`git config get|list`) accept must stay allowed, and the forms that are no read must
// stay refused with the reason that names what is wrong.

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

const INSPECTION = { allowed: true, class: 'inspection', reason: null };
const TOO_MANY_OPERANDS = {
  allowed: false,
  class: 'mutation',
  reason: '`git config` with more operands than a read form takes sets a value',
};

test('RO-2: `--get-color` and `--get-colorbool` are read actions (they print a colour, they set nothing)', () => {
  for (const command of ['git config --get-color color.diff.new blue', 'git config --get-colorbool color.ui true'])
    assert.deepEqual(plan(command), INSPECTION, command);
});

test('RO-2: every display and type flag of a read is allowed beside it (git 2.39 forms and git 2.46 `get|list` forms)', () => {
  for (const command of [
    'git config --list --name-only',
    'git config --list --null',
    'git config --get --bool core.bare',
    'git config --get --int core.repositoryformatversion',
    'git config --get --bool-or-int core.bare',
    'git config --get --path core.hooksPath',
    'git config --get --expiry-date gc.pruneExpire',
    'git config --list --includes',
    'git config --list --no-includes',
    'git config --list --worktree',
    'git config --get --fixed-value core.bare false',
    'git config get --all --regexp core',
    'git config get --all --show-names core.bare',
  ])
    assert.deepEqual(plan(command), INSPECTION, command);
});

test('RO-2: `--value` and `--url` of `git config get` (git 2.46) take a value, attached or as the next word', () => {
  for (const command of [
    'git config get --value=true core.bare',
    'git config get --value true core.bare',
    'git config get --url=https://example.org http.proxy',
    'git config get --url https://example.org http.proxy',
  ])
    assert.deepEqual(plan(command), INSPECTION, command);
});

test('RO-3: bare `git config` is refused because it names no read form (git prints usage; the reason says why)', () => {
  assert.deepEqual(plan('git config'), {
    allowed: false,
    class: 'mutation',
    reason: '`git config` without `--get`/`--list` (or `git config get|list`) sets or edits configuration',
  });
});

test('RO-3: a list form takes no operand: `git config list NAME` and `git config -l NAME` are refused', () => {
  // git 2.39 reads `git config list a.b` as setting the key `list` and `-l NAME` as a usage error;
  // neither is a listing, so neither may pass as one.
  for (const command of ['git config list core.bare', 'git config -l core.bare'])
    assert.deepEqual(plan(command), TOO_MANY_OPERANDS, command);
});

test('RO-3: a lone `-` is an operand of `git config`, not an empty option cluster, so it counts against a read form', () => {
  for (const command of ['git config --list -', 'git config --get core.bare false -'])
    assert.deepEqual(plan(command), TOO_MANY_OPERANDS, command);
});
