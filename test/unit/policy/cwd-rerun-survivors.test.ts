import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace } from '../../../src/core/policy';

const ROOT = '/work/ws';
const TOO_MANY = /leave more than 8 folders it may run in, more than the workspace check follows/;

function verdict(command: string) {
  return checkCommandInWorkspace(command, 'build', ROOT);
}

/** `cd a; cd b; cd c`: each `;` keeps the folder before it possible, so the next command may run in 8 folders. */
const EIGHT_FOLDERS = 'cd a; cd b; cd c';

test('MODE-1: the failure folders of a long `cd a && cd b && …` chain are never used, so more than 8 of them do not refuse the chain', () => {
  const cds = Array.from({ length: 10 }, (_, i) => `cd d${i}`).join(' && ');
  assert.equal(verdict(`${cds} && ls`).allowed, true);
  assert.equal(verdict(`${cds} && ls && cat x`).allowed, true);
  // After `;` the next command may run wherever a `cd` failed: then the 11 folders count.
  const v = verdict(`${cds}; ls`);
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', TOO_MANY);
});

test('MODE-1: the commands of a pipeline after `cd DIR &&` all run in DIR, so `../x` from there stays inside', () => {
  assert.equal(verdict('cd src && ls | cat ../x').allowed, true);
  assert.equal(verdict('cd src && ls | grep a | cat ../x').allowed, true);
  // The same path from the root leaves the workspace.
  assert.equal(verdict('ls | cat ../x').allowed, false);
});

test('MODE-1: after `cd DIR ||` the next command runs only where the `cd` failed: the folders before it, not DIR', () => {
  // 8 folders before `cd d` and 8 after: the `||` branch may run in the first 8 only.
  assert.equal(verdict(`${EIGHT_FOLDERS}; cd d || ls`).allowed, true);
  const either = verdict(`${EIGHT_FOLDERS}; cd d; ls`);
  assert.equal(either.allowed, false);
  assert.match(either.reason ?? '', TOO_MANY);
  // Which folder is tried first shows in the message: after `cd src/lib ||` only the root is.
  assert.match(verdict('cd src/lib || cat ../../../x').reason ?? '', /`\.\.\/\.\.\/\.\.\/x` resolves to \/x, outside/);
});

test('MODE-1: a pipeline can fail after its `cd` took effect (`pipefail`; zsh and bash `lastpipe` keep the last `cd`), so the `||` branch counts its folders too', () => {
  // Before the pipeline the line may be in 8 folders; `true | cd d` may leave it in 8 more even when it fails.
  const v = verdict(`${EIGHT_FOLDERS}; true | cd d || ls`);
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', TOO_MANY);
  assert.equal(verdict(`${EIGHT_FOLDERS}; true | true || ls`).allowed, true);
});

test('MODE-1: on a line with parentheses a failing `cd` may still have changed the folder of a later command, so the `||` branch counts its folders too', () => {
  const v = verdict(`(true); ${EIGHT_FOLDERS}; cd d || ls`);
  assert.equal(v.allowed, false);
  assert.match(v.reason ?? '', TOO_MANY);
  assert.equal(verdict(`(true); ${EIGHT_FOLDERS}; true || ls`).allowed, true);
});
