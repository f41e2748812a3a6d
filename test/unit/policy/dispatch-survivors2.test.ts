import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confine, gateToolCall, pathBlocked } from '../../../src/core/policy';

const ctx = { workspaceRoot: '/work/repo' };

test('RO-1: an unknown tool is blocked with a decision that carries no command, naming the tool', () => {
  assert.deepEqual(gateToolCall('plan', { name: 'apply_patch', arguments: {} }, ctx), {
    allowed: false,
    kind: 'mutation',
    reason: 'Mutation blocked: unknown tool `apply_patch` is not available in plan mode (plan mode is read-only).',
  });
  assert.deepEqual(gateToolCall('build', { name: 'apply_patch', arguments: {} }, ctx), {
    allowed: false,
    kind: 'unknown_tool',
    reason: 'unknown tool `apply_patch`.',
  });
});

test('RO-1: run_command arguments that are not an object are blocked, naming the arguments as a whole', () => {
  const d = gateToolCall('plan', { name: 'run_command', arguments: 'ls' }, ctx);
  assert.equal(d.allowed, false);
  if (!d.allowed) {
    assert.equal(d.kind, 'invalid_arguments');
    assert.match(d.reason, /^run_command arguments are invalid: arguments: /);
  }
});

test('RO-1: an approved command is allowed as the run_command tool', () => {
  const d = gateToolCall('plan', { name: 'run_command', arguments: { command: 'ls src' } }, ctx);
  assert.equal(d.allowed, true);
  if (d.allowed) assert.equal(d.tool, 'run_command');
});

test('RO-1, RO-4: in plan mode only a write to the plans folder or a file in it is blocked as the plan file; other writes, outside ones included, are blocked as writes', () => {
  const planFile = 'Mutation blocked: `write_file` on the plan file.';
  const anyWrite = 'Mutation blocked: `write_file` is not available in plan mode';
  for (const [path, start] of [
    ['.vtcode/plans', planFile],
    ['.vtcode/plans/x.md', planFile],
    ['.vtcode/plansx.md', anyWrite],
    ['src/a.ts', anyWrite],
    ['/etc/passwd', anyWrite],
  ] as const) {
    const d = gateToolCall('plan', { name: 'write_file', arguments: { path } }, ctx);
    assert.equal(d.allowed, false, path);
    if (!d.allowed) {
      assert.equal(d.kind, 'mutation', path);
      assert.ok(d.reason.startsWith(start), `${path}: ${d.reason}`);
    }
  }
});

test('MODE-1: a write outside the workspace in build mode names the path', () => {
  const d = gateToolCall('build', { name: 'edit_file', arguments: { path: '../other/a.ts' } }, ctx);
  assert.equal(d.allowed, false);
  if (!d.allowed)
    assert.equal(d.reason, '`edit_file` may only write inside the workspace; `../other/a.ts` is outside it.');
});

test('RO-2: pathBlocked without a reason still says a path outside the workspace was named', () => {
  assert.equal(
    pathBlocked(null),
    'Path blocked: the command names a path outside the workspace. The command was not run.',
  );
});

test('RO-1: confine refuses only a drive letter at the start; a colon inside a name is an ordinary path; `/` as the root confines to everything', () => {
  assert.equal(confine('notes/a:b.md', '/work/repo'), 'notes/a:b.md');
  assert.equal(confine('C:/x', '/work/repo'), null);
  assert.equal(confine('/etc/hosts', '/'), 'etc/hosts');
  assert.equal(confine('/work/repo/src/a.ts', '/work/repo/'), 'src/a.ts');
  assert.equal(confine('/work/repo/src/a.ts', '/work/repo//'), 'src/a.ts');
});
