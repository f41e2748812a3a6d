/**
 * GATE-2, EVT-1: every revision of a plan file can be rebuilt from the session's events, which is
 * what "Compare with Previous Plan" shows after a reload.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { planRevisions } from '../../../src/core/session/plan-revisions';
import { stampEvents } from '../../fixtures/events';

const FILE = '.vtcode/plans/shout-flag.md';

test("GATE-2: the planner's plan, a re-read edit, a repeated save and a later re-plan make three revisions of the file", () => {
  const events = stampEvents([
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'plan.completed', text: 'draft with a defect' },
    {
      type: 'plan.rejected',
      reasons: [{ code: 'no_steps', message: 'No steps.' }],
      attempt: 0,
      draft: 'draft with a defect',
      final: false,
    },
    { type: 'plan.completed', text: 'one' },
    { type: 'plan.persisted', planFile: FILE },
    { type: 'plan.approval.requested', planFile: FILE },
    { type: 'turn.completed', status: 'awaiting_approval' },
    { type: 'plan.completed', text: 'two', source: 'editor' },
    { type: 'plan.approval.requested', planFile: FILE },
    { type: 'plan.completed', text: 'two\n', source: 'editor' },
    { type: 'plan.approval.requested', planFile: FILE },
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'y' },
    { type: 'plan.completed', text: 'three' },
    { type: 'plan.persisted', planFile: FILE },
    { type: 'plan.approval.requested', planFile: FILE },
    { type: 'turn.completed', status: 'awaiting_approval' },
    // MODE-6: presenting the active plan again carries no new text.
    { type: 'plan.approval.requested', planFile: FILE },
  ]);
  assert.deepEqual(
    planRevisions(events, FILE).map((r) => [r.number, r.text, r.source]),
    [
      [1, 'one', 'planner'],
      [2, 'two', 'editor'],
      [3, 'three', 'planner'],
    ],
  );
  assert.deepEqual(planRevisions(events, '.vtcode/plans/other.md'), []);
});

test("GATE-2: in a log from before `source` existed, a plan read outside a turn is the user's edit", () => {
  const events = stampEvents([
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'x' },
    { type: 'plan.completed', text: 'one' },
    { type: 'plan.persisted', planFile: FILE },
    { type: 'plan.approval.requested', planFile: FILE },
    { type: 'turn.completed', status: 'awaiting_approval' },
    { type: 'plan.completed', text: 'two' },
    { type: 'plan.approval.requested', planFile: FILE },
  ]);
  assert.deepEqual(
    planRevisions(events, FILE).map((r) => [r.number, r.source]),
    [
      [1, 'planner'],
      [2, 'editor'],
    ],
  );
});
