import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand, checkCommandInWorkspace } from '../../../src/core/policy';

function plan(command: string) {
  const v = checkCommand(command, 'plan');
  return { allowed: v.allowed, class: v.class, reason: v.reason };
}

test('RO-2: a process environment read through `<` is refused, also behind another redirection', () => {
  for (const command of ['cat < /proc/self/environ', 'cat a </proc/1/environ', 'ls >/dev/null </proc/self/environ'])
    assert.deepEqual(
      plan(command),
      {
        allowed: false,
        class: 'unknown',
        reason: `\`${/\/proc\/[^ ]*/.exec(command)?.[0]}\` may be a process environment, which holds secrets (API keys, tokens)`,
      },
      command,
    );
  // A descriptor duplication and /dev/null name no file to read.
  assert.deepEqual(plan('ls 2>&1'), { allowed: true, class: 'inspection', reason: null });
});

test('RO-2 [seed wins]: a probe whose only redirection sends output to /dev/null still stands alone', () => {
  assert.deepEqual(plan('node --version 2>/dev/null'), { allowed: true, class: 'inspection', reason: null });
  assert.equal(plan('node --version < a.txt').allowed, false);
});

test('RO-2: a glob that could become an option is refused as unknown for a program with write options; a segment of redirections only has no command', () => {
  const sorted = plan('sort *.md');
  assert.equal(sorted.allowed, false);
  assert.equal(sorted.class, 'unknown');
  assert.match(sorted.reason ?? '', /\(`sort` has options that write files or run programs\)$/);
  assert.deepEqual(plan('< *.txt'), { allowed: false, class: 'unknown', reason: 'the segment has no command' });
});

test('RO-2: a command refused by the policy keeps the policy reason on its segment, even when it also names a path outside the workspace', () => {
  const v = checkCommandInWorkspace('rm /etc/hosts', 'plan', '/ws');
  assert.equal(v.refusedBy, 'policy');
  assert.deepEqual(v.segments, [
    { command: 'rm /etc/hosts', allowed: false, reason: '`rm` creates, changes or deletes files' },
  ]);
  const allowed = checkCommandInWorkspace('ls src', 'plan', '/ws');
  assert.deepEqual([allowed.allowed, allowed.refusedBy, allowed.reason], [true, null, null]);
});

test('RO-1: a check that throws refuses the command as unknown, and the workspace verdict carries the same reason everywhere', () => {
  const notText = 42 as unknown as string;
  const reason = 'the command policy failed on this command (command.trim is not a function), so it was not run';
  assert.deepEqual(checkCommand(notText, 'build'), {
    allowed: false,
    class: 'unknown',
    reason,
    segments: [{ command: '42', allowed: false, reason }],
  });
  const v = checkCommandInWorkspace(notText, 'auto', '/ws');
  assert.deepEqual(
    {
      allowed: v.allowed,
      class: v.class,
      reason: v.reason,
      reading: v.reading,
      paths: v.paths,
      refusedBy: v.refusedBy,
    },
    {
      allowed: false,
      class: 'unknown',
      reason,
      reading: { ok: false, problem: { message: reason, class: 'unknown' } },
      paths: { allowed: false, reason, segments: [{ command: '42', allowed: false, reason }] },
      refusedBy: 'policy',
    },
  );
});

test('RO-2, NAV-2: a chain is classed by its highest segment, wherever that segment stands; a single segment by its own class', () => {
  for (const [command, cls] of [
    ['ls', 'inspection'],
    ['pytest', 'verification'],
    ['ls; pytest', 'verification'],
    ['pytest; ls', 'verification'],
    ['ls; rm x; pytest', 'mutation'],
    ['rm x; ls', 'mutation'],
    ['ls; frobnicate; pytest', 'unknown'],
  ] as const)
    assert.equal(checkCommand(command, 'build').class, cls, command);
});
