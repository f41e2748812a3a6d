/**
 * TRK-1, TRK-6: what the tracker file reader takes for a title, an item, a metadata line, a block
 * entry and the Notes section, and what it leaves alone. Found by mutation testing
 * (docs/testing.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseTrackerMarkdown, type Checklist } from '../../../src/core/tracker';

function parsed(lines: string[]): Checklist {
  const c = parseTrackerMarkdown(lines.join('\n'));
  assert.ok(c, 'a checklist');
  return c;
}

/** Description, files and children of each item, as a compact tree. */
function tree(c: Checklist): unknown {
  const item = (i: Checklist['items'][number]): unknown => [i.description, i.files, i.children.map(item)];
  return c.items.map(item);
}

test('TRK-1: the first top-level "# " heading is the title; later ones, indented ones and "#" mid-line are not', () => {
  assert.equal(parsed(['# First', '# Second', '- [ ] a']).title, 'First');
  assert.equal(parsed(['- [ ] a', '  # not a title']).title, 'Task Checklist');
  assert.equal(parsed(['Tracking issue # 12', '- [ ] a']).title, 'Task Checklist');
});

test('TRK-1: items without a title still make a checklist; a mark without text is no item', () => {
  const c = parsed(['- [ ] a', '- [x]', '- [ ] b']);
  assert.equal(c.title, 'Task Checklist');
  assert.deepEqual(tree(c), [
    ['a', [], []],
    ['b', [], []],
  ]);
});

test('TRK-1: a status mark in the middle of a line does not make an item', () => {
  assert.deepEqual(tree(parsed(['# T', 'Note - [x] this is prose', '- [ ] a'])), [['a', [], []]]);
});

test('TRK-1: tab indentation nests like two spaces a tab, also mixed with spaces', () => {
  const c = parsed(['# T', '- [ ] A', '\t- [ ] A.1', '\t\t- [ ] A.1.1', '    - [ ] A.1.2', '- [ ] B']);
  assert.deepEqual(tree(c), [
    [
      'A',
      [],
      [
        [
          'A.1',
          [],
          [
            ['A.1.1', [], []],
            ['A.1.2', [], []],
          ],
        ],
      ],
    ],
    ['B', [], []],
  ]);
});

test('TRK-1: old Mac line endings (a lone CR) separate lines', () => {
  assert.deepEqual(tree(parsed(['# T\r- [ ] a\r- [ ] b'])), [
    ['a', [], []],
    ['b', [], []],
  ]);
});

test('TRK-6: metadata belongs to the item above only when indented under it', () => {
  const c = parsed([
    '# T',
    'files: before.ts',
    '- [ ] A',
    'files: same-level.ts',
    '- [ ] B',
    '  files : spaced.ts',
    '  see files: prose.ts',
  ]);
  assert.deepEqual(tree(c), [
    ['A', [], []],
    ['B', ['spaced.ts'], []],
  ]);
  assert.deepEqual(parsed(['- [ ] A', '  files:a.ts']).items[0]?.files, ['a.ts']);
});

test('TRK-6: a block entry is a bullet deeper than its key; anything else ends the block', () => {
  const c = parsed([
    '# T',
    '- [ ] A',
    '  files:',
    '    - a.ts',
    '  - same level',
    '- [ ] B',
    '  files:',
    '    b - c.ts',
    '    - late.ts',
  ]);
  assert.deepEqual(tree(c), [
    ['A', ['a.ts'], []],
    ['B', [], []],
  ]);
  assert.deepEqual(tree(parsed(['- [ ] A', '  - a plain bullet'])), [['A', [], []]]);
});

test('TRK-1: only a top-level "## Notes" heading, however spaced, starts the notes', () => {
  assert.equal(parsed(['# T', '- [ ] A', '##   Notes', 'kept']).notes, 'kept');
  const other = parsed(['# T', '- [ ] A', '## Notes from review', '- [ ] B']);
  assert.equal(other.notes, null);
  assert.equal(other.items.length, 2);
  const indented = parsed(['# T', '- [ ] A', '  ## Notes', '- [ ] B']);
  assert.equal(indented.notes, null);
  assert.equal(indented.items.length, 2);
});
