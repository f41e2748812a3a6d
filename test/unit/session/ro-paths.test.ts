/**
 * RO-2, MODE-1 at session level: a command naming a path outside the workspace is refused (the rule is lexical; a symlink inside the workspace is not resolved). A `run_command`
 * naming `/etc/hosts` is blocked at the dispatch gate in plan mode, and in build mode before any
 * confirmation is asked; the shell port is never called and the model is told why.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createToolRuntime } from '../../../src/core/tools';
import { nodeFileSystem } from '../../../src/node/fs';
import { jsSearch } from '../../../src/node/search';
import { nodeWriter } from '../../../src/node/writer';
import { of, useHarness, recordingShell } from './harness';

const h = useHarness();
const catHosts = { id: 'call_hosts', name: 'run_command', arguments: JSON.stringify({ command: 'cat /etc/hosts' }) };

for (const agent of ['plan', 'build', 'auto'] as const) {
  test(`RO-2, MODE-1: ${agent} mode blocks \`cat /etc/hosts\` before it runs${agent === 'build' ? ', without asking to confirm' : ''}`, async () => {
    const ran: string[] = [];
    const asked: string[] = [];
    const tools = createToolRuntime({
      root: h.root,
      ports: { fs: nodeFileSystem, shell: recordingShell(ran), search: jsSearch, writer: nodeWriter },
      confirm: async (command) => (asked.push(command), true),
    });
    h.server.enqueue({ toolCalls: [catHosts] }, { text: 'I will stay inside the workspace.' });
    const { session, events } = await h.start(agent, h.deps({ tools }));
    await session.submit('Show me the hosts file');
    const blocked = of(events, 'tool.blocked').find((b) => b.callId === 'call_hosts');
    assert.ok(blocked, 'the call was blocked');
    assert.equal(blocked.policy, 'shell');
    const reason = `Path blocked: \`/etc/hosts\` is outside the workspace (${h.root}); commands may only name paths inside it (every argument of \`cat\` counts as a possible path). The command was not run.`;
    assert.equal(blocked.reason, reason);
    assert.deepEqual(ran, [], 'the shell never ran');
    assert.deepEqual(asked, [], 'nobody was asked to confirm');
    assert.equal(of(events, 'tool.result').filter((r) => r.callId === 'call_hosts').length, 0);
    const toolMsg = h.body(1).messages.find((m) => m.role === 'tool');
    assert.equal(String(toolMsg?.content), reason, 'the model is told why');
  });
}
