import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace, commandReportLines } from '../../../src/core/policy';

const ROOT = '/work/ws';

function lines(command: string, mode: 'plan' | 'build'): string[] {
  return commandReportLines(checkCommandInWorkspace(command, mode, ROOT), mode);
}

test('ADD-2, RO-2: an allowed pipeline reads as one verdict line without a reason, then one `ok` line a segment', () => {
  assert.deepEqual(lines('rg -n foo src | head -5', 'plan'), [
    'allowed (inspection, plan mode)',
    '  ok  rg -n foo src',
    '  ok  head -5',
  ]);
});

test('ADD-2, RO-2, RO-3: a refused chain names the reason on the verdict line and marks only the failing segment `no` with its reason', () => {
  assert.deepEqual(lines('ls && rm x', 'plan'), [
    'rejected (mutation, plan mode): segment 2 of 2 (`rm x`): `rm` creates, changes or deletes files',
    '  ok  ls',
    '  no  rm x — `rm` creates, changes or deletes files',
  ]);
});

test('ADD-2, MODE-1: a single-segment command reads as the verdict line alone (no segment lines)', () => {
  assert.deepEqual(lines('ls', 'plan'), ['allowed (inspection, plan mode)']);
  assert.deepEqual(lines('rm x', 'build'), ['allowed (mutation, build mode)']);
});
