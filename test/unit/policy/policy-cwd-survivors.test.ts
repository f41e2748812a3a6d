import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace } from '../../../src/core/policy';

const ROOT = '/work/ws';

function verdict(command: string) {
  return checkCommandInWorkspace(command, 'build', ROOT);
}

/** `cd a && cd b && …` over `count` folders, then `popd && ls`. */
function popdAfter(count: number): string {
  const cds = Array.from({ length: count }, (_, i) => `cd d${i}`).join(' && ');
  return `${cds} && popd && ls`;
}

test('MODE-1, RO-2: a `cd` in a pipeline may not last, so the next command is checked from the old folder too', () => {
  const v = verdict('cd src | true && cat ../package.json');
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', /`\.\.\/package\.json` resolves to \/work\/package\.json, outside the workspace/);
});

test('MODE-1: after `a || cd DIR` the next `&&` command may run in DIR as well as where `a` left it', () => {
  const v = verdict('cd src/lib && ls || cd /work/ws/src && cat ../.vtcode/x');
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', /`\.\.\/\.vtcode\/x` names the runtime's own folder/);
  // From src/lib and from src, `../x` stays inside: the same chain is allowed.
  assert.equal(verdict('cd src/lib && ls || cd /work/ws/src && cat ../x').allowed, true);
});

test('MODE-1: `popd` may return to any folder the line was in; up to 8 (the root and 7 `cd`s) are followed, 9 are refused', () => {
  assert.equal(verdict('pushd src && popd && ls').allowed, true);
  assert.equal(verdict(popdAfter(7)).allowed, true);
  const over = verdict(popdAfter(8));
  assert.equal(over.allowed, false);
  assert.match(over.reason ?? '', /leave more than 8 folders it may run in, more than the workspace check follows/);
});
