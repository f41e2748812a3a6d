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

const ROUNDS = 200;
for (let i = 0; i < 20; i += 1) for (const c of commands) checkCommand(c, 'plan');

const perCommand: number[] = [];
for (const c of commands) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i += 1) checkCommand(c, 'plan');
  perCommand.push(Number(process.hrtime.bigint() - start) / ROUNDS / 1000);
}
perCommand.sort((a, b) => a - b);
const at = (q: number) => perCommand[Math.min(perCommand.length - 1, Math.floor(q * perCommand.length))] ?? NaN;

console.log(`policy checkCommand median per command (${commands.length} corpus commands): ${at(0.5).toFixed(2)} µs (target ≤ 20 µs)`);
console.log(`policy checkCommand p95 per command: ${at(0.95).toFixed(2)} µs (target ≤ 20 µs)`);
