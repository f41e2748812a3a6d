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

interface TestRecord {
  title: string;
  state: 'passed' | 'failed';
  error?: string;
}

export function run(): Promise<void> {
  const resultsPath = process.env.VTPLAN_TEST_RESULTS;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (process.env.VTPLAN_TEST_GREP) mocha.grep(process.env.VTPLAN_TEST_GREP);
  // The window this run has open (test/harness/windows.ts); a runner that does not say is the sample folder's.
  const [window] = parseWindowKinds(process.env.VTPLAN_EXTHOST_WINDOW ?? 'folder');
  for (const name of readdirSync(__dirname).sort()) {
    if (windowOfSuite(name) === window) mocha.addFile(join(__dirname, name));
  }
  const records: TestRecord[] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (resultsPath) {
        writeFileSync(resultsPath, JSON.stringify({ passes: records.filter((r) => r.state === 'passed').length, failures, tests: records }, null, 2));
      }
      if (failures > 0) reject(new Error(`${failures} extension-host tests failed.`));
      else resolve();
    });
    runner.on('pass', (t) => records.push({ title: t.fullTitle(), state: 'passed' }));
    runner.on('fail', (t, err: Error) => records.push({ title: t.fullTitle(), state: 'failed', error: err.stack ?? err.message }));
  });
}
