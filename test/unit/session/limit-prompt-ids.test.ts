/**
 * EXEC-3: a limit prompt's interview id names the limit, the turn and the calls used, for the
 * session tool-call limit as for the tool-loop limit (issue 19, a survivor of the session rerun).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMITS, of, read, useHarness } from './harness';

const h = useHarness();

test('EXEC-3: the session-limit prompt id is session-limit-<turn>-<calls used>', async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  await session.submit('Read three files');
  assert.equal(of(events, 'interview.requested').at(-1)?.interviewId, 'session-limit-1-2');
});
