import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandPaths } from '../../../src/core/policy';
import type { AgentMode } from '../../../src/core/vocabulary';

// Issue 19, second round on src/core/policy/paths.ts: the `sh -c` hole its survivors led to,
// ordinary commands the workspace rule must keep allowing (a false refusal is a usability bug),
// and what its refusals name.

const ROOT = '/work/ws';

function assertAllowed(commands: readonly string[], root = ROOT, mode?: AgentMode): void {
  for (const command of commands) {
    const verdict = checkCommandPaths(command, root, mode);
    assert.equal(verdict.allowed, true, `${command} must stay allowed: ${verdict.reason ?? ''}`);
  }
}

function assertRefused(commands: readonly string[], reason: RegExp, root = ROOT, mode?: AgentMode): void {
  for (const command of commands) {
    const verdict = checkCommandPaths(command, root, mode);
    assert.equal(verdict.allowed, false, `${command} must be refused`);
    assert.match(verdict.reason ?? '', reason, command);
  }
}

const SCRIPT_OUTSIDE = /^the script run by `\w+ -c`: `\/etc\/passwd` is outside the workspace \(\/work\/ws\)/;

test('MODE-1, RO-2: a `sh -c` script is checked whatever shell options come before or after `-c`', () => {
  const commands = [
    "bash -o pipefail -c 'cat /etc/passwd'",
    "sh -o errexit -c 'cat /etc/passwd'",
    "bash -O extglob -c 'cat /etc/passwd'",
    "bash --rcfile x -c 'cat /etc/passwd'",
    "bash +e -c 'cat /etc/passwd'",
    "bash -c -e 'cat /etc/passwd'",
    "bash -c -- 'cat /etc/passwd'",
    "zsh --emulate sh -c 'cat /etc/passwd'",
  ];
  for (const mode of ['build', 'auto'] as const) assertRefused(commands, SCRIPT_OUTSIDE, ROOT, mode);
});

test('MODE-1, RO-2: every shell, run by any program, has its `-c` script checked', () => {
  assertRefused(
    ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', '/bin/bash'].map((shell) => `${shell} -c 'cat /etc/passwd'`),
    SCRIPT_OUTSIDE,
  );
  assertRefused(
    [
      "setsid sh -c 'cat /etc/passwd'",
      "find . -exec sh -c 'cat /etc/passwd' \\;",
      "ionice -c3 sh -c 'cat /etc/passwd'",
      "nice -n 5 bash -c 'cat /etc/passwd'",
      "sudo -u me sh -c 'cat /etc/passwd'",
      "timeout 5 sh -c 'cat /etc/passwd'",
    ],
    SCRIPT_OUTSIDE,
  );
});

test('MODE-1, RO-2: `watch` runs its words as one command line, which is checked', () => {
  assertRefused(["watch -n 2 'cat /etc/passwd'"], /^the script run by `watch`: `\/etc\/passwd` is outside/);
  assertAllowed(['watch -n 2 ls src', 'watch git status']);
});

test('RO-2: shell scripts inside the workspace stay allowed, with or without shell options', () => {
  assertAllowed([
    "bash -o pipefail -c 'npm test | tee out.txt'",
    "sh -c 'cp a.txt b.txt' sh",
    'bash scripts/build.sh',
    'sh -c',
    'grep -c bash README.md',
  ]);
});
