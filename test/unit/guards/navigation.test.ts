import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeCommand,
  describeToolCall,
  navigate,
  navigationSignal,
  newNavigation,
  type NavDecision,
  type NavEvent,
  type NavigationState,
  type ToolOutcome,
} from '../../../src/core/guards';
import { checkCommandInWorkspace } from '../../../src/core/policy';

/** As the runloop does: a command is described from the reading its gate check judged. */
function describe(name: string, args: { command?: string } & Record<string, unknown>) {
  return name === 'run_command'
    ? describeCommand(checkCommandInWorkspace(args.command ?? '', 'build', '/w'))
    : describeToolCall(name, args);
}

let seq = 0;
function read(signal: 'low' | 'productive', request = `read_file:${(seq += 1)}`): NavEvent {
  return {
    kind: 'outcome',
    outcome: { tool: 'read_file', target: `f${seq}`, request, listing: null, class: 'inspection', signal },
  };
}
function call(
  name: string,
  args: { command?: string } & Record<string, unknown>,
  signal: 'low' | 'productive' = 'productive',
  cls: ToolOutcome['class'] = 'inspection',
): NavEvent {
  return { kind: 'outcome', outcome: { ...describe(name, args), class: cls, signal } };
}
const verification: NavEvent = call('run_command', { command: 'cargo test' }, 'productive', 'verification');
const mutation: NavEvent = call('write_file', { path: 'a.ts' }, 'productive', 'mutation');

function feed(
  state: NavigationState,
  events: readonly NavEvent[],
): { state: NavigationState; decisions: NavDecision[] } {
  const decisions: NavDecision[] = [];
  for (const e of events) {
    const step = navigate(state, e);
    state = step.state;
    decisions.push(step.decision);
  }
  return { state, decisions };
}
const times = (n: number, make: () => NavEvent) => Array.from({ length: n }, make);
const fired = (r: { decisions: NavDecision[] }) => r.decisions.filter((d) => d.kind === 'schedule_pass');

test('NAV-2: 5 consecutive low-signal reads continue, the 6th schedules one synthesis pass', () => {
  const five = feed(
    newNavigation('plan'),
    times(5, () => read('low')),
  );
  assert.equal(fired(five).length, 0);
  const six = navigate(five.state, read('low'));
  assert.equal(six.decision.kind === 'schedule_pass' && six.decision.guard, 'low_signal');
  assert.equal(navigate(six.state, read('low')).decision.kind, 'continue', 'a pending pass is never re-announced');
});

test('NAV-2: productive navigation resets the consecutive count but not the total; the 10th total low fires', () => {
  const events = [...times(5, () => read('low')), read('productive'), ...times(4, () => read('low'))];
  const nine = feed(newNavigation('plan'), events);
  assert.equal(fired(nine).length, 0);
  assert.equal(nine.state.lowTotal, 9);
  const ten = navigate(nine.state, read('low'));
  assert.ok(ten.decision.kind === 'schedule_pass' && /10 low-signal/.test(ten.decision.reason));
});

test('NAV-2: verification, mutation, recovery and a new turn reset both counts', () => {
  for (const reset of [verification, mutation, { kind: 'recovery' } as const, { kind: 'new_turn' } as const]) {
    const r = feed(newNavigation('plan'), [...times(5, () => read('low')), reset, ...times(5, () => read('low'))]);
    assert.equal(fired(r).length, 0, reset.kind);
    assert.equal(r.state.lowTotal, 5);
  }
});

test('NAV-2: low-signal accounting is a planning guard only', () => {
  assert.equal(
    fired(
      feed(
        newNavigation('exec'),
        times(10, () => read('low')),
      ),
    ).length,
    0,
  );
});

test('NAV-3: 12 consecutive inspections with a repeated request schedule the pass; 11 do not; 12 distinct stay eligible', () => {
  const repeated = [read('productive', 'same'), read('productive', 'same'), ...times(9, () => read('productive'))];
  const eleven = feed(newNavigation('plan'), repeated);
  assert.equal(fired(eleven).length, 0);
  const twelve = navigate(eleven.state, read('productive'));
  assert.equal(twelve.decision.kind === 'schedule_pass' && twelve.decision.guard, 'repeated_inspection');
  assert.equal(
    fired(
      feed(
        newNavigation('plan'),
        times(13, () => read('productive')),
      ),
    ).length,
    0,
  );
  const broken = feed(newNavigation('plan'), [...repeated, verification, read('productive')]);
  assert.equal(fired(broken).length, 0, 'verification breaks the run of inspections');
});

