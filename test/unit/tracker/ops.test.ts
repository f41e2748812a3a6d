import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { applyCall, TrackerError, type ApplyResult, type Checklist, type TrackerCall } from '../../../src/core/tracker';

function changed(r: ApplyResult): Checklist {
  assert.equal(r.kind, 'changed', JSON.stringify(r));
  return (r as { checklist: Checklist }).checklist;
}

function rejects(current: Checklist | null, call: TrackerCall, code: string): void {
  assert.throws(
    () => applyCall(current, call),
    (err: unknown) => err instanceof TrackerError && err.code === code,
  );
}

const base = (): Checklist =>
  changed(
    applyCall(null, {
      action: 'create',
      title: 'Ship it',
      items: [
        { description: 'Write parser', files: ['src/p.ts'], verify: ['npm test'], outcome: 'parses' },
        'Wire CLI',
        '  Add flag',
        '  Document flag',
        'Release',
      ],
    }),
  );

test('TRK-1: create builds a titled tree; two leading spaces nest under the previous item', () => {
  const c = base();
  assert.equal(c.title, 'Ship it');
  assert.deepEqual(
    c.items.map((i) => [i.description, i.children.map((k) => k.description)]),
    [
      ['Write parser', []],
      ['Wire CLI', ['Add flag', 'Document flag']],
      ['Release', []],
    ],
  );
  assert.deepEqual(c.items[0]?.files, ['src/p.ts']);
});

test('TRK-1: create needs items', () => {
  rejects(null, { action: 'create', items: [] }, 'missing_field');
});

test('TRK-1: update by 1-based index and by index_path 2.1', () => {
  const c1 = changed(applyCall(base(), { action: 'update', index: 1, status: 'completed' }));
  assert.equal(c1.items[0]?.status, 'completed');
  const r = applyCall(c1, { action: 'update', index_path: '2.1', status: 'in_progress' });
  const c2 = changed(r);
  assert.equal(c2.items[1]?.children[0]?.status, 'in_progress');
  assert.equal(r.kind === 'changed' && r.changed?.path.join('.'), '2.1');
  assert.equal(c1.items[1]?.children[0]?.status, 'pending', 'the input checklist is not mutated');
});

test('TRK-1: an update sets every status from every status, blocked included, and says so', () => {
  const statuses = ['pending', 'in_progress', 'completed', 'blocked'] as const;
  for (const from of statuses) {
    const start =
      from === 'pending' ? base() : changed(applyCall(base(), { action: 'update', index_path: '2.1', status: from }));
    for (const to of statuses) {
      const r = applyCall(start, { action: 'update', index_path: '2.1', status: to });
      if (from === to) {
        assert.equal(r.kind, 'unchanged', `${from} → ${to}`);
        continue;
      }
      assert.equal(changed(r).items[1]?.children[0]?.status, to, `${from} → ${to}`);
      assert.equal(r.kind === 'changed' && r.message, `Item 2.1 status changed: ${from} → ${to}.`);
    }
  }
});

test('TRK-1: out-of-range and malformed indices are refused with the valid range', () => {
  assert.throws(
    () => applyCall(base(), { action: 'update', index: 9, status: 'completed' }),
    /the checklist has 3 item/,
  );
  assert.throws(
    () => applyCall(base(), { action: 'update', index_path: '2.5', status: 'completed' }),
    /item 2 has 2 item/,
  );
  rejects(base(), { action: 'update', index_path: '2.0', status: 'completed' }, 'bad_index');
  rejects(base(), { action: 'update', index_path: 'two', status: 'completed' }, 'bad_index');
});

test('TRK-1: index 0 completes the whole checklist and only with status "completed"', () => {
  const done = changed(applyCall(base(), { action: 'update', index: 0, status: 'completed' }));
  assert.ok(done.items.every((i) => i.status === 'completed' && i.children.every((k) => k.status === 'completed')));
  rejects(base(), { action: 'update', index: 0, status: 'in_progress' }, 'bad_index');
});

test('TRK-1: add appends at the top level or under parent_index_path', () => {
  const r = applyCall(base(), { action: 'add', description: '[~] Tag release', parent_index_path: '3' });
  const c = changed(r);
  assert.equal(c.items[2]?.children[0]?.description, 'Tag release');
  assert.equal(c.items[2]?.children[0]?.status, 'in_progress');
  assert.equal(r.kind === 'changed' && r.changed?.path.join('.'), '3.1');
  const top = changed(applyCall(base(), { action: 'add', description: 'Announce', verify: ['rg -n x README.md'] }));
  assert.equal(top.items[3]?.description, 'Announce');
  assert.deepEqual(top.items[3]?.verify, ['rg -n x README.md']);
  rejects(base(), { action: 'add', description: 'x', parent_index_path: '7' }, 'bad_index');
  rejects(null, { action: 'add', description: 'x' }, 'no_checklist');
});

