/**
 * Issue 14 item 3 (file-formats.md, STORE-1): the runtime saves plans in the canonical form, so
 * VT Code and this extension read every saved plan the same way; a saved plan round-trips
 * unchanged; a file the user edits is validated as written and only re-saved canonically when the
 * runtime next persists it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import {
  canonicalPlan,
  canonicalPlanFile,
  parsePlan,
  PlanStore,
  validatePlan,
  type PlanDoc,
} from '../../../src/core/plan';
import { nodeFileSystem } from '../../../src/node/fs';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-canonical-');

const plansRoot = join(import.meta.dirname, '../../fixtures/plans');
const readyFixtures = ['conformance', 'valid'].flatMap((dir) =>
  fs
    .readdirSync(join(plansRoot, dir))
    .filter((f) => f.endsWith('.md'))
    .map((file) => ({ name: `${dir}/${file}`, text: fs.readFileSync(join(plansRoot, dir, file), 'utf8') }))
    .filter((p) => validatePlan(p.text).ready),
);

/** What a plan means to the validator, the tracker and VT Code: title, section names, steps. */
function meaning(doc: PlanDoc) {
  return {
    title: doc.title,
    sections: doc.sections.map((s) => s.key ?? s.heading),
    steps: doc.steps.map((s) => ({
      action: s.action,
      targets: [...s.files, ...s.targets],
      verify: s.verify,
      outcome: s.outcome ?? null,
    })),
  };
}

test('item 3: a compact plan with label lines becomes the title, the four ## sections and one line per step', () => {
  const compact = [
    '# Pause polling in hidden tabs',
    '',
    'Summary: Stop the dashboard poller while its tab is hidden.',
    '',
    '1. Pause on `visibilitychange` in `startPolling` -> files: [web/poll.ts] -> verify: [pnpm test -- poll]',
    '2) Refresh once when shown → files: [web/poll.ts] → verify: [pnpm test -- poll -t shown]',
    '',
    'Validation: `pnpm test` passes.',
    'Assumptions: The interval stays 5 s.',
  ].join('\n');
  assert.equal(
    canonicalPlan(compact),
    [
      '# Pause polling in hidden tabs',
      '',
      '## Summary',
      'Stop the dashboard poller while its tab is hidden.',
      '',
      '## Implementation Steps',
      '1. Pause on `visibilitychange` in `startPolling` -> files: [web/poll.ts] -> verify: [pnpm test -- poll]',
      '2. Refresh once when shown -> files: [web/poll.ts] -> verify: [pnpm test -- poll -t shown]',
      '',
      '## Test Cases and Validation',
      '`pnpm test` passes.',
      '',
      '## Assumptions and Defaults',
      'The interval stays 5 s.',
    ].join('\n'),
  );
});

test('item 3: labeled step blocks fold into the step line; other detail lines stay under the step, nesting and code kept', () => {
  const plan = [
    'Repository facts checked: `warm_up` runs after `bind`.',
    '',
    '# Warm the cache',
    '',
    '**Summary**',
    'Warm the cache before binding.',
    '',
    '## **Steps**',
    '1. **Load the snapshot**',
    '   - **Action:** Fill the cache first.',
    '   - **Files/symbols:** `src/warm.rs:warm_up`, `load_snapshot`',
    '   - Note: the snapshot may be large.',
    '     ```sh',
    '     ls -l cache.snap',
    '     ```',
    '   - **Verify:** `cargo test -p cache warm_up`, `rg -n "warm_up" src/main.rs`',
    '   - outcome: the first request hits the cache',
    '2. Keep the `--cold` escape hatch -> files: [src/main.rs] -> verify: [cargo test -p app cold_start]',
    '',
    '**Validation**',
    '- `cargo test --workspace`',
    '',
    '## Risks',
    '- Startup gets slower.',
    '',
    '**Assumptions**',
    '- Snapshot path from `CACHE_SNAPSHOT`.',
  ].join('\n');
  assert.equal(
    canonicalPlanFile(plan),
    [
      '# Warm the cache',
      '',
      'Repository facts checked: `warm_up` runs after `bind`.',
      '',
      '## Summary',
      'Warm the cache before binding.',
      '',
      '## Implementation Steps',
      '1. Load the snapshot: Fill the cache first. -> files: [src/warm.rs:warm_up, load_snapshot] -> verify: [cargo test -p cache warm_up, rg -n "warm_up" src/main.rs] -> outcome: the first request hits the cache',
      '   - Note: the snapshot may be large.',
      '     ```sh',
      '     ls -l cache.snap',
      '     ```',
      '',
      '2. Keep the `--cold` escape hatch -> files: [src/main.rs] -> verify: [cargo test -p app cold_start]',
      '',
      '## Test Cases and Validation',
      '- `cargo test --workspace`',
      '',
      '## Risks',
      '- Startup gets slower.',
      '',
      '## Assumptions and Defaults',
      '- Snapshot path from `CACHE_SNAPSHOT`.',
      '',
    ].join('\n'),
  );
});

