/**
 * PLAN-4: the values a wrapper's options take are skipped with them, one table row per option
 * (a value read as the command would reject a real check such as `xvfb-run -n 99 npm test`), and
 * only `timeout` takes a duration.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { judgeVerifyItem } from '../../../src/core/plan';

const code = { markdownOnly: false };

function verdictOf(item: string): string {
  const v = judgeVerifyItem(item, code);
  return v.ok ? `ok:${v.kind}` : 'rejected';
}

test('PLAN-4: every valued option of timeout, nice, exec and xvfb-run skips its value', () => {
  // The value is `git`: read as the command, `git npm test` selects nothing and is rejected.
  for (const option of [
    'timeout -s',
    'timeout --signal',
    'timeout -k',
    'timeout --kill-after',
    'nice -n',
    'nice --adjustment',
    'exec -a',
    'xvfb-run -n',
    'xvfb-run --server-num',
    'xvfb-run -s',
    'xvfb-run --server-args',
    'xvfb-run -f',
    'xvfb-run --auth-file',
    'xvfb-run -e',
    'xvfb-run --error-file',
    'xvfb-run -p',
    'xvfb-run --xauth-protocol',
    'xvfb-run -w',
    'xvfb-run --wait',
  ]) {
    assert.equal(verdictOf(`${option} git npm test`), 'ok:command', option);
  }
  assert.equal(verdictOf('xvfb-run -a git npm test'), 'rejected', '-a takes no value');
});

test('PLAN-4: leading variable assignments are skipped; a word that only holds `=` is not one', () => {
  assert.equal(verdictOf('NODE_ENV=test npm test'), 'ok:command');
  assert.equal(verdictOf('1X=2 npm test'), 'rejected');
});

test('PLAN-4: only a whole number or decimal with an optional unit is a timeout duration, and only for timeout', () => {
  assert.equal(verdictOf('timeout 2.55 pytest tests/test_api.py'), 'ok:command');
  assert.equal(verdictOf('timeout x5 pytest'), 'rejected');
  assert.equal(verdictOf('nice 10 pytest tests/test_api.py'), 'rejected');
});

test('PLAN-4: a wrapper with options and no command is rejected, not an error', () => {
  for (const item of ['timeout -v', 'timeout -s KILL', 'nice -n 5']) {
    assert.equal(verdictOf(item), 'rejected', item);
  }
});
