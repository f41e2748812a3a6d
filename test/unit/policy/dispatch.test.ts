import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confine, gateToolCall, KNOWN_TOOLS } from '../../../src/core/policy';

const ctx = { workspaceRoot: '/work/repo' };

test('RO-1: plan mode admits read/search/list tools, the interview and the tracker', () => {
  for (const name of ['read_file', 'list_dir', 'find_files', 'grep', 'request_user_input', 'task_tracker']) {
    assert.deepEqual(gateToolCall('plan', { name, arguments: {} }, ctx), { allowed: true, tool: name });
  }
});

test('RO-1: plan mode runs only policy-approved commands and tells the model "Mutation blocked"', () => {
  const ok = gateToolCall('plan', { name: 'run_command', arguments: { command: 'rg -n foo src' } }, ctx);
  assert.equal(ok.allowed, true);
  assert.equal(ok.command?.class, 'inspection');
  const no = gateToolCall('plan', { name: 'run_command', arguments: { command: 'npm install' } }, ctx);
  assert.equal(no.allowed, false);
  if (!no.allowed) {
    assert.equal(no.kind, 'mutation');
    assert.match(no.reason, /^Mutation blocked: `npm install` installs/);
    assert.equal(no.command?.class, 'mutation');
  }
});

test('RO-1, RO-4: plan mode blocks every write, the plan file included, and unknown tools', () => {
  const planFile = gateToolCall(
    'plan',
    { name: 'write_file', arguments: { path: '.vtcode/plans/x.md', content: '' } },
    ctx,
  );
  assert.equal(planFile.allowed, false);
  if (!planFile.allowed) assert.match(planFile.reason, /^Mutation blocked: .*runtime persists the plan/);
  for (const call of [
    { name: 'edit_file', arguments: { path: 'src/a.ts' } },
    { name: 'write_file', arguments: { path: '/work/repo/.vtcode/plans/../plans/y.md' } },
    { name: 'write_file', arguments: 'garbage' },
    { name: 'apply_patch', arguments: {} },
    { name: 'start_planning', arguments: {} },
  ]) {
    const d = gateToolCall('plan', call, ctx);
    assert.equal(d.allowed, false, call.name);
    if (!d.allowed) assert.match(d.reason, /^Mutation blocked: /, call.name);
  }
});

test('MODE-1: build and auto share one rule set: writes inside the workspace only', () => {
  for (const mode of ['build', 'auto'] as const) {
    assert.equal(gateToolCall(mode, { name: 'write_file', arguments: { path: 'src/a.ts' } }, ctx).allowed, true);
    assert.equal(
      gateToolCall(mode, { name: 'edit_file', arguments: { path: '/work/repo/src/a.ts' } }, ctx).allowed,
      true,
    );
    const outside = gateToolCall(mode, { name: 'write_file', arguments: { path: '../other/a.ts' } }, ctx);
    assert.equal(outside.allowed, false);
    if (!outside.allowed) assert.equal(outside.kind, 'outside_workspace');
    const invalid = gateToolCall(mode, { name: 'write_file', arguments: { content: 'x' } }, ctx);
    assert.equal(invalid.allowed, false);
    if (!invalid.allowed) {
      assert.equal(invalid.kind, 'invalid_arguments');
      assert.equal(
        invalid.reason,
        'write_file arguments are invalid: path: Invalid input: expected string, received undefined.',
      );
    }
    assert.equal(
      gateToolCall(mode, { name: 'run_command', arguments: { command: 'rm -rf build' } }, ctx).allowed,
      true,
    );
    assert.equal(gateToolCall(mode, { name: 'start_planning', arguments: {} }, ctx).allowed, true);
    const unknown = gateToolCall(mode, { name: 'apply_patch', arguments: {} }, ctx);
    assert.equal(unknown.allowed, false);
    if (!unknown.allowed) assert.equal(unknown.kind, 'unknown_tool');
  }
});

test('RO-2, MODE-1: run_command naming a path outside the workspace (lexically) is blocked in every mode with a "Path blocked" reason', () => {
  for (const mode of ['plan', 'build', 'auto'] as const) {
    const d = gateToolCall(mode, { name: 'run_command', arguments: { command: 'cat /etc/hosts' } }, ctx);
    assert.equal(d.allowed, false, mode);
    if (!d.allowed) {
      assert.equal(d.kind, 'outside_workspace');
      assert.match(
        d.reason,
        /^Path blocked: `\/etc\/hosts` is outside the workspace \(\/work\/repo\); commands may only name paths inside it.*The command was not run\.$/,
      );
      assert.equal(d.command?.allowed, false);
    }
    assert.equal(
      gateToolCall(mode, { name: 'run_command', arguments: { command: 'cd src && cat ../package.json' } }, ctx).allowed,
      true,
      mode,
    );
  }
  // In plan mode a mutation is still reported as one (the read-only policy speaks first).
  const both = gateToolCall('plan', { name: 'run_command', arguments: { command: 'rm /etc/hosts' } }, ctx);
  assert.equal(both.allowed === false && both.kind, 'mutation');
});

test('RO-1: every known tool gets the right decision in every mode for bad arguments: admitted, blocked as a mutation, or refused with the argument that is wrong', () => {
  // Tools whose arguments the tool itself validates; the gate admits them as they are.
  const admittedAsIs = new Set(['read_file', 'list_dir', 'find_files', 'grep', 'request_user_input', 'task_tracker']);
  const badArguments = [
    { args: undefined, issue: 'arguments: Invalid input: expected object, received undefined' },
    { args: null, issue: 'arguments: Invalid input: expected object, received null' },
    { args: 42, issue: 'arguments: Invalid input: expected object, received number' },
    { args: {}, issue: '(path|command): Invalid input: expected string, received undefined' },
    {
      args: { path: 7, command: [] },
      issue:
        '(path: Invalid input: expected string, received number|command: Invalid input: expected string, received array)',
    },
  ];
  assert.deepEqual(
    [...KNOWN_TOOLS].sort(),
    [...admittedAsIs, 'write_file', 'edit_file', 'run_command', 'start_planning'].sort(),
  );
  for (const mode of ['plan', 'build', 'auto'] as const) {
    for (const name of KNOWN_TOOLS) {
      for (const { args, issue } of badArguments) {
        const d = gateToolCall(mode, { name, arguments: args }, ctx);
        const where = `${mode} ${name} ${JSON.stringify(args)}`;
        if (admittedAsIs.has(name) || (name === 'start_planning' && mode !== 'plan')) {
          assert.deepEqual(d, { allowed: true, tool: name }, where);
        } else if (mode === 'plan' && name !== 'run_command') {
          assert.equal(d.allowed === false && d.kind, 'mutation', where);
          if (!d.allowed) assert.match(d.reason, new RegExp(`^Mutation blocked: \`${name}\` `), where);
        } else {
          assert.equal(d.allowed === false && d.kind, 'invalid_arguments', where);
          if (!d.allowed) assert.match(d.reason, new RegExp(`^${name} arguments are invalid: ${issue}[.;]`), where);
        }
      }
    }
  }
});

test('MODE-1: path confinement is lexical and rejects escapes', () => {
  assert.equal(confine('src/a.ts', '/w'), 'src/a.ts');
  assert.equal(confine('./src/../b.ts', '/w'), 'b.ts');
  assert.equal(confine('/w/x', '/w/'), 'x');
  for (const p of ['../a', '/etc/passwd', '/w', '.', 'a/../..', '/wx/a', 'a\0b', 'C:/x', 'a\\..\\b'])
    assert.equal(confine(p, '/w'), null, p);
});
