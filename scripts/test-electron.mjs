// `npm run test:electron`: the same extension-host mocha suites under @vscode/test-electron, for
// contributors with desktop VS Code or internet access. Set VSCODE_EXECUTABLE to a local `code`
// binary to skip the download. `npm test` and CI use the offline server route instead.
import { runTests } from '@vscode/test-electron';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const workspace = join(mkdtempSync(join(tmpdir(), 'vtp-electron-')), 'ws');
cpSync(join(root, 'examples/sample-workspace'), workspace, { recursive: true });
try {
  await runTests({
    // The scripted test chat model (vscode.lm tests) loads beside the extension under test.
    extensionDevelopmentPath: [root, join(root, 'test/fixtures/scripted-lm-extension')],
    extensionTestsEnv: { VTPLAN_SCRIPTED_LM: join(dirname(workspace), 'scripted-lm.json') },
    extensionTestsPath: join(root, 'out/test/exthost/index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    ...(process.env.VSCODE_EXECUTABLE ? { vscodeExecutablePath: process.env.VSCODE_EXECUTABLE } : { version: '1.139.1' }),
  });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
