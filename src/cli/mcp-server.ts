/**
 * The planning gates as an MCP server (issue 18 item 2, ADD-2): every gate of GATE_TOOLS is
 * registered with its own zod schema (the SDK lists it as JSON Schema and validates calls with it),
 * its title and description, and annotations from its read-only flag. A call is answered by the
 * gate's handler; a refused call is an error result (`isError`), never a crash. stdout carries the
 * protocol alone: anything else goes to `log` (stderr).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { GATE_TOOLS, type GateContext, type GateResult } from '../core/gates';
import { errorMessage } from '../core/errors';
import { CLI_VERSION } from './version';

const INSTRUCTIONS = [
  'VT Code Planning gates for this workspace.',
  'Before presenting a plan, validate it with validatePlan and fix every error; save it with savePlan only when it is ready, then wait for the user to approve it (VS Code asks them "Ready to code?"); once approved, taskTracker lists its steps.',
  'In plan (read-only) work, ask checkCommand before running a shell command.',
  'While implementing an approved plan, keep its checklist current with taskTracker.',
].join(' ');

function callToolResult(result: GateResult): CallToolResult {
  return {
    content: [{ type: 'text', text: result.text }],
    structuredContent: { ...result.data },
    ...(result.ok ? {} : { isError: true }),
  };
}

function createGateServer(ctx: GateContext): McpServer {
  const server = new McpServer({ name: 'vtplan', version: CLI_VERSION }, { instructions: INSTRUCTIONS });
  for (const gate of GATE_TOOLS) {
    server.registerTool(
      gate.name,
      {
        title: gate.title,
        description: gate.description,
        inputSchema: gate.inputSchema,
        annotations: {
          title: gate.title,
          readOnlyHint: gate.readOnly,
          // The writers only add or update files under .vtcode/ (plans, checklists), never delete.
          destructiveHint: false,
          openWorldHint: false,
        },
      },
      async (input) => callToolResult(await gate.handler(input, ctx)),
    );
  }
  return server;
}

export interface StdioStreams {
  stdin: Readable;
  stdout: Writable;
  log: (line: string) => void;
}

/** Serves until stdin ends (the client went away); resolves then. */
export async function serveGatesOverStdio(ctx: GateContext, streams: StdioStreams): Promise<void> {
  const server = createGateServer(ctx);
  server.server.onerror = (err) => streams.log(`protocol error: ${errorMessage(err)}`);
  const closed = new Promise<void>((resolve) => {
    streams.stdin.once('end', resolve);
    streams.stdin.once('close', resolve);
  });
  await server.connect(new StdioServerTransport(streams.stdin, streams.stdout));
  streams.log(`serving ${GATE_TOOLS.map((g) => g.name).join(', ')} for ${ctx.root}`);
  await closed;
  await server.close();
}
