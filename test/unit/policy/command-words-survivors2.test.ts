import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace } from '../../../src/core/policy';

test('RO-2: a bare `$` is a literal dollar sign, as in sh, so a path ending in one stays a plain path', () => {
  for (const command of ['cat a$', 'ls $']) {
    const v = checkCommandInWorkspace(command, 'plan', '/work/ws');
    assert.deepEqual([v.allowed, v.refusedBy, v.reason], [true, null, null], command);
  }
});
