/**
 * RO-2: a refused jq/yq builtin is refused wherever it stands in the filter, not only at its start:
 * after a pipe and a blank, and followed by one (`. | strenv(HOME)`, `input_filename | …`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

test('RO-2: strenv, envsubst, load, eval, input_filename and $__loc__ after a pipe or before one are refused', () => {
  for (const [command, names] of [
    ["yq '. | strenv(HOME)' f.yaml", '`strenv` / `envsubst`'],
    ["yq '. | envsubst' f.yaml", '`strenv` / `envsubst`'],
    ['yq \'. | load("x.yaml")\' f.yaml', '`load`'],
    ['yq \'. | load_str("x")\' f.yaml', '`load`'],
    ["yq '. | eval(.a)' f.yaml", '`eval`'],
    ["jq '. | input_filename' f.json", '`input_filename` / `$__loc__`'],
    ["jq 'input_filename | ascii_downcase' f.json", '`input_filename` / `$__loc__`'],
    ["jq '$__loc__ | .file' f.json", '`input_filename` / `$__loc__`'],
  ] as const) {
    const v = checkCommand(command, 'plan');
    assert.equal(v.allowed, false, command);
    assert.ok((v.reason ?? '').includes(names), `${command}: ${v.reason ?? ''}`);
  }
});
