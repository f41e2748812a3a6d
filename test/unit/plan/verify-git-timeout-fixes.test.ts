/**
 * Two misclassifications found while reading verify.ts's mutation survivors (issue 19): a bare
 * `--`, `--follow` or `-e` counted as a git history filter, so `git log --` (all history, the same
 * as the rejected `git log`) verified a step; and `timeout` always skipped the next word as its
 * duration, so `timeout git reset --hard` was judged by `reset --hard` and accepted as an unknown
 * program with a flag (PLAN-4: bare and mutating git are rejected).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { judgeVerifyItem } from '../../../src/core/plan';

const code = { markdownOnly: false };

function verdictOf(item: string): string {
  const v = judgeVerifyItem(item, code);
  return v.ok ? `ok:${v.kind}` : `rejected:${v.reason.slice(0, v.reason.indexOf(': '))}`;
}

test('PLAN-4 [seed wins]: `--`, `--follow` and `-e` alone select no revision, path or filter', () => {
  for (const item of ['git log --', 'git log -e', 'git log --follow', 'git log --oneline --', 'git show -e --']) {
    const sub = item.split(' ').slice(1).join(' ');
    assert.equal(
      verdictOf(item),
      `rejected:\`git ${sub}\` selects no revision, path or filter, so it proves nothing about this step`,
      item,
    );
  }
  for (const item of [
    'git log --follow -- src/a.ts',
    'git diff HEAD~1 -- src/main.rs',
    'git log -- README.md',
    'git grep -e parse_case',
    'git grep -n -e parse -- src',
  ]) {
    assert.equal(verdictOf(item), 'ok:command', item);
  }
});

test('PLAN-4: `timeout` skips a duration only; without one the next word is the command judged', () => {
  for (const [item, verdict] of [
    ['timeout git reset --hard', 'rejected:`git reset` changes the repository or its refs and does not verify a step'],
    ['timeout git log', 'rejected:`git log` selects no revision, path or filter, so it proves nothing about this step'],
    [
      'timeout 60 git reset --hard',
      'rejected:`git reset` changes the repository or its refs and does not verify a step',
    ],
    ['timeout 2.5 npm test', 'ok:command'],
    ['timeout 5m npm test', 'ok:command'],
    ['timeout 90s cargo test -p core', 'ok:command'],
    ['timeout npm test', 'ok:command'],
    ['timeout 1h pytest', 'ok:command'],
    ['timeout 1d pytest', 'ok:command'],
    ['timeout 5x pytest', 'rejected:`timeout 5x pytest` is neither a command nor an observable check'],
  ] as const) {
    assert.equal(verdictOf(item), verdict, item);
  }
});
