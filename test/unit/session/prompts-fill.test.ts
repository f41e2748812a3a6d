/** The agents' prompt templates as the session fills them for each request (`fill`). */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fill } from '../../../src/core/session/prompts';

test("fill replaces each known {{name}}, keeps an unknown one verbatim and drops the template file's surrounding blank lines", () => {
  assert.equal(
    fill('\n\nYou plan in {{workspace}}; {{workspace}} is read-only. {{unknown}} stays.\n\n', { workspace: '/ws' }),
    'You plan in /ws; /ws is read-only. {{unknown}} stays.',
  );
});
