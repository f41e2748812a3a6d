/**
 * Another agent beside VS Code, for the mcp-approval suites: `vtplan mcp` (the built dist/cli.js)
 * in a child process, driven by the MCP SDK's own client as Claude Code or Codex drive it; and the
 * "Ready to code?" offers the extension shows meanwhile.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface McpAgent {
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }>;
  /** What the server wrote to stderr so far (its status lines). */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `vtplan mcp --workspace <root>` from the extension under test and connects to it. */
export async function startMcpAgent(root: string): Promise<McpAgent> {
  const ext = vscode.extensions.getExtension('vtcode.vtcode-planning');
  assert.ok(ext, 'the extension under test is loaded');
  const cli = join(ext.extensionPath, 'dist', 'cli.js');
  assert.ok(existsSync(cli), `${cli} is built (node scripts/build.mjs)`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--workspace', root],
    // Under Electron (test-electron) the host's executable is Electron: run it as Node.
    env: { ...(process.env as Record<string, string>), ELECTRON_RUN_AS_NODE: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'vtplan-exthost-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    async callTool(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const first = result.content[0];
      return { ...result, text: first?.type === 'text' ? first.text : '' };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}

export interface Shown {
  message: string;
  items: string[];
}

type Show = (message: string, ...rest: unknown[]) => Thenable<string | undefined>;

/**
 * Records the information messages the extension shows (the same `vscode.window` it uses) and
 * answers each with `answer` (a button, or `undefined`: closed unanswered) instead of showing it.
 */
export function answerNotifications(answer: (shown: Shown) => string | undefined): {
  shown: Shown[];
  restore: () => void;
} {
  const window = vscode.window as unknown as { showInformationMessage: Show };
  const original = window.showInformationMessage;
  const shown: Shown[] = [];
  window.showInformationMessage = (message, ...rest) => {
    const offer = { message, items: rest.filter((r): r is string => typeof r === 'string') };
    shown.push(offer);
    return Promise.resolve(answer(offer));
  };
  return { shown, restore: () => (window.showInformationMessage = original) };
}

/** The "Ready to code?" offers of a saved plan (Approve / Open Plan), not a chat session's own gate. */
export function offersOf(shown: readonly Shown[]): Shown[] {
  return shown.filter((s) => s.items.join() === 'Approve,Open Plan' && /Ready to code\?$/.test(s.message));
}

/** Approve on every "Ready to code?" offer; close anything else unanswered. */
export const approveOffers = (shown: Shown): string | undefined =>
  offersOf([shown]).length > 0 ? 'Approve' : undefined;
