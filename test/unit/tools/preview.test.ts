import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { byteLength, cutHead, cutHeadTail, cutNote } from '../../../src/core/tools';

test('NAV-5: a cut head plus its note stays within the limit, is a prefix of the text and never splits a character', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: 'binary', maxLength: 200 }), { maxLength: 200 }),
      fc.integer({ min: 400, max: 8000 }),
      (lines, limit) => {
        const text = lines.join('\n');
        const cut = cutHead(text, limit);
        if (cut === null) return byteLength(text) <= limit;
        const shown = cut.text + cutNote(cut, 'continue with start_line=42.');
        // A split character would decode to U+FFFD and break the prefix check.
        return byteLength(shown) <= limit && text.startsWith(cut.text) && cut.shownBytes === byteLength(cut.text);
      },
    ),
  );
});

test('NAV-5: a head+tail cut keeps the start and the end of the text and stays within the limit', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 120 }), { minLength: 50, maxLength: 400 }),
      fc.integer({ min: 600, max: 4000 }),
      (lines, limit) => {
        const text = `${lines.join('\n')}\n`;
        const cut = cutHeadTail(text, limit);
        if (cut === null) return byteLength(text) <= limit;
        const [head, tail] = cut.text.split(/\n?\[… \d+ bytes cut here …\]\n/);
        return (
          byteLength(cut.text + cutNote(cut, 'Re-run with | tail.')) <= limit &&
          text.startsWith(head ?? '\0') &&
          text.endsWith(tail ?? '\0')
        );
      },
    ),
  );
});

test('NAV-5: text within the limit is left alone', () => {
  assert.equal(cutHead('short', 100), null);
  assert.equal(cutHeadTail('short', 100), null);
  const cut = cutHead('ab\ncd\nef\n'.repeat(200), 500);
  assert.ok(cut && cut.text.endsWith('\n') && cut.headLines === cut.text.split('\n').length - 1);
});
