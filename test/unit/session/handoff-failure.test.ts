/**
 * GATE-3: a handoff that fails at the tracker step keeps planning active with the plan ready for
 * retry and a visible reason, emits no approval, and starts no write-capable turn.
 */
import { afterEach, beforeEach, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider } from '../../../src/core/llm';
import { systemClock } from '../../../src/core/ports';
import type { SessionEvent } from '../../../src/core/session/events';
import { Session } from '../../../src/core/session/session';
import { createToolRuntime } from '../../../src/core/tools';
import { nodeFileSystem } from '../../../src/node/fs';
import { loadPrompts } from '../../../src/node/prompts';
import { jsSearch } from '../../../src/node/search';
import { nodeShell } from '../../../src/node/shell';
import { nodeWriter } from '../../../src/node/writer';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';
import { SHOUT_FLAG_PLAN } from '../../fixtures/plans/shout-flag';
import { settingsWith } from './harness';

const PLAN = SHOUT_FLAG_PLAN;

let server: ModelServer;
let root: string;
let outside: string;

beforeEach(async () => {
  server = await startModelServer();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-handoff-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'vtp-outside-')));
  cpSync(join(__dirname, '..', '..', '..', 'examples', 'sample-workspace'), root, { recursive: true });
});

afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test('GATE-3, STORE-2: the tracker cannot be written (symlinked .vtcode/tasks) → still planning, no approval event, no implementation request', async () => {
  server.enqueue({ text: `<proposed_plan>\n${PLAN}\n</proposed_plan>` }, { text: 'should never be requested' });
  const session = await Session.start(
    {
      fs: nodeFileSystem,
      root,
      provider: createProvider({ kind: 'openai', model: 'scripted', baseUrl: server.openaiBaseUrl }, 'k'),
      tools: createToolRuntime({
        root,
        ports: { fs: nodeFileSystem, shell: nodeShell, search: jsSearch, writer: nodeWriter },
      }),
      prompts: loadPrompts(),
      clock: systemClock,
      logKey: randomBytes(32),
      turnSettings: () =>
        settingsWith({ maxConsecutiveBlocked: 8, toolCallsPerTurn: 120, loopsPerTurn: 60, maxOutputTokens: 2_048 }),
    },
    { agent: 'plan' },
  );
  const events: SessionEvent[] = [];
  session.on((e) => events.push(e));
  await session.submit('Add a shout flag');
  assert.ok(session.state.pendingApproval);

  mkdirSync(join(root, '.vtcode'), { recursive: true });
  symlinkSync(outside, join(root, '.vtcode', 'tasks'));
  const before = events.length;
  const result = await session.approve('execute');
  const after = events.slice(before);

  assert.equal(result.ok, false);
  assert.equal(result.ok === false && result.step, 'tracker');
  assert.equal(session.state.agent, 'plan', 'planning stays active');
  assert.deepEqual(
    session.state.pendingApproval,
    { planFile: '.vtcode/plans/add-a-shout-flag.md' },
    'the plan stays ready for retry',
  );
  assert.equal(after.filter((e) => e.type === 'plan.approval.resolved').length, 0);
  assert.equal(after.filter((e) => e.type === 'turn.started' || e.type === 'mode.changed').length, 0);
  assert.equal(server.requests.length, 1, 'no implementation request');
  assert.deepEqual(readdirSync(outside), [], 'nothing was written through the symlink');
  const notice = after.find((e) => e.type === 'notice');
  assert.ok(
    notice &&
      notice.type === 'notice' &&
      notice.level === 'error' &&
      /checklist could not be written/.test(notice.text),
    JSON.stringify(notice),
  );
});