test('NAV-3: output controls do not make an inspection new', () => {
  assert.equal(
    describeToolCall('grep', { pattern: 'x', path: 'src', limit: 10 }).request,
    describeToolCall('grep', { path: 'src', pattern: 'x', max_output_tokens: 900 }).request,
  );
  assert.notEqual(
    describeToolCall('grep', { pattern: 'x', path: 'src' }).request,
    describeToolCall('grep', { pattern: 'y', path: 'src' }).request,
  );
  assert.equal(
    describe('run_command', { command: 'rg -n foo src | head -5' }).request,
    describe('run_command', { command: "rg -n 'foo' src | head -n 50" }).request,
  );
  const events = [
    call('grep', { pattern: 'x', path: 'src', limit: 10 }),
    call('grep', { pattern: 'x', path: 'src', limit: 200 }),
    ...times(10, () => read('productive')),
  ];
  assert.equal(fired(feed(newNavigation('plan'), events)).length, 1);
});

test('NAV-4: same-target listings: 3 in execution, naming the churn family', () => {
  const ls = ['ls src', 'ls -la src/', 'ls -1 ./src'].map((command) => call('run_command', { command }));
  const two = feed(newNavigation('exec'), ls.slice(0, 2));
  assert.equal(fired(two).length, 0);
  const three = navigate(two.state, ls[2] as NavEvent);
  assert.ok(three.decision.kind === 'schedule_pass' && three.decision.guard === 'same_target_listing');
  if (three.decision.kind === 'schedule_pass') assert.match(three.decision.reason, /exec::inspection::ls::src ×3/);
  const distinct = ['ls src', 'ls test', 'ls docs', 'ls src/core'].map((command) => call('run_command', { command }));
  assert.equal(fired(feed(newNavigation('exec'), distinct)).length, 0, 'scans of distinct trees never group');
});

test('NAV-4: planning tolerates 4 same-target listings and converges on the 5th', () => {
  const list = () => call('list_dir', { path: 'src/' });
  const four = feed(newNavigation('plan'), times(4, list));
  assert.equal(fired(four).length, 0);
  const five = navigate(four.state, list());
  assert.ok(five.decision.kind === 'schedule_pass' && /plan::inspection::list_dir::src ×5/.test(five.decision.reason));
  assert.equal(describe('run_command', { command: 'cd web && find src -name "*.ts"' }).listing?.root, 'src');
  assert.equal(describe('run_command', { command: 'fd -e ts . lib' }).listing?.root, 'lib');
});

test('NAV-4: execution converges after 12 diverse low-signal outcomes; mutation or verification resets the window', () => {
  const diverse = (i: number) => call('run_command', { command: `rg -n q${i} dir${i % 3 === 0 ? 'A' : i}` }, 'low');
  const eleven = feed(
    newNavigation('exec'),
    Array.from({ length: 11 }, (_, i) => diverse(i)),
  );
  assert.equal(fired(eleven).length, 0);
  const twelve = navigate(eleven.state, diverse(12));
  assert.ok(twelve.decision.kind === 'schedule_pass' && twelve.decision.guard === 'diverse_churn');
  if (twelve.decision.kind === 'schedule_pass') assert.match(twelve.decision.reason, /exec::inspection::rg::dirA ×5/);
  for (const reset of [mutation, verification]) {
    const events = [...Array.from({ length: 11 }, (_, i) => diverse(i)), reset, diverse(11)];
    assert.equal(fired(feed(newNavigation('exec'), events)).length, 0);
  }
});

test('NAV-4: a pass already pending from another guard is never re-announced', () => {
  const r = feed(newNavigation('plan'), [{ kind: 'pass_scheduled' }, ...times(6, () => read('low'))]);
  assert.equal(fired(r).length, 0);
  assert.equal(fired(feed(r.state, [{ kind: 'new_turn' }, ...times(6, () => read('low'))])).length, 1);
});

test('NAV-2: navigationSignal marks failed, empty and repeated results low-signal', () => {
  assert.equal(navigationSignal({ succeeded: true, empty: false, repeated: false }), 'productive');
  for (const r of [
    { succeeded: false, empty: false, repeated: false },
    { succeeded: true, empty: true, repeated: false },
    { succeeded: true, empty: false, repeated: true },
  ]) {
    assert.equal(navigationSignal(r), 'low');
  }
});
