// Behaviours of ops.ts that its surviving mutants showed unpinned (issue 19, docs/testing.md "### tracker").
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyCall, TrackerError, type ApplyResult, type Checklist, type TrackerCall } from '../../../src/core/tracker';

function changed(r: ApplyResult): Checklist {
  assert.equal(r.kind, 'changed', JSON.stringify(r));
  return (r as { checklist: Checklist }).checklist;
}

function refusal(current: Checklist | null, call: TrackerCall): TrackerError {
  try {
    applyCall(current, call);
  } catch (err) {
    assert.ok(err instanceof TrackerError, String(err));
    return err;
  }
  assert.fail(`accepted: ${JSON.stringify(call)}`);
}

const STEPS = ['Write parser', 'Wire CLI', '  Add flag', '  Document flag', 'Release'];

/** Item 1 carries all three metadata fields and is completed, so a re-create that wipes progress shows. */
const started = (): Checklist => {
  const c = changed(
    applyCall(null, {
      action: 'create',
      title: 'Ship it',
      items: [
        { description: 'Write parser', files: ['src/p.ts'], verify: ['npm test'], outcome: 'parses' },
        ...STEPS.slice(1),
      ],
    }),
  );
  return changed(applyCall(c, { action: 'update', index: 1, status: 'completed' }));
};

test('TRK-1: every refusal has its code and a message that names the field and the fix', () => {
  const c = started();
  const cases: Array<[Checklist | null, TrackerCall, string, RegExp]> = [
    [c, { action: 'update', items: ['a'], index: 1 }, 'mixed_shape', /`items` replaces the whole checklist/],
    [
      c,
      { action: 'update', index: 1, index_path: '1', status: 'completed' },
      'mixed_shape',
      /either `index` or `index_path`/,
    ],
    [
      c,
      { action: 'update', index: 1, status: 'completed', parent_index_path: '1' },
      'mixed_shape',
      /only used with action "add"/,
    ],
    [
      c,
      { action: 'create', title: '{"a":1}', items: ['x'] },
      'json_string',
      /^title is a JSON-encoded string.*Nothing was changed/,
    ],
    [c, { action: 'update', index: 1, notes: '["a"]' }, 'json_string', /^notes is a JSON-encoded string/],
    [c, { action: 'update', index: 1, description: '{"a":1}' }, 'json_string', /^description is a JSON-encoded/],
    [c, { action: 'update', items: ['ok', '[x] {"a":1}'] }, 'json_string', /^items\[1\] is a JSON-encoded/],
    [null, { action: 'add', description: 'x' }, 'no_checklist', /No active checklist\. Use action "create"/],
    [null, { action: 'create', items: [] }, 'missing_field', /needs a non-empty `items` list/],
    [c, { action: 'update', items: [] }, 'missing_field', /`items` is empty; bulk sync needs the complete checklist/],
    [c, { action: 'update', status: 'completed' }, 'missing_field', /needs `index_path` \(or `index`\)/],
    [c, { action: 'update', index: 1 }, 'missing_field', /^Nothing to update: give `status`/],
    [c, { action: 'add' }, 'missing_field', /action "add" needs `description`/],
    [c, { action: 'create', items: ['ok', '[x]   '] }, 'empty_description', /^items\[1\] has an empty description/],
    [c, { action: 'update', index: 1, description: '[x]' }, 'empty_description', /^description has an empty/],
    [c, { action: 'add', description: ' [~] ' }, 'empty_description', /^description has an empty/],
    [c, { action: 'update', index: 0, status: 'blocked' }, 'bad_index', /`index: 0` is reserved for completing/],
    [
      c,
      { action: 'update', index: 9, status: 'blocked' },
      'bad_index',
      /^No item at index 9: the checklist has 3 item/,
    ],
    [c, { action: 'update', index: -2, status: 'blocked' }, 'bad_index', /^index must be a positive 1-based integer/],
    [c, { action: 'update', index: 1.5, status: 'blocked' }, 'bad_index', /^index must be a positive 1-based integer/],
    [
      c,
      { action: 'update', index_path: '2.5', status: 'blocked' },
      'bad_index',
      /^No item at index_path 2\.5: item 2 has 2/,
    ],
    [
      c,
      { action: 'update', index_path: 'a2', status: 'blocked' },
      'bad_index',
      /^index_path "a2" is not a path like "2"/,
    ],
    [c, { action: 'update', index_path: '2.1x', status: 'blocked' }, 'bad_index', /^index_path "2\.1x" is not a path/],
    [
      c,
      { action: 'update', index_path: '2.0', status: 'blocked' },
      'bad_index',
      /^index_path "2\.0" must use positive 1-based/,
    ],
    [c, { action: 'add', description: 'x', parent_index_path: '0' }, 'bad_index', /^parent_index_path "0" must use/],
    [c, { action: 'add', description: 'x', parent_index_path: '7' }, 'bad_index', /^No item at parent_index_path 7:/],
  ];
  for (const [current, call, code, message] of cases) {
    const err = refusal(current, call);
    assert.equal(err.name, 'TrackerError');
    assert.equal(err.code, code, JSON.stringify(call));
    assert.match(err.message, message, JSON.stringify(call));
  }
});

