import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace } from '../../../src/core/policy';
import type { AgentMode } from '../../../src/core/vocabulary';

// Issue 19, rerun of src/core/policy/command-words.ts: the words of a redirection target are read
// on their own (shell-scan.ts hands each target to splitWords), so whether a short target skips
// shell-quote decides what the workspace path rule sees. A target such as `"$*"` or `\.\.` holds
// no letter or digit, and sh reads it as something other than its text.

const ROOT = '/work/ws';

function verdict(command: string, mode: AgentMode) {
  const v = checkCommandInWorkspace(command, mode, ROOT);
  return { allowed: v.allowed, refusedBy: v.refusedBy, reason: v.reason };
}

test('MODE-1, RO-2: a redirection target that is only a special parameter (`$*`, `$$`) is refused in build mode: the path rule cannot resolve it', () => {
  const cases: [string, string][] = [
    ['echo x > "$*"', 'redirection `> "$*"`: `${*}`'],
    ['echo x >> $*', 'redirection `>> $*`: `${*}`'],
    ['cat < $$', 'redirection `<$$`: `${$}`'],
    ['cat < "${?}"', 'redirection `<"${?}"`: `${?}`'],
  ];
  for (const [command, named] of cases) {
    for (const mode of ['build', 'auto'] as const) {
      assert.deepEqual(
        verdict(command, mode),
        {
          allowed: false,
          refusedBy: 'paths',
          reason: `${named} expands a shell variable the workspace check cannot resolve, so it cannot prove the path stays inside the workspace (${ROOT}); spell the path out`,
        },
        `${mode}: ${command}`,
      );
    }
  }
});

test('RO-2, MODE-1: a redirection target spelled with quotes or escapes around `..` is read as sh reads it and refused in every mode', () => {
  const cases: [string, string][] = [
    ['cat < \\.\\.', 'redirection `<\\.\\.`: `..` resolves to /work,'],
    ['cat < "..""/"..', 'redirection `<"..""/"..`: `../..` resolves to /,'],
    ['cat < "../"*', 'redirection `<"../"*`: `../*` resolves to /work/*,'],
  ];
  for (const [command, named] of cases) {
    for (const mode of ['plan', 'build'] as const) {
      assert.deepEqual(
        verdict(command, mode),
        {
          allowed: false,
          refusedBy: 'paths',
          reason: `${named} outside the workspace (${ROOT}); commands may only name paths inside it`,
        },
        `${mode}: ${command}`,
      );
    }
  }
});

test('RO-2: a quoted `.` followed by a glob in a redirection target is still the glob `.*`, which can match `..`', () => {
  for (const mode of ['plan', 'build'] as const) {
    assert.deepEqual(
      verdict("cat < '.'*", mode),
      {
        allowed: false,
        refusedBy: 'paths',
        reason: `redirection \`<'.'*\`: the glob \`.*\` can match \`..\` (the folder above) under /bin/sh, which may lead outside the workspace (${ROOT}); name the files explicitly`,
      },
      mode,
    );
  }
});

test('MODE-1: sh never expands the words of a comment, so a glob written in one is no path the build agent could reach', () => {
  for (const command of ['ls # .*', 'ls # ./.?', 'ls # see .* and ..?']) {
    assert.deepEqual(verdict(command, 'build'), { allowed: true, refusedBy: null, reason: null }, command);
  }
});
