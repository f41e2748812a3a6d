/**
 * PLAN-4: a wrapper's own options are not the command. `timeout -s KILL 10 git reset --hard` used
 * to be judged with `-s` as the program (an unknown program with arguments), so a verify check
 * that resets the repository passed; every wrapper now skips its options (and the values of those
 * that take one) before the command is judged.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { judgeVerifyItem } from '../../../src/core/plan';

const code = { markdownOnly: false };
const RESET = 'rejected:`git reset` changes the repository or its refs and does not verify a step';

function verdictOf(item: string): string {
  const v = judgeVerifyItem(item, code);
  return v.ok ? `ok:${v.kind}` : `rejected:${v.reason.slice(0, v.reason.indexOf(': '))}`;
}

test('PLAN-4: options of timeout, nice, exec and xvfb-run are skipped before the command is judged', () => {
  for (const item of [
    'timeout -s KILL 10 git reset --hard',
    'timeout --signal KILL 10 git reset --hard',
    'timeout --signal=KILL 10 git reset --hard',
    'timeout -k 5 10 git reset --hard',
    'timeout --kill-after 5 --preserve-status 10 git reset --hard',
    'timeout --foreground git reset --hard',
    'timeout -- 10 git reset --hard',
    'nice -n 5 git reset --hard',
    'nice --adjustment 5 git reset --hard',
    'nice -n5 timeout -s TERM 30 git reset --hard',
    'exec -a name git reset --hard',
    'command -p git reset --hard',
    'xvfb-run -a -s "-screen 0 1024x768x24" git reset --hard',
    'CI=1 timeout -v 10 git reset --hard',
  ]) {
    assert.equal(verdictOf(item), RESET, item);
  }
});

test('PLAN-4: a wrapped check with options still verifies a step', () => {
  for (const item of [
    'timeout -s KILL 60 npm test',
    'nice -n 10 cargo test -p core',
    'xvfb-run -a npm run test:e2e',
    'timeout -k 5 2m pytest tests/test_api.py',
  ]) {
    assert.equal(verdictOf(item), 'ok:command', item);
  }
});
