/**
 * The plan store on the real filesystem in a temporary workspace (STORE-1, STORE-2,
 * file-formats.md): names, what a save returns and leaves on disk in each case, loading and
 * listing. The store and session test folders use PlanStore too; these are the plan folder's own.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../../../src/node/fs';
import type { FileSystem } from '../../../src/core/ports';
import { PlanStore, slugFor, TRACKER_END, TRACKER_START } from '../../../src/core/plan';
import { StoreError } from '../../../src/core/store/atomic';
import { tempDirs } from '../../fixtures/temp-dirs';

const tempRoot = tempDirs('vtplan-plan-store-');

/** 2026-11-29 21:40:05 UTC: every field of the timestamped name differs from the others. */
const clock = { now: () => Date.UTC(2026, 10, 29, 21, 40, 5) };

const plan = (title: string, action = 'Update `parse`') =>
  [
    `# ${title}`,
    '',
    '## Summary',
    'Change src/a.ts.',
    '',
    '## Scope',
    '- In: src/a.ts',
    '',
    '## Implementation Steps',
    `1. ${action} -> files: [src/a.ts] -> verify: [npm test]`,
    '',
    '## Test Cases and Validation',
    '- `npm test`',
    '',
    '## Assumptions and Defaults',
    '- None beyond the above.',
    '',
  ].join('\n');
const INVALID = '# Fix parser\n\n## Summary\nx\n\n## Implementation Steps\n1. Fix it -> verify: [run checks]\n';

function workspace() {
  const root = tempRoot();
  const dir = join(root, '.vtcode/plans');
  return {
    root,
    dir,
    store: new PlanStore(nodeFileSystem, root, clock),
    file: (slug: string) => join(dir, `${slug}.md`),
  };
}

test('file-formats: a plan without usable title words gets a timestamped name', () => {
  assert.equal(slugFor(null, clock.now()), 'plan-20261129-214005');
  assert.equal(slugFor('!!! ???', clock.now()), 'plan-20261129-214005');
});

test('file-formats: a slug is the title words, accents dropped, as many whole words as fit in 80 characters', () => {
  assert.equal(slugFor('Café crème', 0), 'cafe-creme');
  const a71 = 'a'.repeat(71);
  const b8 = 'b'.repeat(8);
  assert.equal(slugFor(`${a71} ${b8} c`, 0), `${a71}-${b8}`, 'exactly 80 characters fit; the next word does not');
  assert.equal(slugFor(`${'x'.repeat(100)} y`, 0), 'x'.repeat(80), 'a first word longer than 80 is cut');
});

test('STORE-1: a plan name is lower-case letters and digits in dash-separated runs; anything else is refused', () => {
  const { dir, store } = workspace();
  assert.equal(store.pathFor('fix-parser-2'), join(dir, 'fix-parser-2.md'));
  for (const bad of ['../escape', 'fix/../../escape', 'Fix', '-fix', 'fix-', 'fix--parser', 'fix parser', '']) {
    assert.throws(
      () => store.pathFor(bad),
      (e: unknown) =>
        e instanceof StoreError &&
        e.code === 'invalid_name' &&
        e.path === bad &&
        e.message === `invalid plan name '${bad}': use lower-case letters, digits and single dashes`,
      bad,
    );
  }
});

test('STORE-1: a ready plan is written under its title slug (a timestamp without a title) and the outcome says so', async () => {
  const { store, file } = workspace();
  const saved = await store.save(plan('Fix parser'));
  assert.equal(saved.status, 'written');
  assert.equal(saved.slug, 'fix-parser');
  assert.equal(saved.path, file('fix-parser'));
  assert.equal(saved.status === 'written' && saved.content, plan('Fix parser'));
  assert.equal(saved.report.ready, true);
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), plan('Fix parser'));

  const untitled = await store.save(plan('Fix parser').replace('# Fix parser\n\n', ''));
  assert.equal(untitled.status, 'written');
  assert.equal(untitled.slug, 'plan-20261129-214005');
  assert.ok(fs.existsSync(file('plan-20261129-214005')));
});

test('STORE-1: an invalid candidate is rejected, writes nothing, and says what stays on disk: none, valid or malformed', async () => {
  const { root, dir, store, file } = workspace();
  const none = await store.save(INVALID);
  assert.deepEqual(
    { ...none, report: undefined },
    { status: 'rejected', slug: 'fix-parser', path: file('fix-parser'), kept: 'none', report: undefined },
  );
  assert.equal(none.report.ready, false);
  assert.deepEqual(fs.readdirSync(root), [], 'not even the plans folder is made');

  await store.save(plan('Fix parser'));
  const valid = await store.save(INVALID);
  assert.equal(valid.status === 'rejected' && valid.kept, 'valid');
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), plan('Fix parser'));

  fs.writeFileSync(file('fix-parser'), 'notes, not a plan');
  const malformed = await store.save(INVALID);
  assert.equal(malformed.status === 'rejected' && malformed.kept, 'malformed');
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), 'notes, not a plan');
  assert.deepEqual(fs.readdirSync(dir), ['fix-parser.md']);
});

