// `npm run mutate [folder…] [-- stryker options]`: mutation testing (StrykerJS, stryker.config.mjs)
// over src/core/<folder>, one Stryker run per folder so that a folder's mutants only meet the tests
// of test/unit/<folder>. No folder: all five, smallest first. Options after the folders go to
// Stryker as they are, e.g. `npm run mutate -- plan --force` for a full (non-incremental) run, or
// `npm run mutate -- plan --mutate src/core/plan/diff.ts` for one file (the other files' results in
// the incremental file are kept).
// Exit code non-zero when a folder's score is under its break threshold or a run fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The tap runner starts `node` from PATH once per test file and mutant, so start-up is most of a
// mutant's cost. Node 24 (installed into .cache by the test harness's set-up) keeps compiled code
// in NODE_COMPILE_CACHE across those starts: session's dry run took 14 s instead of 22 s here.
const node24 = join(root, '.cache', 'node24', 'bin');
const env = {
  ...process.env,
  PATH: existsSync(join(node24, 'node')) ? `${node24}${delimiter}${process.env.PATH ?? ''}` : process.env.PATH,
  NODE_COMPILE_CACHE: join(root, '.stryker-tmp', 'compile-cache'),
};
const allFolders = ['store', 'tracker', 'plan', 'policy', 'session'];
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const folders = firstOption === -1 ? args : args.slice(0, firstOption);
const strykerOptions = firstOption === -1 ? [] : args.slice(firstOption);
for (const f of folders) {
  if (!allFolders.includes(f)) {
    console.error(`unknown folder '${f}'; use one or more of: ${allFolders.join(', ')}`);
    process.exit(2);
  }
}

const outcomes = [];
for (const folder of folders.length > 0 ? folders : allFolders) {
  console.log(`== mutate src/core/${folder}`);
  const started = Date.now();
  const r = spawnSync(
    'node',
    ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'stryker.config.mjs', ...strykerOptions],
    { cwd: root, stdio: 'inherit', env: { ...env, VTPLAN_MUTATE: folder } },
  );
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  outcomes.push(`${folder}: ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${minutes} min`);
}
console.log(`== mutate: ${outcomes.join('; ')} (reports in reports/mutation/<folder>/index.html)`);
process.exit(outcomes.some((o) => o.includes('FAILED')) ? 1 : 0);
