/**
 * Runs the mocha suites of test/exthost INSIDE the real VS Code extension host: a VS Code server
 * started with the smoke-test driver, a workbench page in headless Chromium whose URL payload names
 * the extension under development and the tests; the exit code comes back via codeAutomationExit.
 * Each window kind of windows.ts (the sample folder, two folders, no folder) is a run of its own
 * with a server of its own (the tests' environment reaches the extension host through the
 * server's environment: VS Code 1.96 ignores the URL payload's); their results are added up. VTPLAN_EXTHOST_WINDOWS (e.g.
 * `multi-root,no-folder`) runs only those. Prints each test and a closing `N passed, N failed`
 * line; exit 0 only when every test passed.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './browser';
import { makeRunDir, prepareWindow, remoteUri, removeRunDir, repoRoot, startServer } from './vscode-server';
import { parseWindowKinds, type WindowKind } from './windows';

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
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  cpSync(folder, join(runDir, 'ext', `${manifest.publisher}.${manifest.name}-${manifest.version}`), {
    recursive: true,
  });
}

/** One window's run: the suites of its kind, with its own server and a fresh browser profile. */
async function runWindow(
  runDir: string,
  kind: WindowKind,
  timeoutMs: number,
): Promise<{ results: Results | null; exitCode: number | undefined; consoleErrors: string[] }> {
  const dir = join(runDir, kind);
  mkdirSync(dir, { recursive: true });
  const resultsPath = join(dir, 'results.json');
  const extensionEnv: Record<string, string> = {
    VTPLAN_TEST_RESULTS: resultsPath,
    VTPLAN_SCRIPTED_LM: join(dir, 'scripted-lm.json'),
    VTPLAN_EXTHOST_WINDOW: kind,
  };
  for (const name of ['VTPLAN_TEST_GREP', 'VTPLAN_BENCH_OUT', 'VTPLAN_EXPECT_VSCODE']) {
    const value = process.env[name];
    if (value) extensionEnv[name] = value;
  }
  // Workspace trust is off except in the untrusted window, whose folder then opens in Restricted Mode.
  const server = await startServer({ runDir, env: extensionEnv, trustDisabled: kind !== 'untrusted' });
  const browser = await launchBrowser(dir, server.env);
  let exitCode: number | undefined;
  const consoleErrors: string[] = [];
  try {
    const target = prepareWindow(dir, kind);
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', remoteUri(server, repoRoot)],
      [
        'extensionTestsPath',
        remoteUri(server, process.env.VTPLAN_EXTHOST_TESTS ?? join(repoRoot, 'out', 'test', 'exthost', 'index.js')),
      ],
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
    await browser.page.goto(server.url(target, payload));
    const outcome = await Promise.race([
      exited.then(() => 'exited'),
      new Promise((r) => setTimeout(r, timeoutMs, 'timeout')),
    ]);
    if (outcome === 'timeout')
      console.error(`extension-host tests (${kind} window) did not finish within ${timeoutMs / 1000} s`);
  } finally {
    await browser.close();
    await server.stop();
  }
  const results = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as Results) : null;
  rmSync(dir, { recursive: true, force: true });
  return { results, exitCode, consoleErrors };
}

async function main(): Promise<number> {
  const windows = parseWindowKinds(process.env.VTPLAN_EXTHOST_WINDOWS);
  const runDir = makeRunDir('exthost');
  // The scripted chat model for the vscode.lm tests always loads; VTPLAN_SCRIPTED_LM names its script.
  for (const extra of [
    join(repoRoot, 'test', 'fixtures', 'scripted-lm-extension'),
    ...(process.env.VTPLAN_EXTRA_EXTENSIONS ?? '').split(':').filter(Boolean),
  ]) {
    installIntoRun(runDir, extra);
  }
  const timeoutMs = Number(process.env.VTPLAN_EXTHOST_TIMEOUT_MS ?? 300_000);
  const total: Results = { passes: 0, failures: 0, tests: [] };
  let ok = true;
  for (const kind of windows) {
    const { results, exitCode, consoleErrors } = await runWindow(runDir, kind, timeoutMs);
    if (!results) {
      console.log(
        `extension host (${kind} window): no results (exit code ${String(exitCode)}). Errors the workbench logged:`,
      );
      for (const e of consoleErrors.slice(-15)) console.log(`  ${e}`);
      total.failures += 1;
      ok = false;
      continue;
    }
    // The sample-folder window is the usual one; the others say which they were.
    const prefix = kind === 'folder' ? '' : `[${kind}] `;
    total.passes += results.passes;
    total.failures += results.failures;
    total.tests.push(...results.tests.map((t) => ({ ...t, title: `${prefix}${t.title}` })));
    if (results.failures > 0 || exitCode !== 0) ok = false;
  }
  removeRunDir(runDir);
  mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  writeFileSync(
    process.env.VTPLAN_EXTHOST_RESULTS ?? join(repoRoot, 'test-results', 'exthost.json'),
    JSON.stringify(total, null, 2),
  );
  for (const t of total.tests) {
    console.log(`${t.state === 'passed' ? '✔' : t.state === 'pending' ? '-' : '✖'} ${t.title}`);
    if (t.error)
      console.log(
        t.error
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n'),
      );
  }
  console.log(`${total.passes} passed, ${total.failures} failed`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : String(err));
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