test('TRK-1: multi-digit numbers and surrounding spaces in index_path are read as the numbers they are', () => {
  assert.match(
    refusal(started(), { action: 'update', index_path: '12', status: 'blocked' }).message,
    /^No item at index_path 12:/,
  );
  assert.match(
    refusal(started(), { action: 'update', index_path: '2.10', status: 'blocked' }).message,
    /^No item at index_path 2\.10:/,
  );
  const c = changed(applyCall(started(), { action: 'update', index_path: ' 2.1 ', status: 'blocked' }));
  assert.equal(c.items[1]?.children[0]?.status, 'blocked');
});

test('TRK-1: a tab indents like two spaces', () => {
  const c = changed(applyCall(null, { action: 'create', items: ['A', '\tB', '\t\tC'] }));
  assert.equal(c.items[0]?.children[0]?.description, 'B');
  assert.equal(c.items[0]?.children[0]?.children[0]?.description, 'C');
});

test('TRK-1: results say created or updated, with a message, the changed path and the status change', () => {
  const created = applyCall(null, { action: 'create', items: ['A'] });
  assert.deepEqual(
    [created.kind === 'changed' && created.status, 'message' in created && created.message],
    ['created', 'Task checklist created.'],
  );
  const synced = applyCall(null, { action: 'update', items: ['A', 'B'] });
  assert.equal(synced.kind === 'changed' && synced.status, 'created', 'a bulk sync with no checklist creates one');
  assert.equal(changed(synced).title, 'Task Checklist');
  const resynced = applyCall(changed(synced), { action: 'update', items: ['B'] });
  assert.deepEqual(
    [resynced.kind === 'changed' && resynced.status, 'message' in resynced && resynced.message],
    ['updated', 'Checklist synchronized from `items`.'],
  );
  const meta = applyCall(started(), { action: 'update', index: 1, files: ['src/q.ts'] });
  assert.deepEqual(
    [meta.kind === 'changed' && meta.status, 'message' in meta && meta.message],
    ['updated', 'Item 1 updated.'],
  );
  const added = applyCall(started(), { action: 'add', description: 'Announce' });
  assert.equal(added.kind === 'changed' && added.status, 'updated');
  assert.equal(added.kind === 'changed' && added.message, 'Added item 4.');
  assert.deepEqual(added.kind === 'changed' && added.changed?.path, [4]);
  const all = applyCall(started(), { action: 'update', index: 0, status: 'completed' });
  assert.deepEqual(
    [all.kind === 'changed' && all.status, 'message' in all && all.message],
    ['updated', 'Whole checklist marked completed.'],
  );
});

