// `npm start [folder]`: builds the extension and serves real VS Code (the offline VS Code server
// from the test harness) with the extension loaded on `folder` (default: examples/sample-workspace).
// Prints the URL to open; Ctrl+C stops the server. Port: VTPLAN_PORT (default 3210, else a free one).
// The workbench is served as users see it, notification toasts included: not with the test
// harness's smoke-test driver, which hides them (test/harness/serve.ts loads the extension as an
// installed one instead). After a rebuild (`npm run watch`), "Developer: Reload Window" picks it up.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = resolve(process.argv[2] ?? resolve(root, 'examples/sample-workspace'));
if (!existsSync(folder) || !statSync(folder).isDirectory()) {
  console.error(`npm start: '${folder}' is not a folder. Usage: npm start -- [folder]`);
  process.exit(2);
}
ensureDependencies(root);
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step(process.execPath, ['scripts/build.mjs']);
step('bash', ['scripts/harness/setup.sh', '--server-only']);
const child = spawn(process.execPath, ['--import', 'tsx', 'test/harness/serve.ts', folder], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
