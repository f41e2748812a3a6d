/**
 * Issue 15 item 2 (ADD-1, EXEC-5): a failed request shows in the transcript once, says the next
 * step and offers the action that takes it, live and after a reload alike.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  hostFailureNotice,
  NoWorkspaceFolderError,
  providerFailureNotice,
} from '../../../src/extension/failure-notices';
import { TranscriptBuilder } from '../../../src/extension/transcript';
import { HostNotification, type TranscriptEntry } from '../../../src/protocol';
import { SessionLogError } from '../../../src/core/session/log';
import { PromptsMissingError } from '../../../src/node/prompts';
import { sessionStarted, stampEvents } from '../../fixtures/events';

const notices = (entries: readonly TranscriptEntry[]) => entries.filter((e) => e.kind === 'notice');

test('a missing API key: one error notice with the key step and "Select Model"; the message stays in the transcript; a reload shows the same', () => {
  const message = 'No Anthropic API key is stored. Run "VT Code: Select Model" to add one.';
  const events = stampEvents([
    sessionStarted({ provider: 'anthropic', model: 'claude-test' }),
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'Add a shout flag' },
    { type: 'provider.failed', failure: { kind: 'setup', provider: 'anthropic', retryable: false, message } },
    { type: 'turn.completed', status: 'failed', reason: message },
  ]);
  const live = new TranscriptBuilder();
  for (const e of events)
    for (const m of live.apply(e)) assert.ok(HostNotification.safeParse(m).success, JSON.stringify(m));
  const shown = live.snapshot().transcript;
  assert.deepEqual(shown[0], {
    kind: 'user',
    id: shown[0]?.id,
    text: 'Add a shout flag',
    html: shown[0]?.kind === 'user' ? shown[0].html : '',
  });
  assert.deepEqual(
    notices(shown),
    [
      {
        kind: 'notice',
        id: 'n2',
        level: 'error',
        text: `The model request failed: ${message}`,
        actions: ['selectModel'],
      },
    ],
    'said once, not again as "the turn failed"',
  );
  const replayed = new TranscriptBuilder();
  replayed.replay(events);
  assert.deepEqual(replayed.snapshot().transcript, shown);
});

test('a turn that fails for another reason than the provider still says so', () => {
  const events = stampEvents([
    sessionStarted(),
    { type: 'turn.started', agent: 'plan', kind: 'user', input: 'go' },
    {
      type: 'provider.failed',
      failure: { kind: 'transport', provider: 'openai', retryable: true, message: 'ECONNREFUSED' },
    },
    { type: 'turn.completed', status: 'failed', reason: 'the session log could not be written' },
  ]);
  const b = new TranscriptBuilder();
  b.replay(events);
  assert.deepEqual(
    notices(b.snapshot().transcript).map((n) => n.kind === 'notice' && n.text),
    [
      'The model request failed: ECONNREFUSED. Check the network connection and the endpoint (setting vtplan.baseUrl), then send your message again.',
      'The turn failed: the session log could not be written',
    ],
  );
});

test('provider failures get the next step that fits them', () => {
  const of = (f: Parameters<typeof providerFailureNotice>[0]) => providerFailureNotice(f);
  assert.deepEqual(of({ kind: 'http', status: 401, retryable: false, message: 'invalid x-api-key' }), {
    level: 'error',
    text: 'The model request failed: invalid x-api-key. The service did not accept the credentials: enter the API key again with Select Model.',
    actions: ['selectModel'],
  });
  assert.deepEqual(of({ kind: 'http', status: 404, retryable: false, message: 'model not found' }).actions, [
    'selectModel',
    'openSettings',
  ]);
  assert.deepEqual(of({ kind: 'http', status: 429, retryable: true, message: 'rate limited' }).actions, []);
  assert.match(
    of({ kind: 'http', status: 429, retryable: true, message: 'rate limited' }).text,
    /send your message again in a moment\.$/,
  );
  assert.deepEqual(of({ kind: 'protocol', retryable: false, message: 'stream ended without a finish' }).actions, [
    'selectModel',
  ]);
  assert.deepEqual(
    of({ kind: 'http', retryable: false, message: 'NoPermissions: VS Code has not allowed it' }).actions,
    ['selectModel'],
  );
});

test('failures before a session: no folder offers Open Folder, a symlinked .vtcode says to remove the link, missing prompts say to reinstall; an unsent message is said to be back in the composer', () => {
  const noFolder = hostFailureNotice(new NoWorkspaceFolderError(), true);
  assert.equal(noFolder.level, 'warning');
  assert.deepEqual(noFolder.actions, ['openFolder']);
  assert.match(noFolder.text, /^Open a folder first: .* Your message was not sent; it is back in the composer\.$/);

  const link = hostFailureNotice(
    new SessionLogError(
      'refusing to write the session log: /ws/.vtcode is a symbolic link',
      '/ws/.vtcode/sessions/x.jsonl',
    ),
  );
  assert.equal(link.level, 'error');
  assert.equal(
    link.text,
    'VT Code Planning cannot keep its session files: refusing to write the session log: /ws/.vtcode is a symbolic link. The .vtcode folder and the folders in it must be real folders inside the workspace: remove the link (VT Code Planning creates the folder again), then send again.',
  );

  const prompts = hostFailureNotice(new PromptsMissingError('/ext/prompts/plan.md does not exist'));
  assert.match(
    prompts.text,
    /^The agent prompts are missing: \/ext\/prompts\/plan\.md does not exist\. Reinstall VT Code Planning/,
  );

  const other = hostFailureNotice(new Error('EACCES: permission denied, mkdir /ws/.vtcode'));
  assert.deepEqual(other, {
    level: 'error',
    text: 'EACCES: permission denied, mkdir /ws/.vtcode. The log (VT Code Planning output) has the details.',
    actions: ['showOutput'],
  });
});