test('TRK-1: list reads without changing; update and add need a checklist', () => {
  const c = base();
  assert.deepEqual(applyCall(c, { action: 'list' }), { kind: 'read', checklist: c });
  assert.deepEqual(applyCall(null, { action: 'list' }), { kind: 'read', checklist: null });
  rejects(null, { action: 'update', index: 1, status: 'completed' }, 'no_checklist');
});

test('TRK-1: items replaces the whole checklist and its progress', () => {
  const started = changed(applyCall(base(), { action: 'update', index: 3, status: 'completed' }));
  const c = changed(applyCall(started, { action: 'update', items: ['Release', '[x] Write parser'] }));
  assert.deepEqual(
    c.items.map((i) => [i.description, i.status]),
    [
      ['Release', 'pending'],
      ['Write parser', 'completed'],
    ],
  );
});

test('TRK-1: mixed shapes are refused before any change', () => {
  rejects(base(), { action: 'update', items: ['a'], index: 1 }, 'mixed_shape');
  rejects(base(), { action: 'update', items: ['a'], index_path: '1' }, 'mixed_shape');
  rejects(base(), { action: 'update', index: 1, index_path: '1', status: 'completed' }, 'mixed_shape');
  rejects(base(), { action: 'update', index: 1, status: 'completed', parent_index_path: '1' }, 'mixed_shape');
});

test('TRK-2: bulk sync keeps metadata of descriptions unique in both lists, also after reordering and re-spacing', () => {
  const c = changed(applyCall(base(), { action: 'update', items: ['Release', '[x]   Write   parser ', 'Wire CLI'] }));
  const parser = c.items[1];
  assert.equal(parser?.description, 'Write parser');
  assert.deepEqual(parser?.files, ['src/p.ts']);
  assert.deepEqual(parser?.verify, ['npm test']);
  assert.equal(parser?.outcome, 'parses');
});

test('TRK-2: explicit metadata replaces single fields; [] and "" clear them', () => {
  const c = changed(
    applyCall(base(), {
      action: 'update',
      items: [{ description: 'Write parser', files: [], outcome: '' }, 'Release'],
    }),
  );
  assert.deepEqual(c.items[0]?.files, []);
  assert.equal(c.items[0]?.outcome, null);
  assert.deepEqual(c.items[0]?.verify, ['npm test'], 'omitted verify is kept');
  const v = changed(
    applyCall(base(), { action: 'update', items: [{ description: 'Write parser', verify: ['npm run lint'] }] }),
  );
  assert.deepEqual(v.items[0]?.verify, ['npm run lint']);
  assert.deepEqual(v.items[0]?.files, ['src/p.ts']);
});

test('TRK-2: renamed steps get no metadata; duplicated descriptions with metadata need explicit fields', () => {
  const renamed = changed(applyCall(base(), { action: 'update', items: ['Write the parser'] }));
  assert.deepEqual(renamed.items[0]?.files, []);
  rejects(base(), { action: 'update', items: ['Write parser', 'Write parser'] }, 'ambiguous_metadata');
  const explicit = changed(
    applyCall(base(), {
      action: 'update',
      items: [
        { description: 'Write parser', files: ['a.ts'], outcome: '', verify: ['npm test'] },
        { description: 'Write parser', files: ['b.ts'], outcome: '', verify: [] },
      ],
    }),
  );
  assert.deepEqual(
    explicit.items.map((i) => i.files),
    [['a.ts'], ['b.ts']],
  );
  const noMeta = changed(applyCall(base(), { action: 'update', items: ['Release', 'Release'] }));
  assert.equal(noMeta.items.length, 2, 'duplicates without existing metadata are fine');
});

test('TRK-3: status prefixes [x] [X] [~] [/] [!] [ ] and object items', () => {
  const c = changed(
    applyCall(null, {
      action: 'create',
      items: [
        '[x] a',
        '[X] b',
        '[~] c',
        '[/] d',
        '[!] e',
        '[ ] f',
        'g',
        { description: 'h', status: 'blocked' },
        { description: '[x] i' },
      ],
    }),
  );
  assert.deepEqual(
    c.items.map((i) => i.status),
    ['completed', 'completed', 'in_progress', 'in_progress', 'blocked', 'pending', 'pending', 'blocked', 'completed'],
  );
  assert.deepEqual(
    c.items.map((i) => i.description),
    ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'],
  );
});

