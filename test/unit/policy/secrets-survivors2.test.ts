import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

test('RO-2: `ps` without an environment option is an inspection', () => {
  for (const command of ['ps', 'ps -ef', 'ps aux']) {
    const v = checkCommand(command, 'plan');
    assert.deepEqual([v.allowed, v.class], [true, 'inspection'], command);
  }
});
