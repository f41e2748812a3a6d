import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace } from '../../../src/core/policy';

// Issue 19, rerun of src/core/policy/shell.ts: the policy and the path rule each report their own
// segments; a path verdict refused as a whole has fewer of them than a command has parts.

test('RO-2: a workspace root that is not absolute refuses a command of several parts with that reason, not with a failure of the check', () => {
  const v = checkCommandInWorkspace('ls; pwd', 'plan', 'relative/root');
  const reason = 'the workspace root `relative/root` is not an absolute path, so no path can be checked against it';
  assert.deepEqual(
    { allowed: v.allowed, refusedBy: v.refusedBy, reason: v.reason, first: v.segments[0] },
    { allowed: false, refusedBy: 'paths', reason, first: { command: 'ls', allowed: false, reason } },
  );
});
