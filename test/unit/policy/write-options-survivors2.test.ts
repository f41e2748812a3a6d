import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

test('RO-3: fd and fdfind run a command per match with `-x` as with `--exec`', () => {
  for (const name of ['fd', 'fdfind'])
    for (const option of ['-x', '--exec'])
      assert.deepEqual(
        checkCommand(`${name} . ${option} rm`, 'plan').reason,
        `\`${name} ${option}\` runs a command for every match`,
        `${name} ${option}`,
      );
});
