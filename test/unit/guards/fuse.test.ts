import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  blockedHandoff,
  fuseLimits,
  newFuse,
  recordCall,
  renderBlockedHandoff,
  type FuseDecision,
  type FuseLimits,
  type FuseState,
} from '../../../src/core/guards';

function run(
  limits: FuseLimits,
  outcomes: readonly ('blocked' | 'allowed')[],
): { state: FuseState; decisions: FuseDecision[] } {
  let state = newFuse();
  const decisions: FuseDecision[] = [];
  for (const o of outcomes) {
    const step = recordCall(state, o, limits);
    state = step.state;
    decisions.push(step.decision);
  }
  return { state, decisions };
}

const scattered = (n: number) => Array.from({ length: n }, () => ['blocked', 'allowed'] as const).flat();

test('FUSE-1: total fuse is 2× cap normal, 4× plan, 1× recovery', () => {
  assert.deepEqual(fuseLimits(8, 'normal'), { consecutive: 8, total: 16, phase: 'normal' });
  assert.deepEqual(fuseLimits(8, 'plan'), { consecutive: 8, total: 32, phase: 'plan' });
  assert.deepEqual(fuseLimits(8, 'recovery'), { consecutive: 8, total: 8, phase: 'recovery' });
  assert.throws(() => fuseLimits(0, 'plan'), RangeError);
});

test('FUSE-1: cap 3 in plan: 12 non-consecutive blocked calls pass, call 13 stops', () => {
  const limits = fuseLimits(3, 'plan');
  const twelve = run(limits, scattered(12));
  assert.ok(twelve.decisions.every((d) => d.kind === 'continue'));
  assert.deepEqual(twelve.state, { consecutive: 0, total: 12 });
  const step = recordCall(twelve.state, 'blocked', limits);
  assert.equal(step.decision.kind, 'tripped');
  if (step.decision.kind === 'tripped') {
    assert.deepEqual(
      [step.decision.limit, step.decision.cap, step.decision.total, step.decision.next],
      ['total', 12, 13, 'recovery_pass'],
    );
  }
  const after = recordCall(step.state, 'blocked', fuseLimits(3, 'recovery'));
  assert.ok(
    after.decision.kind === 'tripped' && after.decision.next === 'end_turn_blocked',
    'above the limit, in the recovery that follows, the next blocked call ends the turn',
  );
});

test('FUSE-1: total limit at, below and above in normal mode (cap 3 → 6)', () => {
  const limits = fuseLimits(3, 'normal');
  assert.ok(run(limits, scattered(5)).decisions.every((d) => d.kind === 'continue'));
  assert.ok(run(limits, scattered(6)).decisions.every((d) => d.kind === 'continue'));
  assert.equal(run(limits, scattered(7)).decisions.filter((d) => d.kind === 'tripped').length, 1);
});

test('FUSE-1: consecutive cap: cap blocked in a row pass, one more trips; a success resets the streak only', () => {
  const limits = fuseLimits(3, 'plan');
  const three = run(limits, ['blocked', 'blocked', 'blocked']);
  assert.ok(three.decisions.every((d) => d.kind === 'continue'));
  const four = recordCall(three.state, 'blocked', limits);
  assert.equal(four.decision.kind === 'tripped' && four.decision.limit, 'consecutive');
  const reset = recordCall(three.state, 'allowed', limits);
  assert.deepEqual(reset.state, { consecutive: 0, total: 3 });
  assert.equal(recordCall(reset.state, 'blocked', limits).decision.kind, 'continue');
});

test('FUSE-1: in recovery the fuse is 1× cap and ends the turn blocked', () => {
  const limits = fuseLimits(2, 'recovery');
  const r = run(limits, ['blocked', 'allowed', 'blocked', 'allowed', 'blocked']);
  const last = r.decisions.at(-1);
  assert.equal(
    r.decisions.slice(0, -1).every((d) => d.kind === 'continue'),
    true,
  );
  assert.ok(last?.kind === 'tripped' && last.next === 'end_turn_blocked' && last.limit === 'total');
  if (last?.kind === 'tripped') assert.match(last.message, /recovery/);
});

test('FUSE-2: the handoff advertises resume only for a persisted and verified archive', () => {
  const base = { reason: 'fuse tripped', planning: false };
  const ok = blockedHandoff({ ...base, archive: { status: 'verified', resumeCommand: 'vtplan resume s-42' } });
  assert.match(ok.resume, /`vtplan resume s-42`/);
  for (const archive of [
    { status: 'disabled' },
    { status: 'failed', error: 'disk full' },
    { status: 'unsupported' },
  ] as const) {
    const h = blockedHandoff({ ...base, archive });
    assert.match(h.resume, /^Resume is unavailable: /);
    assert.doesNotMatch(renderBlockedHandoff(h), /vtplan resume/);
  }
  assert.match(blockedHandoff({ ...base, archive: { status: 'failed', error: 'disk full' } }).resume, /disk full/);
});

test('FUSE-3: a turn blocked while planning carries plan-mode guidance in the handoff file', () => {
  const h = blockedHandoff({
    reason: 'Mutation blocked: write_file',
    planning: true,
    archive: { status: 'unsupported' },
  });
  const text = renderBlockedHandoff(h);
  assert.match(text, /## Actionable Next Steps/);
  assert.match(text, /`Mutation blocked` means the edit was stopped by policy, not by a failing check/);
  assert.match(text, /Retrying the same mutating tools will block the turn again/);
  assert.match(text, /`continue`.*approving the plan.*`\/mode build`.*`\/mode auto`/);
  assert.match(text, /does not switch by itself/);
  assert.match(h.placeholder, /continue/);
  const plain = renderBlockedHandoff(
    blockedHandoff({ reason: 'x', planning: false, archive: { status: 'unsupported' } }),
  );
  assert.doesNotMatch(plain, /Mutation blocked/);
});