test('TRK-3: JSON-encoded strings are rejected before any change', () => {
  const c = base();
  const snapshot = JSON.stringify(c);
  rejects(c, { action: 'update', items: ['{"action":"update","index":1,"status":"completed"}'] }, 'json_string');
  rejects(c, { action: 'update', items: ['[x] ["a","b"]'] }, 'json_string');
  rejects(c, { action: 'update', items: [{ description: '{"description":"x"}' }] }, 'json_string');
  rejects(c, { action: 'add', description: '{"description":"x","status":"completed"}' }, 'json_string');
  assert.equal(JSON.stringify(c), snapshot);
  assert.equal(
    applyCall(c, { action: 'update', items: ['[x] Review {links}'] }).kind,
    'changed',
    'braces in prose are fine',
  );
});

test('TRK-3: identical updates return unchanged with the current checklist', () => {
  const c = changed(applyCall(base(), { action: 'update', index: 1, status: 'completed' }));
  const again = applyCall(c, { action: 'update', index_path: '1', status: 'completed' });
  assert.equal(again.kind, 'unchanged');
  assert.equal(again.kind === 'unchanged' && again.checklist, c);
  const bulk = applyCall(c, {
    action: 'update',
    items: ['[x] Write parser', 'Wire CLI', '  Add flag', '  Document flag', 'Release'],
  });
  assert.equal(bulk.kind, 'unchanged');
  assert.equal(applyCall(c, { action: 'update', index: 0, status: 'completed' }).kind, 'changed');
});

test('TRK-3: re-creating the same steps without statuses keeps progress', () => {
  const c = changed(applyCall(base(), { action: 'update', index: 1, status: 'completed' }));
  const r = applyCall(c, {
    action: 'create',
    title: 'Ship it',
    items: ['Write parser', 'Wire CLI', '  Add flag', '  Document flag', 'Release'],
  });
  assert.equal(r.kind, 'unchanged');
  assert.equal(r.kind === 'unchanged' && r.checklist.items[0]?.status, 'completed');
});

test('TRK-6: -> files: / -> verify: / -> outcome: suffixes become fields, arrows in prose stay', () => {
  const c = changed(
    applyCall(null, {
      action: 'create',
      items: [
        "Map old -> new names -> files: [src/a.ts, src/b.ts] -> verify: [npm test, rg -n 'a,b' src] -> outcome: names match",
        { description: 'Doc -> files: [README.md]', files: ['docs/x.md'] },
      ],
    }),
  );
  const [first, second] = c.items;
  assert.equal(first?.description, 'Map old -> new names');
  assert.deepEqual(first?.files, ['src/a.ts', 'src/b.ts']);
  assert.deepEqual(first?.verify, ['npm test', "rg -n 'a,b' src"]);
  assert.equal(first?.outcome, 'names match');
  assert.equal(second?.description, 'Doc');
  assert.deepEqual(second?.files, ['docs/x.md'], 'explicit fields win over suffixes');
});

test('TRK-1: update needs something to change and notes append once', () => {
  rejects(base(), { action: 'update', index: 1 }, 'missing_field');
  const n1 = changed(applyCall(base(), { action: 'update', index: 1, status: 'in_progress', notes: 'started' }));
  assert.equal(n1.notes, 'started');
  assert.equal(
    applyCall(n1, { action: 'update', index: 1, status: 'in_progress', notes: 'started' }).kind,
    'unchanged',
  );
});

test('TRK-3: an update text with a status prefix sets that status', () => {
  const c = changed(applyCall(base(), { action: 'update', index: 3, description: '[x] Release v1' }));
  assert.deepEqual([c.items[2]?.description, c.items[2]?.status], ['Release v1', 'completed']);
});

test('TRK-3 (property): repeating any successful call gives "unchanged" and the same checklist', () => {
  const status = fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const, 'blocked' as const);
  const callArb: fc.Arbitrary<TrackerCall> = fc.oneof(
    fc.record({ action: fc.constant('update' as const), index: fc.integer({ min: 1, max: 3 }), status }),
    fc.record({ action: fc.constant('update' as const), index_path: fc.constantFrom('2.1', '2.2', '1'), status }),
    fc.record({
      action: fc.constant('update' as const),
      index_path: fc.constantFrom('1', '2.2'),
      files: fc.array(fc.constantFrom('a.ts', 'b.ts')),
    }),
    fc.record({
      action: fc.constant('update' as const),
      items: fc
        .array(fc.constantFrom('[x] Write parser', 'Wire CLI', '  [~] Add flag', 'Release', '[!] Ship'), {
          minLength: 1,
          maxLength: 5,
        })
        .filter((xs) => new Set(xs).size === xs.length),
    }),
  );
  fc.assert(
    fc.property(callArb, (c) => {
      const first = applyCall(base(), c);
      const again = applyCall(first.checklist, c);
      assert.equal(again.kind, 'unchanged', JSON.stringify(c));
      assert.equal(again.checklist, first.checklist);
    }),
    { numRuns: 200 },
  );
});
