// Bundles the extension host, the CLI, the webview and the extension-host tests with esbuild.
//   node scripts/build.mjs                 development build (sourcemaps) + tests
//   node scripts/build.mjs --production    minified, no sourcemaps, no tests (what `npm run package` ships)
//   node scripts/build.mjs --watch         rebuild on change
import * as esbuild from 'esbuild';
import { readdirSync, statSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastNamedExports } from '../webview/build/fast-named-exports.mjs';
import { toolkitDeadCode } from '../webview/build/toolkit-dead-code.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

function filesUnder(dir, pattern) {
  const out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, pattern));
    else if (pattern.test(name)) out.push(p);
  }
  return out;
}

// zod's classic API re-exports every locale (~260 KB minified); we only ever show English
// messages, so the locale index resolves to English alone.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: root,
    }));
  },
};

const common = {
  plugins: [zodEnglishOnly],
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  legalComments: 'none',
};

// Every Node bundle (extension host, CLI, extension-host tests) is CommonJS for Node 20.
function nodeBundle(entryPoints, options) {
  return { ...common, entryPoints, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20', ...options };
}

const builds = [
  // Activation evaluates only the registration shells (src/extension/lazy-workbench.ts,
  // lm-tools.ts); the workbench behind them (settings, session host, chat and Tasks models, zod)
  // is its own file, required on first use. So are the plan model (validator and canonical
  // writer with markdown-it), required when a plan file is first opened, and the planning gates,
  // required on the first language model tool call.
  nodeBundle(
    { extension: 'src/extension/main.ts' },
    { external: ['vscode', './workbench.js', './plan-model.js', './gate-tools.js'] },
  ),
  nodeBundle({ 'gate-tools': 'src/extension/gate-tools.ts' }, { external: ['vscode'] }),
  // The session machinery (provider SDKs, tools, runloop) is its own file, required on the
  // first chat request: the workbench then parses ~100 KB instead of ~1 MB.
  nodeBundle(
    { workbench: 'src/extension/workbench.ts' },
    { external: ['vscode', './session-runtime.js', './plan-model.js'] },
  ),
  nodeBundle({ 'plan-model': 'src/extension/plan-model.ts' }, { external: ['vscode'] }),
  nodeBundle({ 'session-runtime': 'src/extension/session-runtime.ts' }, { external: ['vscode'] }),
  nodeBundle({ cli: 'src/cli/main.ts' }, { banner: { js: '#!/usr/bin/env node' } }),
  {
    ...common,
    entryPoints: { webview: 'webview/src/main.tsx' },
    plugins: [zodEnglishOnly, fastNamedExports, toolkitDeadCode],
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.css': 'css', '.ttf': 'file', '.woff2': 'file' },
  },
];

if (!production) {
  const testEntries = filesUnder(join(root, 'test/exthost'), /\.ts$/).map((f) => relative(root, f));
  if (testEntries.length > 0) {
    builds.push(
      nodeBundle(testEntries, { outbase: 'test/exthost', outdir: 'out/test/exthost', external: ['vscode', 'mocha'] }),
    );
  }
}

// Files are replaced in place (never a missing dist/ while something loads it); a production
// build only drops the development sourcemaps.
if (production) {
  for (const name of filesUnder(join(root, 'dist'), /\.map$/)) rmSync(name, { force: true });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] build started; watching for changes');
} else {
  const t0 = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`built ${production ? 'production' : 'development'} bundles in ${Date.now() - t0} ms`);
}
