/**
 * Median time per command of everything `run_command` checks before running (the read-only shell
 * policy plus the workspace path rule, checkCommandInWorkspace) over the whole security corpus
 * (mutating + everyday read-only); the path rule alone is printed too. `npx tsx bench/policy.bench.ts`
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCommandInWorkspace, checkCommandPaths } from '../src/core/policy';
import { Calibration } from './lib/calibration';

const dir = join(import.meta.dirname, '..', 'test', 'fixtures', 'security');
const commands = ['mutating.txt', 'readonly.txt'].flatMap((f) =>
  readFileSync(join(dir, f), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(#|$)/.test(line)),
);

const ROOT = '/work/repo';
const BATCHES = 5;
const RUNS_PER_BATCH = 40;

const calibration = new Calibration(0.15);

/** Median over the corpus of each command's fastest batch (filters out scheduler noise on a busy machine). */
function medianMicros(check: (command: string) => unknown): number {
  for (let i = 0; i < 20; i += 1) for (const c of commands) check(c);
  const perCommand = commands.map((c, i) => {
    if (i % 4 === 0) calibration.sample();
    let best = Infinity;
    for (let b = 0; b < BATCHES; b += 1) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < RUNS_PER_BATCH; i += 1) check(c);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / RUNS_PER_BATCH / 1000);
    }
    return best;
  });
  perCommand.sort((a, b) => a - b);
  return perCommand[perCommand.length >> 1] ?? NaN;
}

const total = medianMicros((c) => checkCommandInWorkspace(c, 'plan', ROOT));
const paths = medianMicros((c) => checkCommandPaths(c, ROOT));
console.log(
  `policy checkCommandInWorkspace (read-only policy + workspace paths) median per command (${commands.length} corpus commands): ${total.toFixed(2)} µs (target ≤ 20 µs); workspace paths alone ${paths.toFixed(2)} µs; ${calibration.describe(total / 1000, 20 / 1000)}`,
);
