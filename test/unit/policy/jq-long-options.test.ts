/**
 * RO-2: every read-only jq long option stays allowed, one row per option (a name dropped from the
 * list would refuse ordinary commands such as `jq --raw-output .name package.json`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

const FLAGS = [
  'seq',
  'stream',
  'stream-errors',
  'slurp',
  'raw-input',
  'null-input',
  'compact-output',
  'tab',
  'color-output',
  'monochrome-output',
  'ascii-output',
  'unbuffered',
  'sort-keys',
  'raw-output',
  'raw-output0',
  'join-output',
  'nul-output',
  'exit-status',
  'help',
  'version',
  'build-configuration',
];

test('RO-2: each read-only jq long option without a value is allowed', () => {
  for (const flag of FLAGS) {
    const v = checkCommand(`jq --${flag} . package.json`, 'plan');
    assert.deepEqual([v.allowed, v.class, v.reason], [true, 'inspection', null], flag);
  }
});

test('RO-2: --args and --jsonargs take the remaining words as values; --indent takes one', () => {
  for (const command of ['jq -n --args $ARGS a b', 'jq -n --jsonargs $ARGS 1 2', 'jq --indent 4 . package.json']) {
    const v = checkCommand(command.replace('$ARGS', "'$ARGS'"), 'plan');
    assert.deepEqual([v.allowed, v.reason], [true, null], command);
  }
});
