/**
 * `vtplan doctor` (RO-1, ADD-2): says whether agent commands run in an OS sandbox here, from the
 * same probe sessions use, and how to get one when they do not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliCaptured } from '../../fixtures/cli';

function doctor(env: Record<string, string | undefined>, ...argv: string[]) {
  return runCliCaptured(['doctor', ...argv], { env });
}

test('RO-1, ADD-2: vtplan doctor reports the bubblewrap sandbox and what it contains, exit 0', async () => {
  const r = await doctor({ PATH: process.env.PATH, HOME: process.env.HOME });
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(
    r.out,
    /^sandbox: bubblewrap \d+\.\d+\.\d+ \(\/\S*bwrap\)\n {2}agent commands run in it: plan mode sees the workspace read-only; build\/auto write the workspace except \.vtcode\//,
  );
  const json = JSON.parse((await doctor({ PATH: process.env.PATH }, '--json')).out) as {
    sandbox: { sandboxed: boolean; summary: string };
  };
  assert.equal(json.sandbox.sandboxed, true);
});

test('RO-1, ADD-2: without bwrap, vtplan doctor says "unavailable — policy only", what that means and how to install it, exit 1', async () => {
  const r = await doctor({ PATH: '/nonexistent' });
  assert.equal(r.code, 1);
  assert.match(
    r.out,
    /^sandbox: unavailable \(bwrap not found\) — policy only\n {2}plan mode runs inspection commands only \(no test runners\)/,
  );
  assert.match(r.out, /sudo apt-get install bubblewrap/);
  const json = JSON.parse((await doctor({ PATH: '/nonexistent' }, '--json')).out) as {
    sandbox: { sandboxed: boolean; remedy: string };
  };
  assert.equal(json.sandbox.sandboxed, false);
  assert.match(json.sandbox.remedy, /bubblewrap/);
  assert.equal((await doctor({}, 'extra')).code, 2);
});
