import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { distillPlan, distillSteps } from '../../../src/core/tracker';

const plan = `Repository facts checked:
- src/parser.rs:118 advances the cursor first

# Fix off-by-one in parser cursor advance

## Summary
Hoist the bounds check.

## Scope
- In: parser cursor
1. Scope numbered line must not become a task
- [ ] Scope checkbox must not become a task

## Implementation Steps
1. Hoist bounds check above cursor advance -> files: [src/parser.rs] -> verify: [cargo test parser::tests::parse_case] -> outcome: parse_case passes
2. Add single-byte regression test -> files: [src/parser.rs] -> verify: [cargo test parser::tests::single_byte, rg -n 'a,b' src]
- [x] Update changelog -> files: [CHANGELOG.md] -> verify: [grep -n parser CHANGELOG.md]
3. hoist  BOUNDS check above cursor advance -> files: [src/lib.rs]

## Test Cases and Validation
1. Validation numbered line must not become a task
- tests: \`cargo nextest run\`

## Assumptions and Defaults
- only the cursor advance changes
`;

test('TRK-7: numbered and checkbox Implementation Steps become tasks; Scope and other sections never do', () => {
  const c = distillPlan(plan);
  assert.equal(c.title, 'Fix off-by-one in parser cursor advance');
  assert.deepEqual(
    c.items.map((i) => i.description),
    ['Hoist bounds check above cursor advance', 'Add single-byte regression test', 'Update changelog'],
  );
});

test('TRK-7: -> files / -> verify / -> outcome move into fields; a checked step starts completed', () => {
  const [first, second, third] = distillPlan(plan).items;
  assert.deepEqual(first?.files, ['src/parser.rs', 'src/lib.rs'], 'the duplicate step adds its files');
  assert.deepEqual(first?.verify, ['cargo test parser::tests::parse_case']);
  assert.equal(first?.outcome, 'parse_case passes');
  assert.deepEqual(second?.verify, ['cargo test parser::tests::single_byte', "rg -n 'a,b' src"]);
  assert.equal(third?.status, 'completed');
  assert.equal(first?.status, 'pending');
});

test('TRK-7: duplicates merge ignoring case and spacing; a later completed duplicate completes the item', () => {
  const c = distillSteps('T', [
    { action: 'Write docs', files: [], verify: ['npm test'] },
    { action: 'write   DOCS', files: ['README.md'], verify: ['npm test'], checked: true },
    { action: 'Other', files: [], verify: [] },
  ]);
  assert.equal(c.items.length, 2);
  assert.equal(c.items[0]?.status, 'completed');
  assert.deepEqual(c.items[0]?.files, ['README.md']);
  assert.deepEqual(c.items[0]?.verify, ['npm test']);
});

test('TRK-7: continuation lines under a step belong to it', () => {
  const c = distillPlan(
    '# T\n\n## Steps\n1. Do the thing\n   files: src/x.ts\n   verify: npm test\n2. Next -> files: [a] -> verify: [b c]\n',
  );
  assert.deepEqual(c.items[0]?.files, ['src/x.ts']);
  assert.deepEqual(c.items[0]?.verify, ['npm test']);
});

test('TRK-7: sub-steps indented under a step become its children', () => {
  const c = distillPlan(
    '# T\n\n## Implementation Steps\n1. Wire the CLI -> files: [src/cli.ts] -> verify: [npm test]\n   - [ ] Add the flag -> files: [src/flag.ts]\n   - [x] Document the flag\n     1. Mention it in README\n2. Release -> files: [package.json] -> verify: [npm pack]\n',
  );
  assert.deepEqual(
    c.items.map((i) => i.description),
    ['Wire the CLI', 'Release'],
  );
  const wire = c.items[0];
  assert.deepEqual(
    wire?.children.map((k) => [k.description, k.status, k.files]),
    [
      ['Add the flag', 'pending', ['src/flag.ts']],
      ['Document the flag', 'completed', []],
    ],
  );
  assert.equal(wire?.children[1]?.children[0]?.description, 'Mention it in README');
  assert.deepEqual(wire?.files, ['src/cli.ts']);
});
