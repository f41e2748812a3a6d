/**
 * Robustness (EXEC-3, RO-3): commands built to make the policy's parser slow or confused must be
 * refused, and the turn must go on (the model is told, the session ends normally, the CLI exits
 * 0). How fast they are judged is a figure of bench/policy.bench.ts, not a test. And a repository whose `.vtcode` (or a folder in it) is a symlink out of the
 * workspace must not make the runtime write there, in plan or auto mode.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { attackSuite, type Attack } from './attack-checks';
import { describeReport, runCase, type CaseReport, type SecurityMode } from './harness';

function refusalsTold(r: CaseReport): void {
  for (const c of r.commands) {
    const call = r.events.find((e) => e.type === 'tool.call' && e.callId === c.callId);
    const answer = r.events.find(
      (e) => (e.type === 'tool.blocked' || e.type === 'tool.result') && e.callId === c.callId,
    );
    assert.ok(call && answer, `no call/answer pair for ${c.command.slice(0, 60)}…: ${describeReport(r)}`);
    assert.match(c.seen ?? '', /blocked|refused|not run/i, `the model was told: ${describeReport(r)}`);
  }
}

const cdChain = 'cd src; '.repeat(768); // 6 KB
const hostile = (mode: SecurityMode, name: string, command: readonly string[]): Attack => ({
  title: 'policy robustness',
  c: { name, mode, command },
  expect: {
    refused: 'all',
    exitCode: 0,
    extra: { name: 'EXEC-3: each call was answered with a refusal the model saw', check: refusalsTold },
  },
});

const attacks: Attack[] = [
  hostile('plan', 'robust-named', [cdChain, 'ls ${x', 'echo "${x']),
  // Just under the policy's 16 KB cap, so the parser itself is exercised, and far over it.
  hostile('plan', 'robust-nesting', [
    'echo ' + '$('.repeat(2_000) + 'id' + ')'.repeat(2_000),
    'echo ' + '"'.repeat(10_001),
    'ls ' + '\\'.repeat(16_001),
    "echo 'a" + 'a'.repeat(16_370),
    "echo '" + 'a'.repeat(64 * 1024),
  ]),
  hostile('plan', 'robust-operators', [
    'ls' + ' | cat'.repeat(2_700) + ' > out.txt',
    'true' + ' && true'.repeat(1_900) + '; touch pwned',
    'cat' + ' <<E'.repeat(1_000),
    '{ '.repeat(3_000) + 'touch pwned',
    'ls' + ' | cat'.repeat(6_000),
  ]),
  hostile('auto', 'robust-auto', [
    cdChain + 'touch {outside}/p',
    'ls ${x',
    'echo ' + '$('.repeat(2_000) + 'touch {outside}/p' + ')'.repeat(2_000),
    'cd ' + '../'.repeat(3_000) + ' && touch p',
  ]),
];

attackSuite('policy robustness', attacks, { concurrency: 4 });

describe('a repository whose .vtcode leads out of the workspace', { concurrency: 4 }, () => {
  const cases: { name: string; mode: SecurityMode; link: string; target: string; parentInWs?: boolean }[] = [
    { name: 'vtcode-link-plan', mode: 'plan', link: '.vtcode', target: 'vt' },
    { name: 'vtcode-link-auto', mode: 'auto', link: '.vtcode', target: 'vt' },
    { name: 'plans-link-plan', mode: 'plan', link: '.vtcode/plans', target: 'plans', parentInWs: true },
    { name: 'sessions-link-plan', mode: 'plan', link: '.vtcode/sessions', target: 'sessions', parentInWs: true },
    { name: 'tasks-link-auto', mode: 'auto', link: '.vtcode/tasks', target: 'tasks', parentInWs: true },
  ];
  for (const k of cases) {
    test(
      `vtcode symlink [${k.mode}] MODE-1 STORE-2: ${k.link} -> {outside}/${k.target}: nothing is written through it`,
      { timeout: 150_000 },
      async () => {
        const r = await runCase({
          name: k.name,
          mode: k.mode,
          command: ['ls'],
          outsideFiles: { [`${k.target}/keep`]: '' },
          ...(k.parentInWs ? { files: { '.vtcode/keep': '' } } : {}),
          symlinks: { [k.link]: `{outside}/${k.target}` },
          timeoutMs: 90_000,
        });
        const msg = describeReport(r);
        assert.equal(r.timedOut, false, msg);
        assert.deepEqual(r.outside, { created: [], changed: [], deleted: [] }, msg);
        assert.deepEqual(r.home, { created: [], changed: [], deleted: [] }, msg);
        assert.deepEqual(r.tmp, [], msg);
        if (k.mode === 'plan') assert.deepEqual(r.workspace, { created: [], changed: [], deleted: [] }, msg);
        // Either the session refuses to start (and says why) or it runs without using the link.
        if (r.sessionId === null) assert.match(r.stderr, /symbolic link/, msg);
      },
    );
  }
});
