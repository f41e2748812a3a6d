/**
 * PLAN-6: an escaped bracket is text, not a link. `\[a](b.md)` renders as the characters
 * `[a](b.md)`, so the validator must not report it as a markdown link; an escaped backslash
 * before the bracket (`\\[a](b.md)`) leaves the link a link.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validatePlan } from '../../../src/core/plan';
import { GOOD_STEP, readyPlan } from '../../fixtures/ready-plan';

function linkErrors(extra: string): string[] {
  return validatePlan(readyPlan(GOOD_STEP, extra))
    .errors.filter((e) => e.code === 'link_reference')
    .map((e) => e.message);
}

test('PLAN-6: an escaped `\\[a](b.md)` is not reported as a markdown link', () => {
  assert.deepEqual(linkErrors('- See \\[notes](docs/notes.md) for the format.'), []);
  assert.deepEqual(linkErrors('- Odd escapes: x\\\\\\[a](b.md).'), []);
});

test('PLAN-6: a link after an escaped backslash, or after an escaped `!`, is still a link', () => {
  assert.deepEqual(linkErrors('- See \\\\[notes](docs/notes.md).'), [
    'Markdown link `[notes](docs/notes.md)` at line 19: write file references as plain text or inline code (e.g. `src/main.rs:42`).',
  ]);
  assert.deepEqual(linkErrors('- See \\![shot](shot.png).'), [
    'Markdown link `![shot](shot.png)` at line 19: write file references as plain text or inline code (e.g. `src/main.rs:42`).',
  ]);
  assert.equal(linkErrors('- See [notes](docs/notes.md).').length, 1);
});
