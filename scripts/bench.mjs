// `npm run bench`: figures, never pass/fail. Prints one line per figure with its target.
//   - minified bundle sizes (production build)
//   - activation time inside the real VS Code extension host (10 fresh launches), beside an empty
//     extension activated in the same hosts
//   - every bench/*.bench.ts (run with tsx)
// `npm run bench -- activation research` runs only the parts named (`activation`, or a bench file
// without `.bench.ts`); the bundle sizes are always printed.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);

if (run(process.execPath, ['scripts/build.mjs', '--production']) !== 0) process.exit(1);
const kb = (f) => (statSync(join(root, 'dist', f)).size / 1024).toFixed(1);
console.log(`bundle dist/extension.js (minified, loaded at activation): ${kb('extension.js')} KB (target ≤ 400 KB)`);
console.log(
  `bundle dist/workbench.js (minified, loaded on first use of a command or view; settings, session host, chat and Tasks models): ${kb('workbench.js')} KB`,
);
console.log(
  `bundle dist/session-runtime.js (minified, loaded on the first chat request; includes the model SDKs): ${kb('session-runtime.js')} KB`,
);
console.log(
  `bundle dist/plan-model.js (minified, loaded when a plan file is first opened; plan validator with markdown-it): ${kb('plan-model.js')} KB`,
);
console.log(`bundle dist/webview.js (minified): ${kb('webview.js')} KB (target ≤ 150 KB)`);
console.log(`bundle dist/webview.css: ${kb('webview.css')} KB`);

// Activation, measured in the real extension host against the production bundle.
if (wanted('activation')) await measureActivation();

async function measureActivation() {
  if (run('bash', ['scripts/harness/setup.sh']) !== 0) process.exit(1);
  const benchOut = join(root, 'out', 'bench', 'exthost');
  rmSync(benchOut, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: Object.fromEntries([
      ['index', join(root, 'test/exthost/index.ts')],
      ...readdirSync(join(root, 'bench/exthost'))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [f.replace(/\.ts$/, ''), join(root, 'bench/exthost', f)]),
    ]),
    outdir: benchOut,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  // Interleaved with an empty extension in the same host (bench/exthost/activation.test.ts): each
  // launch measures both, so the ratio holds however busy the machine is.
  const LAUNCHES = 10;
  const activationDir = mkdtempSync(join(tmpdir(), 'vtp-bench-'));
  const samplesFile = join(activationDir, 'activation.txt');
  // The empty extension once more under another id, activated first in each host and not counted.
  const warmup = join(activationDir, 'warmup-extension');
  cpSync(join(root, 'bench', 'exthost', 'empty-extension'), warmup, { recursive: true });
  const warmupManifest = JSON.parse(readFileSync(join(warmup, 'package.json'), 'utf8'));
  writeFileSync(join(warmup, 'package.json'), JSON.stringify({ ...warmupManifest, name: 'warmup' }));
  for (let i = 0; i < LAUNCHES; i++) {
    const code = run(process.execPath, ['--import', 'tsx', 'test/harness/run-exthost.ts'], {
      VTPLAN_EXTHOST_TESTS: join(benchOut, 'index.js'),
      VTPLAN_EXTHOST_WINDOWS: 'folder',
      VTPLAN_BENCH_OUT: samplesFile,
      VTPLAN_EXTHOST_RESULTS: join(tmpdir(), 'vtp-bench-exthost.json'),
      VTPLAN_EXTRA_EXTENSIONS: [join(root, 'bench', 'exthost', 'empty-extension'), warmup].join(':'),
    });
    if (code !== 0) {
      console.error('activation measurement failed');
      process.exit(1);
    }
  }
  const samples = readFileSync(samplesFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  rmSync(activationDir, { recursive: true, force: true });
  const ours = samples.filter((s) => s.id === 'vtcode.vtcode-planning');
  const empty = samples.filter((s) => s.id === 'vtcode-bench.empty');
  const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(', ');
  const own = ours.map((s) => s.loadMs + s.activateMs);
  console.log(
    `activation in the real extension host, load + activate() (median of ${ours.length}): ${median(own).toFixed(1)} ms (target ≤ 50 ms; samples ${fmt(own)})`,
  );
  console.log(
    `  of which bundle load: ${median(ours.map((s) => s.loadMs)).toFixed(1)} ms, activate(): ${median(ours.map((s) => s.activateMs)).toFixed(1)} ms`,
  );
  const whole = (xs) => xs.map((s) => s.loadMs + s.roundTripMs);
  const [w, e] = [median(whole(ours)), median(whole(empty))];
  console.log(
    `activation incl. VS Code's context setup (load + extension.activate() round trip): ${w.toFixed(1)} ms vs an empty extension ${e.toFixed(1)} ms in the same hosts (${LAUNCHES} launches, both measured in each after a warm-up activation, order alternating): ratio ${(w / e).toFixed(2)}× (target ≤ 1.5×; samples ${fmt(whole(ours))} vs ${fmt(whole(empty))})`,
  );

  const part = (xs, key) => median(xs.map((s) => s[key])).toFixed(1);
  console.log(
    `  round trip: VS Code before activate() ${part(ours, 'beforeMs')} vs ${part(empty, 'beforeMs')} ms; activate() ${part(ours, 'activateMs')} vs ${part(empty, 'activateMs')} ms; activate() returned → caller resumed ${part(ours, 'afterMs')} vs ${part(empty, 'afterMs')} ms (medians, ours vs empty; VS Code's step before, samples ${fmt(ours.map((s) => s.beforeMs))} vs ${fmt(empty.map((s) => s.beforeMs))})`,
  );
}

const benches = existsSync(join(root, 'bench'))
  ? readdirSync(join(root, 'bench'))
      .filter((f) => f.endsWith('.bench.ts') && wanted(f.replace(/\.bench\.ts$/, '')))
      .sort()
  : [];
for (const file of benches) {
  console.log(`\n== ${file}`);
  if (run(process.execPath, ['--import', 'tsx', join('bench', file)]) !== 0) process.exitCode = 1;
}

// The figures above use the production bundles; restore the development build (sourcemaps for
// tests and F5) afterwards.
run(process.execPath, ['scripts/build.mjs']);