test('TRK-3: calls that change nothing say so and keep the current checklist', () => {
  const c = started();
  const done = changed(applyCall(c, { action: 'update', index: 0, status: 'completed' }));
  const again = applyCall(done, { action: 'update', index: 0, status: 'completed' });
  assert.deepEqual(
    [again.kind, 'message' in again && again.message],
    ['unchanged', 'Every item is already completed.'],
  );
  assert.equal(again.checklist, done);
  const same = applyCall(c, { action: 'update', index: 1, status: 'completed' });
  assert.equal('message' in same && same.message, 'Item 1 already has that state; nothing to change.');
  const bulk = applyCall(c, { action: 'update', items: ['[x] Write parser', ...STEPS.slice(1)] });
  assert.equal('message' in bulk && bulk.message, 'Checklist already matches these items; nothing to change.');
  const restated = applyCall(c, { action: 'create', items: STEPS });
  assert.equal(
    'message' in restated && restated.message,
    'Checklist already active with these steps; current progress kept.',
  );
  const recreated = applyCall(c, { action: 'create', items: ['[x] Write parser', ...STEPS.slice(1)] });
  assert.deepEqual(
    [recreated.kind, 'message' in recreated && recreated.message],
    ['unchanged', 'Requested checklist already matches the current tracker.'],
  );
  assert.equal(recreated.checklist, c);
});

test('TRK-1: a create that differs from the active checklist in any way replaces it', () => {
  const c = started();
  const create = (items: TrackerCall['items'], title?: string): Checklist =>
    changed(applyCall(c, { action: 'create', items, ...(title === undefined ? {} : { title }) }));
  assert.equal(create(STEPS, 'Ship it now').title, 'Ship it now');
  assert.deepEqual(create(['Write parser']).items.length, 1);
  assert.equal(
    create(['Write parser', 'Wire CLI', '  Add flag', '  Document flag', 'Tag']).items[2]?.description,
    'Tag',
  );
  assert.deepEqual(
    create(['Write parser', 'Wire CLI', 'Add flag', 'Document flag', 'Release']).items.length,
    5,
    'un-nested',
  );
  assert.equal(create([...STEPS.slice(0, 4), '[!] Release']).items[2]?.status, 'blocked');
  const withMeta = (field: 'files' | 'outcome' | 'verify', value: string[] | string): Checklist =>
    create([...STEPS.slice(0, 4), { description: 'Release', [field]: value }]);
  assert.deepEqual(withMeta('files', ['CHANGELOG.md']).items[2]?.files, ['CHANGELOG.md']);
  assert.equal(withMeta('outcome', 'tagged').items[2]?.outcome, 'tagged');
  assert.deepEqual(withMeta('verify', ['git tag']).items[2]?.verify, ['git tag']);
  const noted = applyCall(c, { action: 'create', items: STEPS, notes: 'fresh start' });
  assert.equal(changed(noted).notes, 'fresh start');
});

test('TRK-2: a duplicated description needs all three fields when any old copy carries any metadata', () => {
  const old = (meta: { files?: string[]; outcome?: string; verify?: string[] }): Checklist =>
    changed(applyCall(null, { action: 'create', items: [{ description: 'Step', ...meta }, 'Other'] }));
  for (const meta of [{ files: ['a.ts'] }, { outcome: 'done' }, { verify: ['npm test'] }]) {
    const err = refusal(old(meta), { action: 'update', items: ['Step', 'Step'] });
    assert.equal(err.code, 'ambiguous_metadata', JSON.stringify(meta));
    assert.match(err.message, /^"Step" occurs more than once and already carries files\/outcome\/verify/);
  }
  const twoOfThree = { description: 'Step', files: ['b.ts'], verify: [] };
  assert.equal(
    refusal(old({ files: ['a.ts'] }), { action: 'update', items: [twoOfThree, twoOfThree] }).code,
    'ambiguous_metadata',
  );
  const oldTwice = changed(
    applyCall(null, { action: 'create', items: [{ description: 'Step', files: ['a.ts'] }, 'Step'] }),
  );
  assert.equal(
    refusal(oldTwice, { action: 'update', items: ['Step'] }).code,
    'ambiguous_metadata',
    'one new copy of a description the old list has twice carries nothing over',
  );
});

