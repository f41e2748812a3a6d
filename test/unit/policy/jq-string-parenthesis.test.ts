/**
 * RO-2: inside a jq string only `\(` opens code (an interpolation); a plain `(` is text, so a string
 * that merely mentions `env` is data, while the same name in an interpolation is code (issue 19,
 * a survivor of the jq.ts rerun).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

test('RO-2: `(` inside a jq string is text; only `\\(` starts code', () => {
  assert.equal(checkCommand(`jq '"x(env)"' f.json`, 'plan').allowed, true);
  assert.equal(checkCommand(`jq '"x\\(env)"' f.json`, 'plan').allowed, false);
});
