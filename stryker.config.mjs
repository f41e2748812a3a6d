// StrykerJS over one folder of src/core at a time (issue 19 item 1). `npm run mutate [folder…]`
// (scripts/mutate.mjs) sets VTPLAN_MUTATE to the folder; docs/testing.md has the numbers.
//
// The tap runner starts one node per test file, so its "tests" are files; with perTest coverage a
// mutant reruns only the files of its folder that executed it. The test files run as bundles made
// in the sandbox (scripts/mutate-bundle.mjs): starting tsx for every file and mutant cost more
// than most tests themselves.
const folders = {
  // break: the measured score rounded down (docs/testing.md; policy one lower for its timeouts).
  store: { break: 95 },
  tracker: { break: 91 },
  plan: { break: 95 },
  policy: { break: 95 },
  session: { break: 86 },
};

const folder = process.env.VTPLAN_MUTATE;
if (!folder || !(folder in folders)) {
  throw new Error(
    `VTPLAN_MUTATE is '${folder ?? ''}': expected one of ${Object.keys(folders).join(', ')} (use npm run mutate)`,
  );
}

export default {
  mutate: [`src/core/${folder}/**/*.ts`],
  testRunner: 'tap',
  tap: {
    testFiles: [`test/unit/${folder}/**/*.test.ts`],
    // Without --test the file runs in this process, where Stryker's hook collects the coverage.
    // --test-timeout (honoured here from Node 22 on; mutate.mjs runs Node 24): a mutant that makes a
    // test wait forever fails that test after 30 s, instead of holding a runner for Stryker's own
    // timeout (about 2 min for session.ts, whose mutants every session test file covers).
    nodeArgs: [
      '--test-reporter=tap',
      '--test-timeout=30000',
      '-r',
      '{{hookFile}}',
      'scripts/mutate-test.mjs',
      '{{testFile}}',
    ],
    forceBail: true,
  },
  buildCommand: `node scripts/mutate-bundle.mjs ${folder}`,
  checkers: ['typescript'],
  tsconfigFile: `test/mutation/tsconfig.${folder}.json`,
  coverageAnalysis: 'perTest',
  // The machine is shared; see docs/testing.md for run times at this concurrency.
  concurrency: 2,
  // Above the tests' own 30 s --test-timeout, so that a test that waits forever fails (killed) before
  // Stryker gives up on it, and so that a loaded machine does not turn slow runs into timeouts: at
  // 15000 and load 15-34, policy's first group recorded 173 timeouts in 1261 mutants; at 45000,
  // paths.ts recorded 9 in 974 (docs/testing.md, Time).
  timeoutMS: 45000,
  incremental: true,
  // Committed: a clean checkout reruns only the mutants whose code or tests changed (docs/testing.md).
  incrementalFile: `test/mutation/${folder}.incremental.json`,
  thresholds: { high: 90, low: 75, break: folders[folder].break },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${folder}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${folder}/report.json` },
  tempDirName: '.stryker-tmp',
  // Only what the unit tests read goes into the sandbox (.cache alone holds whole VS Code installs).
  ignorePatterns: [
    '/.cache',
    '/dist',
    '/out',
    '/test-results',
    '/reports',
    '/docs',
    '/media',
    '/bench',
    '/webview',
    '/test/e2e',
    '/test/exthost',
    // Another Stryker run's sandbox (two folders mutated at once in one checkout).
    '/.stryker-tmp',
    '*.vsix',
  ],
};
