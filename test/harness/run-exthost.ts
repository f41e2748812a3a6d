/**
 * Runs the mocha suites of test/exthost INSIDE the real VS Code extension host: a VS Code server
 * started with the smoke-test driver, a workbench page in headless Chromium whose URL payload names
 * the extension under development and the tests; the exit code comes back via codeAutomationExit.
 * Prints each test and a closing `N passed, N failed` line; exit 0 only when every test passed.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './browser';
import { makeRunDir, prepareWorkspace, remoteUri, removeRunDir, repoRoot, startServer } from './vscode-server';

interface Results {
  passes: number;
  failures: number;
  tests: { title: string; state: string; error?: string }[];
}

/**
 * Installs an extension folder into the run's extensions dir (`--extensions-dir <runDir>/ext`):
 * the workbench keeps the URL payload in a Map, so a second `extensionDevelopmentPath` would
 * replace the extension under development instead of joining it.
 */
function installIntoRun(runDir: string, folder: string): void {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  cpSync(folder, join(runDir, 'ext', `${manifest.publisher}.${manifest.name}-${manifest.version}`), { recursive: true });
}

async function main(): Promise<number> {
  const runDir = makeRunDir('exthost');
  // The scripted chat model for the vscode.lm tests always loads; VTPLAN_SCRIPTED_LM names its script.
  for (const extra of [join(repoRoot, 'test', 'fixtures', 'scripted-lm-extension'), ...(process.env.VTPLAN_EXTRA_EXTENSIONS ?? '').split(':').filter(Boolean)]) {
    installIntoRun(runDir, extra);
  }
  const resultsPath = join(runDir, 'results.json');
  const timeoutMs = Number(process.env.VTPLAN_EXTHOST_TIMEOUT_MS ?? 300_000);
  const extensionEnv: Record<string, string> = { VTPLAN_TEST_RESULTS: resultsPath, VTPLAN_SCRIPTED_LM: join(runDir, 'scripted-lm.json') };
  for (const name of ['VTPLAN_TEST_GREP', 'VTPLAN_BENCH_OUT', 'VTPLAN_EXPECT_VSCODE']) {
    const value = process.env[name];
    if (value) extensionEnv[name] = value;
  }
  const server = await startServer({ runDir, env: extensionEnv });
  const browser = await launchBrowser(runDir, server.env);
  let exitCode: number | undefined;
  const consoleErrors: string[] = [];
  try {
    const workspace = prepareWorkspace(runDir);
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', remoteUri(server, repoRoot)],
      ['extensionTestsPath', remoteUri(server, process.env.VTPLAN_EXTHOST_TESTS ?? join(repoRoot, 'out', 'test', 'exthost', 'index.js'))],
      // The scripted test model registers through the proposed `chatProvider` API before VS Code 1.104.
      ['enableProposedApi', ''],
    ];
    const exited = new Promise<void>((resolve) => {
      void browser.page.exposeFunction('codeAutomationExit', (code: number) => {
        exitCode = code;
        resolve();
      });
    });
    browser.page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 2_000));
    });
    await browser.page.goto(server.url(workspace, payload));
    const outcome = await Promise.race([exited.then(() => 'exited'), new Promise((r) => setTimeout(r, timeoutMs, 'timeout'))]);
    if (outcome === 'timeout') console.error(`extension-host tests did not finish within ${timeoutMs / 1000} s`);
  } finally {
    await browser.close();
    await server.stop();
  }
  const results: Results | null = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as Results) : null;
  removeRunDir(runDir);
  mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  writeFileSync(process.env.VTPLAN_EXTHOST_RESULTS ?? join(repoRoot, 'test-results', 'exthost.json'), JSON.stringify(results ?? { passes: 0, failures: 1, tests: [] }, null, 2));
  if (!results) {
    console.log(`extension host: no results (exit code ${String(exitCode)}). Errors the workbench logged:`);
    for (const e of consoleErrors.slice(-15)) console.log(`  ${e}`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  for (const t of results.tests) {
    console.log(`${t.state === 'passed' ? '✔' : '✖'} ${t.title}`);
    if (t.error) console.log(t.error.split('\n').map((l) => `    ${l}`).join('\n'));
  }
  console.log(`${results.passes} passed, ${results.failures} failed`);
  return results.failures === 0 && exitCode === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : String(err));
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
