import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
  parseTrackerMarkdown,
  renderTrackerMarkdown,
  TASK_STATUSES,
  type Checklist,
  type TaskItem,
} from '../../../src/core/tracker';

const sample: Checklist = {
  title: 'Fix parser',
  notes: 'Keep the grammar.\n\nSecond paragraph.',
  items: [
    {
      description: 'First step action',
      status: 'pending',
      files: ['src/a.ts', 'src/b.ts'],
      outcome: 'what is observable',
      verify: ['npm test'],
      children: [],
    },
    {
      description: 'Second step',
      status: 'in_progress',
      files: [],
      outcome: null,
      verify: ["rg -n 'a,b' README.md", 'echo x,y'],
      children: [
        { description: 'Child step', status: 'pending', files: ['c.ts'], outcome: null, verify: [], children: [] },
      ],
    },
    { description: 'Done step', status: 'completed', files: [], outcome: null, verify: [], children: [] },
    { description: 'Blocked step', status: 'blocked', files: [], outcome: null, verify: [], children: [] },
  ],
};

test('TRK-7: the sidecar follows file-formats.md (Plan of Work, [~], metadata two spaces under the item, Notes)', () => {
  assert.equal(
    renderTrackerMarkdown(sample, 'sidecar'),
    [
      '# Fix parser',
      '',
      '## Plan of Work',
      '',
      '- [ ] First step action',
      '  files: src/a.ts, src/b.ts',
      '  outcome: what is observable',
      '  verify: npm test',
      '- [~] Second step',
      '  verify:',
      "    - rg -n 'a,b' README.md",
      '    - echo x,y',
      '  - [ ] Child step',
      '    files: c.ts',
      '- [x] Done step',
      '- [!] Blocked step',
      '',
      '## Notes',
      '',
      'Keep the grammar.',
      '',
      'Second paragraph.',
      '',
    ].join('\n'),
  );
});

test('TRK-7: the global file has no section heading and writes in progress as [/]', () => {
  const text = renderTrackerMarkdown(sample, 'global');
  assert.ok(text.startsWith('# Fix parser\n\n- [ ] First step action\n'));
  assert.match(text, /^- \[\/\] Second step$/m);
  assert.doesNotMatch(text, /Plan of Work/);
});

test('TRK-7: both files parse back to the same checklist', () => {
  assert.deepEqual(parseTrackerMarkdown(renderTrackerMarkdown(sample, 'sidecar')), sample);
  assert.deepEqual(parseTrackerMarkdown(renderTrackerMarkdown(sample, 'global')), sample);
});

test('TRK-7: hand-written files are read leniently ([X], [/], * bullets, CRLF); an inline verify is one command as in VT Code', () => {
  const text =
    '# T\r\n\r\n* [X] One\r\n  files: a.ts, b.ts\r\n  verify: echo a, b\r\n    - [/] Deep child\r\n+ [ ] Two\r\nstray prose\r\n';
  const c = parseTrackerMarkdown(text);
  assert.equal(c?.title, 'T');
  assert.equal(c?.items[0]?.status, 'completed');
  assert.deepEqual(c?.items[0]?.files, ['a.ts', 'b.ts']);
  assert.deepEqual(c?.items[0]?.verify, ['echo a, b']);
  assert.equal(c?.items[0]?.children[0]?.status, 'in_progress');
  assert.equal(c?.items[1]?.description, 'Two');
  assert.equal(parseTrackerMarkdown('just prose\n'), null);
});

const word = fc.stringMatching(/^[A-Za-z0-9_./'"`(),:-]{1,8}$/);
const phrase = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const entry = phrase.filter((p) => !/^\[[ xX~/!]\]/.test(p));

const itemArb = (depth: number): fc.Arbitrary<TaskItem> =>
  fc
    .record({
      description: phrase,
      status: fc.constantFrom(...TASK_STATUSES),
      files: fc.array(entry, { maxLength: 3 }),
      outcome: fc.option(phrase, { nil: null }),
      verify: fc.array(entry, { maxLength: 3 }),
      children: depth > 0 ? fc.array(itemArb(depth - 1), { maxLength: 3 }) : fc.constant<TaskItem[]>([]),
    })
    .map((i) => ({ ...i }));

const checklistArb: fc.Arbitrary<Checklist> = fc
  .record({
    title: phrase,
    items: fc.array(itemArb(2), { maxLength: 5 }),
    notes: fc.option(
      fc.array(phrase, { minLength: 1, maxLength: 3 }).map((l) => l.join('\n')),
      { nil: null },
    ),
  })
  .map((c) => ({ ...c }));

test('TRK-7 (property): render → parse → render is stable for both files', () => {
  fc.assert(
    fc.property(checklistArb, fc.constantFrom('sidecar' as const, 'global' as const), (c, kind) => {
      const once = renderTrackerMarkdown(c, kind);
      const parsed = parseTrackerMarkdown(once);
      assert.ok(parsed);
      assert.deepEqual(parsed, c);
      assert.equal(renderTrackerMarkdown(parsed, kind), once);
    }),
    { numRuns: 300 },
  );
});

test('TRK-7: the fixture pair (sidecar and global file of one checklist) reads and rewrites byte for byte', async () => {
  const { readFileSync } = await import('node:fs');
  const dir = new URL('../../fixtures/tracker/', import.meta.url);
  const sidecarText = readFileSync(new URL('parser-fix.tasks.md', dir), 'utf8');
  const globalText = readFileSync(new URL('current_task.md', dir), 'utf8');
  const fromSidecar = parseTrackerMarkdown(sidecarText);
  assert.ok(fromSidecar);
  assert.deepEqual(parseTrackerMarkdown(globalText), fromSidecar);
  assert.equal(renderTrackerMarkdown(fromSidecar, 'sidecar'), sidecarText);
  assert.equal(renderTrackerMarkdown(fromSidecar, 'global'), globalText);
  assert.deepEqual(fromSidecar.items[1]?.verify, ['cargo test parser::tests::single_byte', "rg -n 'a,b' src"]);
  assert.deepEqual(
    fromSidecar.items[1]?.children.map((c) => c.status),
    ['pending', 'completed'],
  );
});
