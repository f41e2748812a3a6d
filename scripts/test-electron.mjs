// `npm run test:electron`: the same extension-host mocha suites under @vscode/test-electron, for
// contributors with desktop VS Code or internet access. Set VSCODE_EXECUTABLE to a local `code`
// binary to skip the download. `npm test` and CI use the offline server route instead. Each window
// of test/harness/windows.ts (the sample folder, two folders, no folder, the folder untrusted) is a run of its own.
import { runTests } from '@vscode/test-electron';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const { parseWindowKinds, prepareMultiRootWorkspace } = await tsImport('../test/harness/windows.ts', import.meta.url);
const sample = join(root, 'examples/sample-workspace');

/** What the window opens: a copy of the sample folder, a two-folder workspace file, or nothing. */
function opened(kind, dir) {
  if (kind === 'multi-root') return [prepareMultiRootWorkspace(dir, sample, {})];
  if (kind === 'no-folder') return [];
  cpSync(sample, join(dir, 'ws'), { recursive: true });
  return [join(dir, 'ws')];
}

for (const kind of parseWindowKinds(process.env.VTPLAN_EXTHOST_WINDOWS)) {
  const dir = mkdtempSync(join(tmpdir(), `vtp-electron-${kind}-`));
  const opens = opened(kind, dir);
  try {
    await runTests({
      // The scripted test chat model (vscode.lm tests) loads beside the extension under test.
      extensionDevelopmentPath: [root, join(root, 'test/fixtures/scripted-lm-extension')],
      extensionTestsEnv: { VTPLAN_SCRIPTED_LM: join(dir, 'scripted-lm.json'), VTPLAN_EXTHOST_WINDOW: kind },
      extensionTestsPath: join(root, 'out/test/exthost/index.js'),
      // The untrusted window keeps workspace trust on: a new folder then opens in Restricted Mode.
      launchArgs: [...opens, '--disable-extensions', ...(kind === 'untrusted' ? [] : ['--disable-workspace-trust'])],
      ...(process.env.VSCODE_EXECUTABLE
        ? { vscodeExecutablePath: process.env.VSCODE_EXECUTABLE }
        : { version: '1.139.1' }),
    });
  } catch (err) {
    console.error(`${kind} window: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
