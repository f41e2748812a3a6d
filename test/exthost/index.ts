/**
 * Loaded by the real VS Code extension host (extensionTestsPath): runs the compiled suites of this
 * run's window beside this file (`*.test.js`, `*.multiroot.test.js` or `*.nofolder.test.js`, see
 * test/harness/windows.ts) with mocha and writes the results to VTPLAN_TEST_RESULTS, because the
 * host's console reaches the runner only as unformatted browser console lines.
 */
import Mocha from 'mocha';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWindowKinds, windowOfSuite } from '../harness/windows';
import * as vscode from 'vscode';

/** test/fixtures/scripted-lm-extension, which run-exthost.ts installs for every run. */
const SCRIPTED_LM_EXTENSION = 'vtcode-test.scripted-lm';

interface TestRecord {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  error?: string;
}

export async function run(): Promise<void> {
  // Its models must be there before the first test asks: VS Code before 1.104 does not activate a
  // model provider when an extension selects models, and the fixture would start only on startup.
  const scripted = vscode.extensions.getExtension(SCRIPTED_LM_EXTENSION);
  if (!scripted) throw new Error(`${SCRIPTED_LM_EXTENSION} is not installed: the vscode.lm tests have no model`);
  await scripted.activate();
  const resultsPath = process.env.VTPLAN_TEST_RESULTS;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (process.env.VTPLAN_TEST_GREP) mocha.grep(process.env.VTPLAN_TEST_GREP);
  // The window this run has open (test/harness/windows.ts); a runner that does not say is the sample folder's.
  const [window] = parseWindowKinds(process.env.VTPLAN_EXTHOST_WINDOW ?? 'folder');
  for (const name of readdirSync(__dirname).sort()) {
    if (windowOfSuite(name) === window) mocha.addFile(join(__dirname, name));
  }
  const records: TestRecord[] = [];
  return new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (resultsPath) {
        writeFileSync(
          resultsPath,
          JSON.stringify(
            { passes: records.filter((r) => r.state === 'passed').length, failures, tests: records },
            null,
            2,
          ),
        );
      }
      if (failures > 0) reject(new Error(`${failures} extension-host tests failed.`));
      else resolve();
    });
    runner.on('pass', (t) => records.push({ title: t.fullTitle(), state: 'passed' }));
    runner.on('fail', (t, err: Error) =>
      records.push({ title: t.fullTitle(), state: 'failed', error: err.stack ?? err.message }),
    );
    // A skipped (pending) test is recorded so that scripts/test.mjs can fail the run on it.
    runner.on('pending', (t) => records.push({ title: t.fullTitle(), state: 'pending' }));
  });
}
