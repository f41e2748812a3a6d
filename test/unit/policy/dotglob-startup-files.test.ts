/**
 * MODE-1, RO-2: a shell that runs a startup file before its script can turn on `dotglob` where the
 * command line does not show it (`BASH_ENV=x.sh bash -c …` wrote `.vtcode/plans/plan.md` through
 * `*code`, checked with bash 5.2), so on such a line a leading `*` or `?` counts as able to match
 * `.vtcode`, as for `shopt -s dotglob`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommandInWorkspace } from '../../../src/core/policy';

const ROOT = '/work/ws';

test('MODE-1: a shell with a startup file (BASH_ENV, ENV, --rcfile, -i, -l, --login) may match .vtcode with *code', () => {
  for (const command of [
    "BASH_ENV=x.sh bash -c 'cp x *code/plans/plan.md'",
    "env BASH_ENV=x.sh bash -c 'cp x *code/plans/plan.md'",
    "ENV=x.sh sh -ic 'cp x *code/plans/plan.md'",
    "bash --rcfile rc -ic 'cp x *code/plans/plan.md'",
    "bash --init-file rc -c 'cp x *code/plans/plan.md'",
    "bash -ic 'cp x *code/plans/plan.md'",
    "bash -lc 'cp x *code/plans/plan.md'",
    "dash -i -c 'cp x *code/plans/plan.md'",
    "bash --login -c 'cp x *code/plans/plan.md'",
  ]) {
    const v = checkCommandInWorkspace(command, 'auto', ROOT);
    assert.equal(v.allowed, false, command);
    assert.match(v.reason ?? '', /names the runtime's own folder `\.vtcode\/`/, command);
  }
});

test('MODE-1: without a startup file or a dotglob switch, a leading * still does not match .vtcode', () => {
  for (const command of [
    "bash -c 'cp x *code/plans/plan.md'",
    'cp x *code/plans/plan.md',
    'ls -l *',
    'ssh -l me host ls',
  ]) {
    assert.equal(checkCommandInWorkspace(command, 'auto', ROOT).allowed, true, command);
  }
});
