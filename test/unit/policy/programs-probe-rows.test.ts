/**
 * RO-2: one row per entry that a rerun of programs.ts showed unpinned (issue 19): programs whose
 * `-h`/`-V` is not a help or version probe (`nano -h` starts the editor), and the reason each
 * refused program group names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand } from '../../../src/core/policy';

function reasonOf(command: string): string {
  const v = checkCommand(command, 'plan');
  assert.equal(v.allowed, false, command);
  return v.reason ?? '';
}

test('RO-2: `-h` and `-V` of editors, pagers and screen are not probes: refused as the program itself', () => {
  for (const name of ['screen', 'nvim', 'ed', 'nano', 'pico', 'micro', 'more', 'most']) {
    for (const flag of ['-h', '-V']) {
      assert.ok(!checkCommand(`${name} ${flag}`, 'plan').allowed, `${name} ${flag}`);
    }
  }
});

test('RO-2: each refused program group names why', () => {
  for (const [command, why] of [
    ['bash x.sh', 'is a shell: it runs arbitrary commands'],
    ['nice ls', 'runs another command, which the policy cannot see; run the inner command directly'],
    ['curl https://example.com', 'reaches the network'],
    ['pip install x', 'installs packages or builds and runs project code'],
    ['cmake .', 'runs build scripts that can change files'],
    ['ldd ./a.out', 'may execute the binary it inspects'],
  ] as const) {
    assert.ok(reasonOf(command).includes(why), `${command}: ${reasonOf(command)}`);
  }
});
