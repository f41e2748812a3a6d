// PLAN-2: a label line's value is the section's first line of content, so it keeps its own
// emphasis, as a line under a `## Summary` heading does; only the label's emphasis (around the
// name, closed before or after the colon, or around the whole line) is dropped. Before the fix
// `Summary: **x**` gave the value `x**`, which the canonical plan file then saved (STORE-1).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { canonicalPlan } from '../../../src/core/plan';
import { sectionLabelOf } from '../../../src/core/plan/sections';

const valueOf = (line: string): string | null => {
  const label = sectionLabelOf(line);
  return label?.kind === 'value' ? label.value : null;
};

test('PLAN-2: emphasis that opens a label value is the value’s, with or without emphasis on the name', () => {
  assert.equal(valueOf('Summary: **Add retries** to the client.'), '**Add retries** to the client.');
  assert.equal(valueOf('Summary: __x__'), '__x__');
  assert.equal(valueOf('**Summary**: **x**'), '**x**');
  assert.equal(valueOf('**Summary:** **x**'), '**x**');
  assert.equal(valueOf('__Summary:__ __x__'), '__x__');
});

test('PLAN-2: the name’s emphasis closes before or after the colon and is not part of the value', () => {
  assert.equal(valueOf('**Summary**: x'), 'x');
  assert.equal(valueOf('**Summary** : x'), 'x');
  assert.equal(valueOf('**Summary:** x'), 'x');
  assert.equal(valueOf('**Summary:**x'), 'x');
  assert.equal(valueOf('__Summary__: x'), 'x');
});

test('PLAN-2: emphasis opened before the name and closed inside the value is the label’s too', () => {
  assert.deepEqual(sectionLabelOf('**Scope: only src/a.ts**'), {
    kind: 'value',
    key: 'scope',
    name: 'Scope',
    value: 'only src/a.ts',
  });
  assert.equal(valueOf('__Summary: x__'), 'x');
  assert.equal(valueOf('**Summary: Add retries** to the client.'), 'Add retries to the client.');
});

test('PLAN-2: blanks before the label’s closing emphasis are not part of the value', () => {
  assert.equal(valueOf('**Summary: ** x'), 'x');
  assert.equal(valueOf('**Scope: only src/a.ts **'), 'only src/a.ts');
});

test('PLAN-2: blanks inside the name’s emphasis are not part of the name', () => {
  assert.deepEqual(sectionLabelOf('**Summary **: x'), { kind: 'value', key: 'summary', name: 'Summary', value: 'x' });
});

test('PLAN-2, STORE-1: the canonical plan keeps a label value’s emphasis under the section heading', () => {
  const plan = [
    '# Retries',
    '',
    'Summary: **Add retries** to the client.',
    '',
    '## Implementation Steps',
    '1. Retry in src/a.ts -> files: [src/a.ts] -> verify: [npm test]',
    '',
    '**Validation:** `npm test` passes.',
    '',
    'Assumptions: **None.**',
  ].join('\n');
  const canonical = canonicalPlan(plan);
  assert.match(canonical, /^## Summary\n\*\*Add retries\*\* to the client\.$/m);
  assert.match(canonical, /^## Test Cases and Validation\n`npm test` passes\.$/m);
  assert.match(canonical, /^## Assumptions and Defaults\n\*\*None\.\*\*$/m);
});
