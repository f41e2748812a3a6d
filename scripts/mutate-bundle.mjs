// Stryker's buildCommand (stryker.config.mjs), run inside its sandbox once the source is mutated:
// bundles each test file of test/unit/<folder> with the code it imports into `<name>.mutate.mjs`
// beside it, so that a mutant's test run starts plain node instead of tsx transpiling every module
// again (3-10× faster per test file here). npm packages stay imports.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const folder = process.argv[2];
if (!folder) throw new Error('usage: node scripts/mutate-bundle.mjs <folder of test/unit>');
const dir = join('test', 'unit', folder);
const entryPoints = readdirSync(dir)
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join(dir, name));
if (entryPoints.length === 0) throw new Error(`no *.test.ts in ${dir}`);
await build({
  entryPoints,
  outdir: dir,
  outExtension: { '.js': '.mutate.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
  // Some suites read CommonJS's __dirname (tsx provides it); the bundle sits in the suite's folder.
  banner: {
    js: [
      "import { dirname as __bundleDirname } from 'node:path';",
      "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
      'const __filename = __bundleFileURLToPath(import.meta.url);',
      'const __dirname = __bundleDirname(__filename);',
    ].join('\n'),
  },
});
