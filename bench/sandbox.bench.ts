/**
 * What the OS sandbox costs each agent command (RO-1): the median wall time of `true` through the
 * Shell port with bubblewrap, beside the same port without it, interleaved in one run so a busy
 * machine slows both alike. Target: ≤ 30 ms added per command. `npx tsx bench/sandbox.bench.ts`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeShell } from '../src/node/shell';
import type { Shell } from '../src/core/ports';

const SAMPLES = 40;
const root = mkdtempSync(join(tmpdir(), 'vtplan-bench-sandbox-'));
const sandboxed = createNodeShell();
const bare = createNodeShell({ bwrap: null });

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
};

async function once(shell: Shell, mode: 'plan' | 'auto'): Promise<number> {
  const start = process.hrtime.bigint();
  const r = await shell.run({
    command: 'true',
    cwd: root,
    root,
    mode,
    network: false,
    timeoutMs: 10_000,
    maxOutputBytes: 1024,
  });
  if (r.exitCode !== 0) throw new Error(`bench command failed: ${r.stderr.text}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main(): Promise<void> {
  const iso = await sandboxed.isolation();
  if (!iso.sandboxed) {
    console.log(`sandbox start-up: not measured (${iso.summary})`);
  } else {
    const times = { plan: [] as number[], auto: [] as number[], bare: [] as number[] };
    for (let i = 0; i < 3; i += 1) await Promise.all([once(sandboxed, 'plan'), once(bare, 'plan')]);
    for (let i = 0; i < SAMPLES; i += 1) {
      times.bare.push(await once(bare, 'plan'));
      times.plan.push(await once(sandboxed, 'plan'));
      times.auto.push(await once(sandboxed, 'auto'));
    }
    const [b, p, a] = [median(times.bare), median(times.plan), median(times.auto)];
    console.log(
      `sandbox start-up per command, median of ${SAMPLES}: plan ${p.toFixed(1)} ms, auto ${a.toFixed(1)} ms; bare spawn (no sandbox, same port) ${b.toFixed(1)} ms; added ${(p - b).toFixed(1)} ms (target ≤ 30 ms), ratio ${(p / b).toFixed(2)}×`,
    );
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
