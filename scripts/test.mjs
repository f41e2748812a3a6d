// `npm test`: every tier, one closing summary line.
//   static   the type check (tsc, strict), ESLint (incl. the no-vscode-in-core and no-.only rules),
//            Prettier's check, knip (unused files, exports, dependencies: knip.jsonc) and every cited
//            requirement id explained in docs/requirements.md, one check each
//   unit     node:test over test/unit and test/webview (TypeScript through tsx)
//   exthost  mocha inside the real VS Code extension host (test/harness/run-exthost.ts), twice: on
//            VS Code 1.139 and on the oldest version engines.vscode claims (setup.sh installs both)
//   e2e      Playwright + Chromium against the real workbench (test/e2e/*.e2e.ts)
// `node scripts/test.mjs unit` (or exthost, e2e) runs a subset. Exit code non-zero when any tier fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'test-results');
const allTiers = ['static', 'unit', 'exthost', 'e2e'];
const requested = process.argv.slice(2);
for (const t of requested) {
  if (!allTiers.includes(t)) {
    console.error(`unknown tier '${t}'; use one or more of: ${allTiers.join(', ')}`);
    process.exit(2);
  }
}
const tiers = requested.length > 0 ? requested : allTiers;

function filesUnder(dir, pattern) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? filesUnder(p, pattern) : pattern.test(name) ? [p] : [];
    })
    .sort();
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  return r.status ?? 1;
}

/**
 * Counts from a node:test TAP file (`# pass N`, `# fail N`, cancelled counts as failed).
 * A skipped or todo test fails the run: the suite never skips (a skip would otherwise pass unnoticed).
 */
function tapCounts(file) {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const n = (key) => Number((new RegExp(`^# ${key} (\\d+)$`, 'm').exec(text) ?? [0, 0])[1]);
  return { passed: n('pass'), failed: n('fail') + n('cancelled'), skipped: n('skipped') + n('todo') };
}

/**
 * The exthost tier on each VS Code we support: the newest tested (the harness default) and the
 * oldest, engines.vscode's `^1.N.0`, from .cache/cs-min (the activation test checks the version).
 */
function exthostRuns() {
  const cache = process.env.VTPLAN_CACHE ?? join(root, '.cache');
  const engine = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.vscode;
  const floor = /^\^(1\.\d+)\.0$/.exec(engine)?.[1];
  if (!floor)
    throw new Error(`engines.vscode is '${engine}': expected ^1.N.0, the oldest VS Code the exthost tier runs on`);
  return [
    { tier: 'exthost', results: 'exthost.json', env: {} },
    {
      tier: `exthost ${floor}`,
      results: `exthost-${floor}.json`,
      env: {
        VTPLAN_EXPECT_VSCODE: floor,
        VTPLAN_VSCODE_NODE: join(cache, 'node20', 'bin', 'node'),
        VTPLAN_VSCODE_SERVER: join(
          cache,
          'cs-min',
          'node_modules',
          'code-server',
          'lib',
          'vscode',
          'out',
          'server-main.js',
        ),
      },
    },
  ];
}

function exthostTier({ results: name, env }) {
  const file = join(results, name);
  rmSync(file, { force: true });
  const code = run(process.execPath, ['--import', 'tsx', 'test/harness/run-exthost.ts'], {
    env: { ...process.env, ...env, VTPLAN_EXTHOST_RESULTS: file },
  });
  const data = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { passes: 0, failures: 1 };
  const skipped = (data.tests ?? []).filter((t) => t.state === 'pending').length;
  return { passed: data.passes, failed: data.failures, skipped, code };
}

function nodeTestTier(name, files, extraArgs = []) {
  const tap = join(results, `${name}.tap`);
  rmSync(tap, { force: true });
  if (files.length === 0) return { passed: 0, failed: 0, skipped: 0, code: 0 };
  const code = run(process.execPath, [
    '--import',
    'tsx',
    '--test',
    ...extraArgs,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files.map((f) => relative(root, f)),
  ]);
  return { ...(tapCounts(tap) ?? { passed: 0, failed: 1, skipped: 0 }), code };
}

ensureDependencies(root);
mkdirSync(results, { recursive: true });
const summary = [];
const t0 = Date.now();

console.log('== build');
if (run(process.execPath, ['scripts/build.mjs']) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

if (tiers.some((t) => t === 'exthost' || t === 'e2e')) {
  console.log('== real VS Code: installing what is missing into .cache/ (first run takes a few minutes)');
  if (run('bash', ['scripts/harness/setup.sh']) !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

function runTier(tier) {
  if (tier === 'static') {
    const bin = (name) => join(root, 'node_modules', '.bin', name);
    const checks = [
      run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
      run(bin('eslint'), ['.']),
      run(bin('prettier'), ['--check', '--log-level', 'warn', '.']),
      run(bin('knip'), ['--no-progress']),
      run(process.execPath, ['scripts/check-requirement-ids.mjs']),
    ];
    return { passed: checks.filter((c) => c === 0).length, failed: checks.filter((c) => c !== 0).length, code: 0 };
  }
  if (tier === 'unit') {
    // A test that waits for an event a regression never sends (a stream that hangs until stopped)
    // then fails after two minutes instead of holding the whole run until CI's limit.
    return nodeTestTier(
      'unit',
      [
        ...filesUnder(join(root, 'test/unit'), /\.test\.tsx?$/),
        ...filesUnder(join(root, 'test/webview'), /\.test\.tsx?$/),
      ],
      ['--test-timeout=120000'],
    );
  }
  return nodeTestTier('e2e', filesUnder(join(root, 'test/e2e'), /\.e2e\.ts$/), ['--test-concurrency=1']);
}

for (const tier of tiers) {
  const runs =
    tier === 'exthost'
      ? exthostRuns().map((e) => ({ name: e.tier, go: () => exthostTier(e) }))
      : [{ name: tier, go: () => runTier(tier) }];
  for (const { name, go } of runs) {
    console.log(`\n== ${name}`);
    const r = go();
    // A tier whose process failed without reporting a failing test still fails the run.
    if (r.code !== 0 && r.failed === 0) r.failed = 1;
    summary.push({ tier: name, skipped: 0, ...r });
  }
}

console.log('\n== summary');
for (const s of summary)
  console.log(`${s.tier.padEnd(12)} ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
const passed = summary.reduce((a, s) => a + s.passed, 0);
const failed = summary.reduce((a, s) => a + s.failed, 0);
const skipped = summary.reduce((a, s) => a + s.skipped, 0);
console.log(`(${((Date.now() - t0) / 1000).toFixed(0)} s)`);
// The suite never skips: a skipped or todo test fails the run (exit code 1) and shows in the
// closing line, so it cannot pass unnoticed.
if (skipped > 0) console.log(`${skipped} skipped or todo: the suite never skips, so the run fails`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 && skipped === 0 ? 0 : 1);
