/**
 * RO-2: the shell expands an unquoted glob before jq or yq starts, so a file whose name is a
 * filter (`keys,$ENV.HOME`, a cloned repository can hold one) became the program: `jq k* f.json`
 * printed $HOME in plan mode. A glob at or before the filter is refused (found by pol-sed with
 * `sed -n a* notes`; the same class as awk's and sed's script operand).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function plan(command: string): { allowed: boolean; class: string; reason: string | null } {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-2: a glob as the jq filter, or before it (an option value), is refused', () => {
  for (const [command, word] of [
    ['jq k* f.json', 'k*'],
    ['jq -r k? f.json', 'k?'],
    ['jq --arg x a* . f.json', '.'],
  ] as const) {
    assert.deepEqual(
      plan(command),
      {
        allowed: false,
        class: 'unknown',
        reason: `an unquoted glob at or before the jq filter (\`${word}\`) could put a file name in its place; quote it`,
      },
      command,
    );
  }
});

test('RO-2: a glob anywhere in a yq command is refused', () => {
  assert.deepEqual(plan('yq k* f.yaml'), {
    allowed: false,
    class: 'unknown',
    reason: 'an unquoted glob (`k*`) could put a file name in place of the yq expression; quote it or name the files',
  });
});

test('RO-2: a quoted filter holding `*` and a glob after the filter stay allowed', () => {
  for (const command of ["jq '.a*2' f.json", 'jq -r .name package.json', 'jq . ./*.json', "yq '.a*2' f.yaml"]) {
    assert.deepEqual(plan(command), { allowed: true, class: 'inspection', reason: null }, command);
  }
});
