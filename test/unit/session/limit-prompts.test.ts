/**
 * EXEC-3: what the runtime limit prompts say and offer (src/core/session/turn/limits.ts): the
 * question, its two options, that no free-form answer is taken, the interview id and the
 * suspension record the session resumes from.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LIMIT_DENY, LIMIT_GRANT } from '../../../src/core/session/runloop';
import { LIMITS, of, read, useHarness } from './harness';

const h = useHarness();

test('EXEC-3: the session-limit prompt offers exactly "grant (recommended)" and "deny", no free-form answer, and the turn waits for it', async () => {
  h.server.enqueue({ toolCalls: [read(1), read(2, 'src/greet.js'), read(3, 'package.json')] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, sessionToolCalls: 2 } }));
  await session.submit('Read three files');

  const asked = of(events, 'interview.requested').at(-1);
  assert.deepEqual(asked?.questions, [
    {
      id: 'session_calls',
      header: 'Session tool-call limit reached',
      question: 'The build agent reached the session tool-call limit (2 tool calls). Grant 2 more?',
      options: [
        {
          label: LIMIT_GRANT,
          description: 'Allow 2 more tool calls; the pending work continues in this turn.',
          recommended: true,
        },
        { label: LIMIT_DENY, description: 'Stop here; the pending call is denied.' },
      ],
      allowFreeform: false,
    },
  ]);
  assert.equal(of(events, 'turn.suspended').at(-1)?.firstCallEmitted, true);
  assert.deepEqual(
    of(events, 'turn.completed')
      .map(({ status, reason }) => ({ status, reason }))
      .at(-1),
    { status: 'awaiting_input', reason: 'Waiting for your decision on more tool calls.' },
  );
});

test('EXEC-3: the tool-loop prompt has its own interview id, names round-trips, and its suspension keeps no call', async () => {
  h.server.enqueue({ toolCalls: [read(1)] }, { toolCalls: [read(2)] }, { toolCalls: [read(3)] });
  const { session, events } = await h.start('build', h.deps({ limits: { ...LIMITS, loopsPerTurn: 2 } }));
  await session.submit('Loop a bit');

  const asked = of(events, 'interview.requested').at(-1);
  assert.match(asked?.interviewId ?? '', /^tool-loop-1-2$/);
  assert.equal(asked?.questions[0]?.header, 'Tool-loop limit reached');
  const suspended = of(events, 'turn.suspended').at(-1);
  assert.deepEqual(
    { reason: suspended?.reason, calls: suspended?.calls, firstCallEmitted: suspended?.firstCallEmitted },
    { reason: 'tool_loop', calls: [], firstCallEmitted: false },
  );
  assert.equal(of(events, 'turn.completed').at(-1)?.reason, 'Waiting for your decision on more model round-trips.');
});
