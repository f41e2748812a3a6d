/**
 * `vtplan mcp [--workspace DIR]` (issue 18 item 2, ADD-2): the planning gates — validatePlan,
 * checkCommand, taskTracker, savePlan — for other agents (Claude Code, Codex, VS Code's agent
 * mode, Cursor) as a stdio MCP server over one workspace. It serves until stdin ends (exit 0).
 * stdout is the protocol's alone; the one line of status and any protocol error go to stderr.
 */
import { statSync } from 'node:fs';
import { posix as path } from 'node:path';
import { GATE_TOOLS } from '../../core/gates';
import { nodeFileSystem } from '../../node/fs';
import { parseFlags } from '../flags';
import { InputError, UsageError, type CliCommand } from '../io';
import { serveGatesOverStdio } from '../mcp-server';

const USAGE = 'vtplan mcp [--workspace DIR]';

const HELP = [
  'Tools:',
  ...GATE_TOOLS.map(
    (g) => `  ${g.name.padEnd(14)}${(g.readOnly ? 'read-only' : 'writes .vtcode/').padEnd(17)}${g.title}`,
  ),
  '',
  'The workspace is DIR, or the current folder. Plans are saved under DIR/.vtcode/plans/ and wait',
  'for your approval: VS Code with VT Code Planning open on DIR asks "Ready to code?" (the record',
  'is .vtcode/approvals/<plan>.json); approving writes the plan\u2019s task checklist, the one',
  'VT Code\u2019s Tasks view shows and taskTracker reads.',
  '',
  'Setup (replace the paths):',
  '  Claude Code  claude mcp add vtplan -- node /path/to/dist/cli.js mcp --workspace /path/to/project',
  '  Codex        ~/.codex/config.toml: [mcp_servers.vtplan] command = "node"',
  '               args = ["/path/to/dist/cli.js", "mcp", "--workspace", "/path/to/project"]',
  '  VS Code      .vscode/mcp.json: {"servers": {"vtplan": {"type": "stdio", "command": "node",',
  '               "args": ["/path/to/dist/cli.js", "mcp", "--workspace", "${workspaceFolder}"]}}}',
].join('\n');

function workspaceRoot(cwd: string, flag: string | undefined): string {
  const root = path.resolve(cwd, flag ?? '.');
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    throw new InputError(`workspace ${root} does not exist`);
  }
  if (!isDirectory) throw new InputError(`workspace ${root} is not a folder`);
  return root;
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary:
    'Serve the planning gates (validatePlan, checkCommand, taskTracker, savePlan) to other agents as an MCP server on stdio.',
  usage: USAGE,
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { workspace: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
    if (values.workspace === '') throw new UsageError('--workspace needs the workspace folder');
    const root = workspaceRoot(io.cwd, values.workspace);
    const log = (line: string): void => io.stderr(`vtplan mcp: ${line}\n`);
    await serveGatesOverStdio(
      {
        root,
        fs: nodeFileSystem,
        approvalRecord: { savedBy: 'vtplan mcp' },
        onPlanReady: (plan) => log(`plan ready for your approval: ${plan.relativePath}`),
      },
      { stdin: process.stdin, stdout: process.stdout, log },
    );
    return 0;
  },
};
