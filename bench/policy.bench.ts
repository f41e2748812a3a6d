/**
 * Median time of the read-only shell policy per command over the whole security corpus
 * (mutating + everyday read-only). `npx tsx bench/policy.bench.ts`
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCommand } from '../src/core/policy';

const dir = join(import.meta.dirname, '..', 'test', 'fixtures', 'security');
const commands = ['mutating.txt', 'readonly.txt'].flatMap((f) =>
  readFileSync(join(dir, f), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(#|$)/.test(line)),
);

const BATCHES = 5;
const RUNS_PER_BATCH = 40;
for (let i = 0; i < 20; i += 1) for (const c of commands) checkCommand(c, 'plan');

// Per command: the fastest of a few batches, which filters out scheduler noise on a busy machine.
const perCommand = commands.map((c) => {
  let best = Infinity;
  for (let b = 0; b < BATCHES; b += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < RUNS_PER_BATCH; i += 1) checkCommand(c, 'plan');
    best = Math.min(best, Number(process.hrtime.bigint() - start) / RUNS_PER_BATCH / 1000);
  }
  return best;
});
perCommand.sort((a, b) => a - b);
const median = perCommand[perCommand.length >> 1] ?? NaN;

console.log(`policy checkCommand median per command (${commands.length} corpus commands): ${median.toFixed(2)} µs (target ≤ 20 µs)`);