test('item 3 (PLAN-4): a verify check holding a backtick run and a comma reads back as itself from the canonical plan', () => {
  const plan = [
    '# T',
    '## Implementation Steps',
    '1. Count the fences',
    '   - **Files:** docs/guide.md',
    "   - **Verify:** ``rg -c '```' docs, README.md``, npm test",
  ].join('\n');
  const entries = ["rg -c '```' docs, README.md", 'npm test'];
  assert.deepEqual(parsePlan(plan).steps[0]?.verify, entries);
  const canonical = canonicalPlan(plan);
  assert.ok(canonical.endsWith("-> verify: [```` rg -c '```' docs, README.md ````, npm test]"), canonical);
  assert.deepEqual(parsePlan(canonical).steps[0]?.verify, entries);
  assert.equal(canonicalPlan(canonical), canonical);
});

test('item 3: list entries that would not read back as themselves are written in backticks', () => {
  const plan =
    '# T\n## Summary\nx\n## Steps\n1. Check `a` -> files: [src/a.ts] -> verify: [`echo a, b`, npm test]\n## Validation\n- y\n## Assumptions\n- z';
  const canonical = canonicalPlan(plan);
  assert.match(canonical, /-> verify: \[`echo a, b`, npm test\]/);
  assert.deepEqual(parsePlan(canonical).steps[0]?.verify, ['echo a, b', 'npm test']);
});

test('item 3 property: every ready corpus plan keeps its meaning in canonical form, stays ready, and canonical form is a fixed point', () => {
  assert.ok(readyFixtures.length >= 15, `${readyFixtures.length} ready plans`);
  for (const { name, text } of readyFixtures) {
    const canonical = canonicalPlanFile(text);
    const report = validatePlan(canonical);
    assert.deepEqual(report.errors, [], name);
    const before = meaning(parsePlan(text));
    const after = meaning(report.doc);
    assert.deepEqual(after.steps, before.steps, `${name}: steps`);
    assert.equal(after.title, before.title, `${name}: title`);
    assert.deepEqual(after.sections, before.sections, `${name}: sections`);
    assert.ok(
      report.doc.sections.every((s) => s.form === 'heading'),
      `${name}: every section is a heading`,
    );
    assert.equal(canonicalPlanFile(canonical), canonical, `${name}: fixed point`);
  }
});

test('item 3 (STORE-1): the runtime saves the canonical form, and a saved plan round-trips unchanged', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root);
  const source = fs.readFileSync(join(plansRoot, 'conformance/bold-line-sections.md'), 'utf8');
  const saved = await store.save(source);
  assert.equal(saved.status, 'written');
  const file = join(root, '.vtcode/plans/show-unsaved-changes-in-the-settings-page-title.md');
  const written = fs.readFileSync(file, 'utf8');
  assert.equal(written, canonicalPlanFile(source));
  assert.match(written, /^## Implementation Steps$/m);
  assert.doesNotMatch(written, /^\*\*/m);

  const mtime = fs.statSync(file).mtimeMs;
  const again = await store.save(written, { slug: saved.slug });
  assert.equal(again.status, 'unchanged');
  assert.equal(fs.readFileSync(file, 'utf8'), written);
  assert.equal(fs.statSync(file).mtimeMs, mtime);
  assert.equal(
    (await store.save(source, { slug: saved.slug })).status,
    'unchanged',
    'the same plan in its original shape changes nothing either',
  );
});

