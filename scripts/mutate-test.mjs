// The tap runner's entry for one test file (stryker.config.mjs): `node scripts/mutate-test.mjs
// test/unit/x/y.test.ts` runs the bundle scripts/mutate-bundle.mjs made of it. Stryker keeps
// naming the test by its .ts file, so its incremental mode diffs the real test source.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const testFile = process.argv[2];
if (!testFile?.endsWith('.test.ts')) throw new Error(`expected a *.test.ts file, got '${testFile ?? ''}'`);
await import(pathToFileURL(resolve(testFile.replace(/\.ts$/, '.mutate.mjs'))).href);
