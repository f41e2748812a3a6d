/**
 * MODE-2: `/plan off` in a session that started planning. There is no execution agent before it,
 * so it leaves planning for build, in the running session and in the same session resumed from
 * its log (ADD-4).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Session } from '../../../src/core/session/session';
import { of, useHarness } from './harness';

const h = useHarness();

test('MODE-2: /plan off in a session that started planning switches to build', async () => {
  const { session, events } = await h.start('plan');
  assert.deepEqual(await session.submit('/plan off'), { kind: 'mode', agent: 'build' });
  assert.deepEqual(
    of(events, 'mode.changed').map((e) => [e.from, e.to, e.switchPath]),
    [['plan', 'build', 'plan_exit']],
  );
  await session.close();
});

test('MODE-2, ADD-4: /plan off in a resumed session that started planning switches to build', async () => {
  const { session } = await h.start('plan');
  await session.close();
  const resumed = await Session.resume(h.deps(), session.id);
  assert.equal(resumed.state.agent, 'plan');
  assert.deepEqual(await resumed.submit('/plan off'), { kind: 'mode', agent: 'build' });
  await resumed.close();
});
