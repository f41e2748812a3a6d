/**
 * RO-2 hardening: plan-mode commands run with the read-only environment, so variables that make
 * git or a shell start other programs cannot turn an allowed read into a write.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { nodeShell } from '../../../src/node/shell';

const run = (readOnly: boolean) =>
  nodeShell.run({ command: 'printf "%s|%s|%s" "$GIT_EXTERNAL_DIFF" "$BASH_ENV" "$GIT_PAGER"', cwd: tmpdir(), timeoutMs: 5_000, maxOutputBytes: 4_096, readOnly });

test('RO-2: a plan-mode command gets no GIT_EXTERNAL_DIFF / BASH_ENV and a cat pager; other modes keep the environment', async () => {
  const saved = { diff: process.env.GIT_EXTERNAL_DIFF, bashEnv: process.env.BASH_ENV };
  process.env.GIT_EXTERNAL_DIFF = '/tmp/evil-diff';
  process.env.BASH_ENV = '/tmp/evil-env';
  try {
    assert.equal((await run(true)).stdout.text, '||cat');
    assert.equal((await run(false)).stdout.text, '/tmp/evil-diff|/tmp/evil-env|cat');
  } finally {
    if (saved.diff === undefined) delete process.env.GIT_EXTERNAL_DIFF;
    else process.env.GIT_EXTERNAL_DIFF = saved.diff;
    if (saved.bashEnv === undefined) delete process.env.BASH_ENV;
    else process.env.BASH_ENV = saved.bashEnv;
  }
});