test('TRK-1: notes are trimmed, appended after a blank line, and a repeated note is not appended twice', () => {
  const a = changed(applyCall(started(), { action: 'update', index: 1, notes: '  parser done  ' }));
  assert.equal(a.notes, 'parser done');
  const b = changed(applyCall(a, { action: 'update', index: 2, status: 'in_progress', notes: 'CLI next' }));
  assert.equal(b.notes, 'parser done\n\nCLI next');
  assert.equal(
    applyCall(b, { action: 'update', index: 2, status: 'in_progress', notes: 'CLI next' }).kind,
    'unchanged',
  );
  const c = changed(applyCall(b, { action: 'update', index: 2, status: 'completed', notes: 'next' }));
  assert.equal(
    c.notes,
    'parser done\n\nCLI next\n\nnext',
    'a new note that only ends like the last one is still appended',
  );
  const blank = changed(
    applyCall({ ...started(), notes: '' }, { action: 'update', index: 2, status: 'blocked', notes: 'x' }),
  );
  assert.equal(blank.notes, 'x');
  const synced = changed(applyCall(b, { action: 'update', items: ['Release'] }));
  assert.equal(synced.notes, 'parser done\n\nCLI next', 'a bulk sync keeps the notes');
});

test('TRK-3: a new description keeps the status and metadata it does not mention; its prefix and suffixes set them', () => {
  const plain = changed(applyCall(started(), { action: 'update', index: 1, description: 'Write the parser' }));
  assert.deepEqual(
    [
      plain.items[0]?.description,
      plain.items[0]?.status,
      plain.items[0]?.files,
      plain.items[0]?.outcome,
      plain.items[0]?.verify,
    ],
    ['Write the parser', 'completed', ['src/p.ts'], 'parses', ['npm test']],
  );
  const suffixed = changed(
    applyCall(started(), {
      action: 'update',
      index: 3,
      description: '[!] Release -> files: [CHANGELOG.md] -> verify: [git tag] -> outcome: tagged',
    }),
  );
  assert.deepEqual(
    [suffixed.items[2]?.status, suffixed.items[2]?.files, suffixed.items[2]?.outcome, suffixed.items[2]?.verify],
    ['blocked', ['CHANGELOG.md'], 'tagged', ['git tag']],
  );
});

test('TRK-2: update and add take explicit status and metadata; blank entries are dropped, "" clears the outcome', () => {
  const fields = { files: [' src/q.ts ', '  '], outcome: '  emits   JSON ', verify: ['', 'npm test'] };
  const u = changed(applyCall(started(), { action: 'update', index: 3, ...fields }));
  assert.deepEqual(
    [u.items[2]?.files, u.items[2]?.outcome, u.items[2]?.verify],
    [['src/q.ts'], 'emits JSON', ['npm test']],
  );
  assert.equal(changed(applyCall(started(), { action: 'update', index: 1, outcome: ' ' })).items[0]?.outcome, null);
  const a = changed(applyCall(started(), { action: 'add', description: 'Announce', status: 'blocked', ...fields }));
  assert.deepEqual(
    [a.items[3]?.status, a.items[3]?.files, a.items[3]?.outcome, a.items[3]?.verify],
    ['blocked', ['src/q.ts'], 'emits JSON', ['npm test']],
  );
  assert.equal(changed(applyCall(started(), { action: 'add', description: 'x', outcome: '' })).items[3]?.outcome, null);
  const created = changed(applyCall(null, { action: 'create', items: [{ description: 'A', files: ['a.ts', ' '] }] }));
  assert.deepEqual(created.items[0]?.files, ['a.ts']);
});
