import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCommandInWorkspace } from '../../../src/core/policy';

const ROOT = '/work/ws';
const FOLDER_REASON =
  "names the runtime's own folder `.vtcode/` (session logs and plans; writing there would forge the session's record), which commands may not touch";

function verdict(command: string, mode: 'plan' | 'build' | 'auto') {
  return checkCommandInWorkspace(command, mode, ROOT);
}

/** What /bin/sh expands `pattern` to in a folder holding only `.vtcode/` (a positive control for the globs below). */
function shExpands(pattern: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vtplan-glob-'));
  try {
    mkdirSync(join(dir, '.vtcode'));
    return execFileSync('/bin/sh', ['-c', `echo ${pattern}`], { cwd: dir, encoding: 'utf8' }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('MODE-1: outside plan mode the runtime-folder refusal does not offer the plans folder; in plan mode it does', () => {
  for (const mode of ['build', 'auto'] as const)
    assert.equal(
      verdict('cat .vtcode/sessions/s.jsonl', mode).reason,
      `\`.vtcode/sessions/s.jsonl\` ${FOLDER_REASON} (every argument of \`cat\` counts as a possible path)`,
      mode,
    );
  assert.equal(
    verdict('cat .vtcode/sessions/s.jsonl', 'plan').reason,
    `\`.vtcode/sessions/s.jsonl\` ${FOLDER_REASON} (plan mode may read \`.vtcode/plans/\`) (every argument of \`cat\` counts as a possible path)`,
  );
});

test('MODE-1: a quoted word with glob characters is a literal name, not a pattern that could match .vtcode', () => {
  for (const command of ["cat '.vtcod?'", 'cat ".vtcode*"', "cat '.VTCOD?/sessions/s.jsonl'"])
    assert.equal(verdict(command, 'build').allowed, true, command);
});

test('MODE-1: an unclosed `[` is literal, so `.vtcode[` names another file', () => {
  assert.equal(verdict('cat .vtcode[', 'build').allowed, true);
  assert.equal(verdict('cat .vtcode[/x', 'auto').allowed, true);
});

test('MODE-1: glob patterns that sh expands to .vtcode are refused in build and auto (case-insensitive, negated and class brackets)', () => {
  assert.equal(shExpands('.[!a]tcode'), '.vtcode');
  assert.equal(shExpands('.[[:alpha:]]tcode'), '.vtcode');
  assert.equal(shExpands('.vtcod[]e]'), '.vtcode');
  const commands = [
    'cat .VTCOD?/sessions/s.jsonl',
    'cat .[!a]tcode/sessions/s.jsonl',
    'cat .[^a]tcode/sessions/s.jsonl',
    'cat .[[:alpha:]]tcode/sessions/s.jsonl',
    'cp x .[[:lower:]]tcode/plans/plan.md',
    'echo x > .[[:alpha:]]tcode/plans/plan.md',
    'cat .vt[[=c=]]ode/sessions/s.jsonl',
    'cat .vtcod[]e]/sessions/s.jsonl',
    'cat [[:punct:]]vtcode/sessions/s.jsonl',
  ];
  for (const mode of ['build', 'auto'] as const)
    for (const command of commands) {
      const v = verdict(command, mode);
      assert.equal(v.allowed, false, `${mode}: ${command}`);
      assert.equal(v.refusedBy, 'paths', `${mode}: ${command}`);
      assert.ok(v.reason?.includes(FOLDER_REASON), `${mode}: ${command}: ${v.reason}`);
    }
});

test('MODE-1: bracket globs that sh expands to `..` are refused as leaving the workspace in build and auto', () => {
  assert.equal(shExpands('.[.]'), '..');
  assert.equal(shExpands('.[[:punct:]]'), '..');
  for (const mode of ['build', 'auto'] as const)
    for (const command of ['cat .[.]/x', 'cat .[[:punct:]]/x', 'cat src/.[.]/../x', 'cd .[.] && ls']) {
      const v = verdict(command, mode);
      assert.equal(v.allowed, false, `${mode}: ${command}`);
      assert.match(v.reason ?? '', /can match `\.\.` \(the folder above\) under \/bin\/sh/, `${mode}: ${command}`);
    }
});