test('STORE-2: saving the plan a file already holds (below its tracker) changes nothing and returns the file as it is', async () => {
  const { dir, store, file } = workspace();
  const withTracker = `${plan('Fix parser')}\n${TRACKER_START}\n- [x] Update parse\n${TRACKER_END}\n`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file('fix-parser'), withTracker);
  const again = await store.save(plan('Fix parser'));
  assert.equal(again.status, 'unchanged');
  assert.equal(again.status === 'unchanged' && again.content, withTracker);
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), withTracker, 'the tracker region is kept');
});

test('STORE-2: a save against what the caller read keeps an edit made since and reports it; against the current content it writes', async () => {
  const { store, file } = workspace();
  const first = await store.save(plan('Fix parser'));
  const read = first.status === 'written' ? first.content : '';
  const userEdit = plan('Fix parser', 'User-edited `parse` step');
  fs.writeFileSync(file('fix-parser'), userEdit);

  const kept = await store.save(plan('Fix parser', 'Model revision of `parse`'), { expected: read });
  assert.equal(kept.status, 'external_edit');
  assert.equal(kept.slug, 'fix-parser');
  assert.equal(kept.path, file('fix-parser'));
  assert.equal(kept.report.ready, true);
  assert.equal(kept.status === 'external_edit' && kept.externalEdit.current, userEdit);
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), userEdit);

  const revised = await store.save(plan('Fix parser', 'Model revision of `parse`'), { expected: userEdit });
  assert.equal(revised.status, 'written');
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), plan('Fix parser', 'Model revision of `parse`'));
});

test('STORE-1: load returns the file as it is with its validation, or null when there is none', async () => {
  const { store, file } = workspace();
  assert.equal(await store.load('fix-parser'), null);
  await store.save(plan('Fix parser'));
  fs.appendFileSync(file('fix-parser'), '\nA note.\n');
  const loaded = await store.load('fix-parser');
  assert.equal(loaded?.slug, 'fix-parser');
  assert.equal(loaded?.path, file('fix-parser'));
  assert.equal(loaded?.content, `${plan('Fix parser')}\nA note.\n`);
  assert.equal(loaded?.report.ready, true);
});

test('STORE-1: list is empty without a plans folder (or with a file in its place)', async () => {
  const { root, store } = workspace();
  assert.deepEqual(await store.list(), []);
  fs.mkdirSync(join(root, '.vtcode'));
  fs.writeFileSync(join(root, '.vtcode/plans'), 'not a folder');
  assert.deepEqual(await store.list(), []);
});

test('STORE-1: list names the plan files, sorted whatever order the folder lists them in: no sidecars, temp files, folders, links or names that are not slugs', async () => {
  const { root, dir } = workspace();
  fs.mkdirSync(dir, { recursive: true });
  const names = [
    'zeta.md',
    'alpha-2.md',
    'alpha.tasks.md',
    '.alpha.md.abc.tmp',
    'Bad Name.md',
    'notes.txt',
    'todo-list',
    'md',
  ];
  for (const name of names) fs.writeFileSync(join(dir, name), 'x');
  fs.mkdirSync(join(dir, 'folder.md'));
  fs.symlinkSync(join(dir, 'zeta.md'), join(dir, 'link.md'));
  const reversed: FileSystem = { ...nodeFileSystem, readDir: async (p) => (await nodeFileSystem.readDir(p)).reverse() };
  for (const fsView of [nodeFileSystem, reversed]) {
    assert.deepEqual(await new PlanStore(fsView, root, clock).list(), ['alpha-2', 'zeta']);
  }
});

test('STORE-2: when another process saves the same plan between the store reading the file and writing it, the outcome is unchanged', async () => {
  const { root, file } = workspace();
  let raced = false;
  const racing: FileSystem = {
    ...nodeFileSystem,
    async readText(p) {
      const text = await nodeFileSystem.readText(p);
      if (!raced && p === file('fix-parser')) {
        raced = true;
        fs.mkdirSync(join(p, '..'), { recursive: true });
        fs.writeFileSync(p, plan('Fix parser'));
      }
      return text;
    },
  };
  const saved = await new PlanStore(racing, root, clock).save(plan('Fix parser'), { expected: null });
  assert.ok(raced, 'the other save landed after the store read the file');
  assert.equal(saved.status, 'unchanged');
  assert.equal(saved.status === 'unchanged' && saved.content, plan('Fix parser'));
  assert.equal(fs.readFileSync(file('fix-parser'), 'utf8'), plan('Fix parser'));
});
