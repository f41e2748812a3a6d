/**
 * Issue 18 item 1: the language model tools package.json declares are the shared gates'
 * (src/core/gates) — the same description for the model, the same input schema — so the
 * declaration cannot drift from what the handlers accept; and what VS Code asks before a call
 * that writes. The tools themselves run inside real VS Code: test/exthost/lm-tools.test.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATE_NAMES } from '../../../src/core/gates';
import { lmToolContributions } from '../../../src/extension/lm-tool-contributions';
import { confirmationFor, writes } from '../../../src/extension/lm-tool-confirmations';
import { LM_TOOLS } from '../../../src/extension/lm-tool-manifest';

const root = join(import.meta.dirname, '../../..');

test('package.json declares the language model tools generated from the shared gates (run `node scripts/sync-lm-tools.mjs` after changing a gate)', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools?: unknown };
  };
  assert.deepEqual(pkg.contributes.languageModelTools, lmToolContributions());
});

test('every gate is a language model tool, referable in the chat as #name', () => {
  assert.deepEqual(LM_TOOLS.map((t) => t.gate).sort(), [...GATE_NAMES].sort());
  for (const tool of lmToolContributions()) {
    assert.match(tool.name, /^vtplan_[A-Za-z]+$/);
    assert.match(tool.toolReferenceName, /^vtplan[A-Z][A-Za-z]+$/);
    assert.equal(tool.canBeReferencedInPrompt, true);
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal('$schema' in tool.inputSchema, false, 'VS Code validates the contribution with its own draft');
  }
});

test('only savePlan and tracker changes write, and only they ask for confirmation', () => {
  assert.equal(writes('validatePlan', { plan: '# x' }), false);
  assert.equal(writes('checkCommand', { command: 'rm -rf /' }), false);
  assert.equal(writes('taskTracker', { action: 'list' }), false);
  assert.equal(confirmationFor('taskTracker', { action: 'list' }), undefined);
  for (const action of ['update', 'add', 'create']) assert.equal(writes('taskTracker', { action }), true);
  // A call without a readable action is treated as a change: the schema refuses it afterwards.
  assert.equal(writes('taskTracker', 'not an object'), true);
  assert.equal(writes('savePlan', {}), true);
});

test('the confirmations say what will be written', () => {
  assert.deepEqual(confirmationFor('savePlan', { plan: 'Intro\n\n# Add login rate limiting\n\n## Summary\n…' }), {
    title: 'Save the plan?',
    message:
      'Validate “Add login rate limiting” and, only if it is ready, save it under .vtcode/plans/. You approve it afterwards in VS Code ("Ready to code?"); saving does not approve it.',
  });
  assert.deepEqual(confirmationFor('taskTracker', { action: 'update', index_path: '2.1', status: 'in_progress' }), {
    title: 'Update the task checklist?',
    message: 'Mark item 2.1 as in progress (the task checklist in .vtcode/).',
  });
  assert.deepEqual(
    confirmationFor('taskTracker', { action: 'add', description: 'Write docs', parent_index_path: '3' }),
    {
      title: 'Add a task to the checklist?',
      message: 'Add “Write docs” under item 3 to the task checklist in .vtcode/.',
    },
  );
  assert.equal(
    confirmationFor('taskTracker', { action: 'update', items: ['[x] a'] })?.message,
    'Replace the checklist with the items given (the task checklist in .vtcode/).',
  );
  assert.equal(
    confirmationFor('taskTracker', { action: 'create', title: 'Release' })?.message,
    'Start the checklist “Release” in .vtcode/, replacing the current one.',
  );
});
