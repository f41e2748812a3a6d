import { test } from 'node:test';
import { posix } from 'node:path';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace, checkCommandPaths } from '../../../src/core/policy';

const ROOT = '/work/ws';

test('MODE-1, RO-2: in build and auto no command may name .vtcode/ or anything below it (arguments, option values, redirections, cd)', () => {
  const refused = [
    'cat .vtcode/sessions/s.jsonl',
    'cat .vtcode/plans/plan.md',
    'ls .vtcode',
    'ls .vtcode/',
    'cp x .vtcode/plans/plan.md',
    'echo x > .vtcode/plans/plan.md',
    'echo x >> .vtcode/sessions/s.jsonl',
    'rm -rf .vtcode',
    'cat ./.vtcode/plans/a.md',
    'cat src/../.vtcode/x',
    'cat /work/ws/.vtcode/x',
    'cat .VTCODE/sessions/x',
    'cat --file=.vtcode/x',
    'tar -C.vtcode -cf a.tar x',
    'X=.vtcode/x make',
    'cd .vtcode && ls',
    'cd src && cat ../.vtcode/x',
    'ls .vt*',
    'ls .vtcod?',
    'ls .[v]tcode',
    'cat .vtcode/*',
    "sh -c 'cat .vtcode/x'",
  ];
  for (const mode of ['build', 'auto'] as const) {
    for (const c of refused) {
      const v = checkCommandInWorkspace(c, mode, ROOT);
      assert.equal(v.allowed, false, `${mode}: ${c}`);
      assert.equal(v.refusedBy, 'paths', `${mode}: ${c}`);
      assert.match(v.reason ?? '', /the runtime's own folder `\.vtcode\/`/, `${mode}: ${c}`);
    }
  }
  for (const c of [
    'ls',
    'ls *',
    'cat */package.json',
    'rg foo .',
    'cat vtcode/x',
    'cat .vtcodex/x',
    'cat src/.vtcode/x',
    'ls .git',
  ]) {
    assert.equal(checkCommandInWorkspace(c, 'build', ROOT).allowed, true, c);
  }
});

test('MODE-1, RO-2: in plan mode the plans under .vtcode/plans may be read; the rest of .vtcode stays refused', () => {
  for (const c of [
    'cat .vtcode/plans/plan.md',
    'ls .vtcode/plans',
    'ls -lah .vtcode/plans/',
    'cd .vtcode/plans && cat plan.md',
    'rg -n Step .vtcode/plans',
    'cat .vt*/plans/x.md',
    'cd .vtcode/plans && cat ../plans/a.md',
    'cd .vtcode/plans/old && cat ../../plans/a.md ../b.md',
    'cd src && cat ../.vtcode/plans/a.md',
  ]) {
    const v = checkCommandInWorkspace(c, 'plan', ROOT);
    assert.equal(v.allowed, true, `${c}: ${v.reason}`);
  }
  for (const c of [
    'cat .vtcode/sessions/s.jsonl',
    'ls .vtcode',
    'tree -a -L 2 .vtcode',
    'cat .vtcode/tasks/current_task.md',
    'cd .vtcode/plans && cat ../sessions/s.jsonl',
    'cd .vtcode/plans/old && cat ../../x',
    'cd .vtcode/plans && cat ..',
    'cat .vtcode/p*/x',
  ]) {
    const v = checkCommandInWorkspace(c, 'plan', ROOT);
    assert.equal(v.allowed, false, c);
    assert.match(v.reason ?? '', /`\.vtcode\/`.*\(plan mode may read `\.vtcode\/plans\/`\)/, c);
  }
  // checkCommandPaths without a mode is the strictest reading.
  assert.equal(checkCommandPaths('cat .vtcode/plans/plan.md', ROOT).allowed, false);
  assert.equal(checkCommandPaths('cat .vtcode/plans/plan.md', ROOT, 'plan').allowed, true);
});

/** The rule spelled out naively: join, normalise, then look at the first two components. */
function expected(folder: string, path: string, mode: 'plan' | 'build'): boolean {
  const ok = (absolute: string) => {
    if (absolute !== ROOT && !absolute.startsWith(`${ROOT}/`)) return false;
    const [first, second] = posix.relative(ROOT, absolute).split('/');
    return first?.toLowerCase() !== '.vtcode' || (mode === 'plan' && second?.toLowerCase() === 'plans');
  };
  const cwd = posix.join(ROOT, folder);
  return ok(cwd) && ok(posix.join(cwd, path));
}

test('MODE-1, RO-2: property: the path rule resolves `cd DIR && cat PATH` as joining and normalising would, .vtcode included', () => {
  const part = fc.constantFrom('a', 'b', '.vtcode', '.VTCODE', 'plans', 'sessions', '..', '.');
  const path = fc.array(part, { minLength: 1, maxLength: 6 }).map((p) => p.join('/'));
  fc.assert(
    fc.property(path, path, fc.constantFrom('plan' as const, 'build' as const), (folder, file, mode) => {
      const v = checkCommandPaths(`cd ${folder} && cat ${file}`, ROOT, mode);
      return v.allowed === expected(folder, file, mode);
    }),
    { numRuns: 3000 },
  );
});
