import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

// Issue 19, rerun of src/core/policy/write-options.ts: each refusal names the option that writes.

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-3: `printf -v` (bash) assigns a variable instead of printing and is refused, alone or in a cluster', () => {
  for (const [command, shown] of [
    ['printf -v x y', '-v'],
    ['printf -vx y', '-v (in -vx)'],
  ] as const) {
    assert.deepEqual(
      plan(command),
      { allowed: false, class: 'mutation', reason: `\`printf ${shown}\` assigns a shell variable instead of printing` },
      command,
    );
  }
});

test('RO-3: `hostname --file` sets the host name from a file; the refusal names the option, abbreviated or with `=`', () => {
  for (const [command, shown] of [
    ['hostname --file=/etc/hostname', '--file=/etc/hostname'],
    ['hostname --fi /etc/hostname', '--fi'],
  ] as const) {
    assert.deepEqual(
      plan(command),
      { allowed: false, class: 'mutation', reason: `\`hostname ${shown}\` sets the host name` },
      command,
    );
  }
});