test('item 3: a file edited by the user is validated as written and re-saved canonically only when the runtime next persists it', async () => {
  const root = tempRoot();
  const store = new PlanStore(nodeFileSystem, root);
  const saved = await store.save(fs.readFileSync(join(plansRoot, 'conformance/atx-canonical.md'), 'utf8'));
  const file = join(root, `.vtcode/plans/${saved.slug}.md`);
  const edited = fs.readFileSync(file, 'utf8').replace('## Test Cases and Validation', '**Test Cases and Validation**');
  fs.writeFileSync(file, edited);

  const loaded = await store.load(saved.slug);
  assert.equal(loaded?.report.ready, true, 'the bold line is read as the section');
  assert.equal(loaded?.content, edited);
  assert.equal(fs.readFileSync(file, 'utf8'), edited, 'reading never rewrites the file');

  assert.equal((await store.save(edited, { slug: saved.slug, expected: edited })).status, 'written');
  assert.equal(fs.readFileSync(file, 'utf8'), canonicalPlanFile(edited));
  assert.match(fs.readFileSync(file, 'utf8'), /^## Test Cases and Validation$/m);
});

test('item 3: a step writes only the fields it has, detail blocks keep their nesting, and blank lines sit only between blocks', () => {
  // Written from the survivors of `npm run mutate plan` (docs/testing.md): no title, prose before
  // the first step, a step without files, one without a verify field, an empty outcome, a blank
  // line inside a detail block, tab indentation (4 columns) mixed with spaces, trailing blanks.
  const plan = [
    '## Summary',
    '   ',
    'Keep the cache warm.  ',
    '   ',
    '',
    '## Implementation Steps',
    'In this order:',
    '',
    '1. Measure the cold start -> verify: [npm test]',
    '2. Warm the cache -> files: [src/warm.ts] -> outcome:',
    '  - parent note',
    '    - child note',
    '',
    '  - after a blank line',
    '3. Check it -> files: [src/a.ts] -> verify: [npm test]',
    '    - four spaces',
    '\t  - a tab and two spaces',
    '',
    '## Risks',
    '',
    '## Test Cases and Validation',
    '- `npm test`',
    '',
    '## Assumptions and Defaults',
    '- none',
  ].join('\n');
  const canonical = [
    '## Summary',
    'Keep the cache warm.',
    '',
    '## Implementation Steps',
    'In this order:',
    '',
    '1. Measure the cold start -> verify: [npm test]',
    '2. Warm the cache -> files: [src/warm.ts]',
    '   - parent note',
    '     - child note',
    '',
    '   - after a blank line',
    '',
    '3. Check it -> files: [src/a.ts] -> verify: [npm test]',
    '   - four spaces',
    '     - a tab and two spaces',
    '',
    '## Risks',
    '',
    '## Test Cases and Validation',
    '- `npm test`',
    '',
    '## Assumptions and Defaults',
    '- none',
  ].join('\n');
  assert.equal(canonicalPlan(plan), canonical);
  assert.equal(canonicalPlan(canonical), canonical);
});

test('item 3: a steps section without steps keeps its text', () => {
  const plan = '# T\n\n## Implementation Steps\nTo be decided.\n\n## Risks\n- none';
  assert.equal(canonicalPlan(plan), '# T\n\n## Implementation Steps\nTo be decided.\n\n## Risks\n- none');
});

test('item 3: every list entry reads back as itself, fenced in one backtick more than its longest run, padded as CommonMark asks', () => {
  const base = parsePlan('# T\n## Implementation Steps\n1. Check -> files: [a.ts] -> verify: [npm test]');
  for (const [entry, written] of [
    ['npm test', 'npm test'],
    ['src/a.ts:run', 'src/a.ts:run'],
    ['echo a, b', '`echo a, b`'],
    ['`npm test`', '`` `npm test` ``'],
    ['``x``', '``` ``x`` ```'],
    ["rg -c '```' docs, README.md", "```` rg -c '```' docs, README.md ````"],
  ] as const) {
    const step = { ...(base.steps[0] as PlanDoc['steps'][number]), verify: [entry], files: [entry] };
    const text = canonicalPlan({ ...base, steps: [step] });
    assert.ok(text.endsWith(`1. Check -> files: [${written}] -> verify: [${written}]`), text);
    const back = parsePlan(text).steps[0];
    assert.deepEqual([back?.files, back?.verify], [[entry], [entry]], entry);
  }
});
