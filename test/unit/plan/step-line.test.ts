// The step grammar's string rules (PLAN-3): list values, labeled lines under a step, arrows inside
// brackets and emphasis around the action. Written from the survivors of `npm run mutate plan`
// (docs/testing.md).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { labeledStepLine, parseListValue, plainAction, splitStepLine } from '../../../src/core/plan/step-line';

test('PLAN-3: a list value drops empty items (an empty code span too) and the sentence end after the last item', () => {
  assert.deepEqual(parseListValue('  [src/a.ts, , ``, `src/b.ts`] and the tests'), ['src/a.ts', 'src/b.ts']);
  assert.deepEqual(parseListValue('src/a.ts, ``, src/b.ts.'), ['src/a.ts', 'src/b.ts']);
  assert.deepEqual(parseListValue('src/a.ts;'), ['src/a.ts']);
  assert.deepEqual(parseListValue('v1.2.ts, b.ts'), ['v1.2.ts', 'b.ts']);
});

test('PLAN-3: a list whose bracket never closes still yields its items', () => {
  assert.deepEqual(parseListValue('[src/a.ts, src/b.ts'), ['src/a.ts', 'src/b.ts']);
});

test('PLAN-3: targets, symbols and behaviour labels all name the step targets', () => {
  assert.deepEqual(labeledStepLine('- **Targets:** retry()'), { field: 'targets', value: 'retry()' });
  assert.deepEqual(labeledStepLine('Behavior: retries stop after 3 tries'), {
    field: 'targets',
    value: 'retries stop after 3 tries',
  });
  assert.deepEqual(labeledStepLine('symbols: Client.send'), { field: 'targets', value: 'Client.send' });
  assert.deepEqual(labeledStepLine('- Files:   src/a.ts   '), { field: 'files', value: 'src/a.ts' });
  assert.equal(labeledStepLine('Notes: none'), null);
});

test('PLAN-3: field keys after an arrow are case-insensitive', () => {
  assert.deepEqual(splitStepLine('Add retries -> FILES: [src/a.ts]'), {
    action: 'Add retries',
    fields: [{ field: 'files', value: '[src/a.ts]' }],
  });
});

test('PLAN-3: an arrow inside brackets is content, not the start of a field', () => {
  assert.deepEqual(splitStepLine('Rename [old -> files: new] -> files: [src/a.ts]'), {
    action: 'Rename [old -> files: new]',
    fields: [{ field: 'files', value: '[src/a.ts]' }],
  });
});

test('PLAN-3: emphasis is dropped only when it wraps the whole action', () => {
  assert.equal(plainAction('  **Add retries**  '), 'Add retries');
  assert.equal(plainAction('__Add retries__:'), 'Add retries:');
  assert.equal(plainAction('** Add retries **'), 'Add retries');
  assert.equal(plainAction('Then **add retries**'), 'Then **add retries**');
});

test('PLAN-3: an action without wrapping emphasis loses only its surrounding blanks', () => {
  assert.equal(plainAction('  Then **add retries** '), 'Then **add retries**');
});

test('PLAN-3: emphasis around the start of an action only is kept', () => {
  assert.equal(plainAction('**Add** retries'), '**Add** retries');
});
