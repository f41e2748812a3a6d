// Stryker's buildCommand (stryker.config.mjs), run inside its sandbox once the source is mutated:
// bundles each test file of test/unit/<folder> with the code it imports into `<name>.mutate.mjs`
// beside it, so that a mutant's test run starts plain node instead of tsx transpiling every module
// again (3-10× faster per test file here). npm packages stay imports.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const folder = process.argv[2];
if (!folder) throw new Error('usage: node scripts/mutate-bundle.mjs <folder of test/unit>');
const dir = join('test', 'unit', folder);
const entryPoints = readdirSync(dir)
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join(dir, name));
if (entryPoints.length === 0) throw new Error(`no *.test.ts in ${dir}`);
/**
 * CommonJS's `__dirname`/`__filename` (tsx provides them) for every bundled module that reads
 * them, each its own module's: one value for the whole bundle would send src/node/prompts.ts
 * looking for prompts/ next to the test file instead of next to the sources.
 */
const moduleDirname = {
  name: 'module-dirname',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!/\b__(?:dirname|filename)\b/.test(source)) return undefined;
      const header = `const __filename = ${JSON.stringify(args.path)}; const __dirname = ${JSON.stringify(dirname(args.path))};`;
      // Same line: the module's own line numbers stay as they are in stack traces.
      return { contents: `${header} ${source}`, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

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
  plugins: [moduleDirname],
});
