/**
 * Research tools at repository scale (issue 16 item 2): `grep`, `find_files` and `list_dir`
 * through the tool runtime on a generated 100,000-file repository (bench/lib/generated-repo.ts),
 * each beside raw ripgrep doing the same job on the same tree in the same run, interleaved, so a
 * busy machine slows both alike and the ratio stays meaningful.
 *   - "ripgrep" is the tools as the extension runs them (VS Code's bundled rg) and as the CLI does
 *     with `rg` on PATH: one code path, the same binary here.
 *   - "JS fallback" is the CLI without `rg` on PATH.
 *   - Raw rg: the same search typed at a shell (parallel, unsorted, stopped after as many results
 *     as the tool returns, as `| head -n N` would; a stopped run counts until its kill is sent,
 *     as the tool's does, not until the kernel has torn rg down).
 * Also: the bench process's peak RSS (the tools run in it; rg and the generator are child processes), how long a
 * running search takes to end after its stop signal fires, and when the killed rg is gone.
 * BENCH_SCALE=0.1 shrinks the tree to 10,000 files for a quick run.
 * Run: npx tsx bench/research.bench.ts
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Search } from '../src/core/ports';
import type { ToolOutcome } from '../src/core/session/tool-runtime';
import { createToolRuntime } from '../src/core/tools';
import { LIST_DIR_MAX_ENTRIES } from '../src/core/tools/list-dir';
import { nodeFileSystem } from '../src/node/fs';
import { createNodeSearch, jsSearch, locateRipgrep } from '../src/node/search';
import { nodeShell } from '../src/node/shell';
import { nodeWriter } from '../src/node/writer';
import { COMMON_WORD, generateRepo, RARE_NEEDLE, type GeneratedRepo } from './lib/generated-repo';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
if (!(SCALE > 0 && SCALE <= 1)) throw new Error(`BENCH_SCALE must be in (0, 1], not ${process.env.BENCH_SCALE}`);
const FILES = Math.round(100_000 * SCALE);
const RUNS = 5;
/** Searches whose raw run takes under QUICK_MS get QUICK_RUNS interleaved pairs instead of RUNS. */
const QUICK_MS = 50;
const QUICK_RUNS = 15;
const FALLBACK_RUNS = 3;
/** Plan mode's per-result preview for inspection tools (PLAN_INSPECTION_DEFAULT). */
const PREVIEW_BYTES = 8 * 1024;
const TARGET_RATIO = 1.3;
const APP_ROOT = resolve(__dirname, '..', '.cache/cs/node_modules/code-server/lib/vscode');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;

interface RawRun {
  ms: number;
  lines: number;
}

/**
 * Raw rg as a user would run it: its own output, parallel, killed after `limit` lines like `| head`.
 * A stopped run counts until its last wanted line arrived and the kill was sent, as the tool's
 * does; a complete run until rg closed its output.
 */
function rawRg(rg: string, args: string[], cwd: string, limit = Infinity): Promise<RawRun> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    let stopped = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      for (let i = chunk.indexOf(10); i !== -1 && lines < limit; i = chunk.indexOf(10, i + 1)) lines += 1;
      if (lines >= limit) {
        stopped = true;
        child.stdout.destroy();
        child.kill('SIGKILL');
        done({ ms: performance.now() - t0, lines: limit });
      }
    });
    child.on('error', fail);
    child.on('close', () => {
      if (!stopped) done({ ms: performance.now() - t0, lines });
    });
  });
}

interface Case {
  label: string;
  tool: 'grep' | 'find_files' | 'list_dir';
  args: Record<string, unknown>;
  /** Raw ripgrep doing the same job; `limit` = lines after which it is stopped. */
  raw: { args: string[]; limit?: number };
  /** What a correct result shows, checked before any time is believed. */
  check(content: string): string | null;
}

const SKIP = ['--hidden', '--no-require-git', '-g', '!.git', '-g', '!node_modules', '-g', '!.vtcode'];

function cases(repo: GeneratedRepo): Case[] {
  const countLines = (content: string, re: RegExp): number => content.split('\n').filter((l) => re.test(l)).length;
  return [
    {
      label: `grep a rare identifier over the whole tree (${repo.needleFiles} matches: every file is read)`,
      tool: 'grep',
      args: { pattern: RARE_NEEDLE },
      raw: { args: [...SKIP, RARE_NEEDLE, '.'] },
      check: (c) =>
        countLines(c, new RegExp(`:\\d+: .*${RARE_NEEDLE}`)) === repo.needleFiles
          ? null
          : `expected ${repo.needleFiles} matches:\n${c.slice(0, 2000)}`,
    },
    {
      label: 'grep a word on every line (stops at the 100-match cap)',
      tool: 'grep',
      args: { pattern: `${COMMON_WORD} \\w+_\\w+` },
      raw: { args: [...SKIP, `${COMMON_WORD} \\w+_\\w+`, '.'], limit: 100 },
      check: (c) => (/stopped at 100 matches/.test(c) ? null : `no truncation notice:\n${c.slice(-500)}`),
    },
    {
      label: 'grep a rare identifier in *.ts files only (glob)',
      tool: 'grep',
      args: { pattern: RARE_NEEDLE, glob: '*.ts' },
      raw: { args: [...SKIP, '--type-add', 'x:*.ts', '-t', 'x', RARE_NEEDLE, '.'] },
      check: (c) =>
        c.includes(`${RARE_NEEDLE}`) && !/\.(js|md|py|rs|json):\d+:/.test(c)
          ? null
          : `unexpected result:\n${c.slice(0, 1000)}`,
    },
    {
      label: 'find_files *.ts (stops at the 200-path cap)',
      tool: 'find_files',
      args: { glob: '*.ts' },
      raw: { args: ['--files', ...SKIP, '--type-add', 'x:*.ts', '-t', 'x', '.'], limit: 200 },
      check: (c) => (/stopped at 200 paths/.test(c) ? null : `no truncation notice:\n${c.slice(-500)}`),
    },
    {
      label: 'find_files data_*.ts (4 hits: the whole tree is walked)',
      tool: 'find_files',
      args: { glob: 'data_*.ts' },
      raw: { args: ['--files', ...SKIP, '--type-add', 'x:data_*.ts', '-t', 'x', '.'] },
      check: (c) => (c.split('\n').length === 4 ? null : `expected 4 paths:\n${c}`),
    },
    {
      label: 'list_dir . depth 3',
      tool: 'list_dir',
      args: { path: '.', depth: 3 },
      raw: { args: ['--files', '--no-ignore', '--hidden', '--max-depth', '3', '.'], limit: 500 },
      check: (c) => (c.startsWith('./\n') ? null : `unexpected listing:\n${c.slice(0, 500)}`),
    },
    {
      label: `list_dir of a folder with ${repo.wideEntries} files`,
      tool: 'list_dir',
      args: { path: repo.wideDir },
      raw: { args: ['--files', '--no-ignore', '--max-depth', '1', repo.wideDir] },
      check: (c) =>
        repo.wideEntries <= LIST_DIR_MAX_ENTRIES ||
        c.includes(`at least ${repo.wideEntries - LIST_DIR_MAX_ENTRIES} more entries not listed`)
          ? null
          : `no truncation notice:\n${c.slice(-500)}`,
    },
  ];
}

function runtimeFor(
  root: string,
  search: Search,
): (name: string, args: unknown, signal?: AbortSignal) => Promise<ToolOutcome> {
  const runtime = createToolRuntime({
    root,
    ports: { fs: nodeFileSystem, shell: nodeShell, search, writer: nodeWriter },
  });
  return (name, args, signal = new AbortController().signal) =>
    runtime.execute(name, args, {
      agent: 'plan',
      signal,
      previewLimit: PREVIEW_BYTES,
      commands: { timeoutMs: 10_000, network: 'default' },
    });
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time of this process and of its children that have exited (rg), in ms. */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  if (existsSync('/proc/self/stat')) {
    // Fields after the parenthesised command name: ... utime stime cutime cstime (14-17).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    children = (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  }
  return (own.user + own.system) / 1000 + children;
}

interface Sample {
  ms: number;
  cpu: number;
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; cpu: number; value: T }> {
  const c0 = cpuMs();
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, cpu: cpuMs() - c0, value };
}

function contentOf(outcome: ToolOutcome): string {
  if (outcome.kind !== 'result') throw new Error(`unexpected outcome ${outcome.kind}`);
  if (!outcome.ok) throw new Error(`tool failed: ${outcome.content}`);
  return outcome.content;
}

/** ripgrep processes this process started that are still alive (Linux /proc). */
function rgChildren(): number[] {
  const tasks = `/proc/${process.pid}/task`;
  if (!existsSync(tasks)) return [];
  const pids = readdirSync(tasks).flatMap((t) =>
    readFileSync(join(tasks, t, 'children'), 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean),
  );
  return pids
    .filter((pid) => existsSync(`/proc/${pid}/comm`) && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'rg')
    .map(Number);
}

/**
 * Starts a whole-tree grep, fires its stop signal `afterMs` later, and times from when the signal
 * was due to the tool's result: a search that holds the event loop delays the signal itself.
 */
async function cancellation(
  run: ReturnType<typeof runtimeFor>,
  afterMs: number,
): Promise<{ ms: number; finishedFirst: boolean; goneMs: number; leftChildren: number }> {
  const controller = new AbortController();
  const dueAt = performance.now() + afterMs;
  const timer = setTimeout(() => controller.abort(), afterMs);
  const outcome = await run('grep', { pattern: RARE_NEEDLE }, controller.signal);
  const endedAt = performance.now();
  clearTimeout(timer);
  if (outcome.kind !== 'result') throw new Error(`a cancelled grep came back ${JSON.stringify(outcome).slice(0, 300)}`);
  // The search settles once rg has its SIGKILL; the kernel ends it and Node reaps it soon after.
  let left = rgChildren().length;
  while (left > 0 && performance.now() - endedAt < 2000) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    left = rgChildren().length;
  }
  const goneMs = performance.now() - endedAt;
  // The search can end on its own before the signal or between the signal and its next check.
  if (!controller.signal.aborted || outcome.ok) return { ms: NaN, finishedFirst: true, goneMs, leftChildren: left };
  if (!outcome.content.includes('cancelled')) throw new Error(`a cancelled grep failed otherwise: ${outcome.content}`);
  return { ms: endedAt - dueAt, finishedFirst: false, goneMs, leftChildren: left };
}

/**
 * The tree is written by a child process running this file: the generator's megabytes of strings
 * are not the tools' memory, so the bench process's peak RSS stays the figure of the process
 * running the tools.
 */
function generateInChild(root: string): GeneratedRepo {
  const r = spawnSync(process.execPath, [...process.execArgv, __filename], {
    env: { ...process.env, VTPLAN_BENCH_GENERATE_INTO: root },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`generating the repository failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(r.stdout) as GeneratedRepo;
}

const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

async function main(): Promise<void> {
  const rg = await locateRipgrep(APP_ROOT);
  if (rg === undefined)
    throw new Error(`VS Code's ripgrep was not found below ${APP_ROOT}: run scripts/harness/setup.sh`);
  const base = mkdtempSync(join(tmpdir(), 'vtp-bench-research-'));
  try {
    const t0 = performance.now();
    const repo = generateInChild(join(base, 'repo'));
    console.log(
      `generated repository: ${repo.files} files (${(repo.bytes / 1024 / 1024).toFixed(0)} MB; ${repo.hidden} hidden by .gitignore or always skipped, ${repo.binaries} binary, 5 large) in ${((performance.now() - t0) / 1000).toFixed(1)} s${SCALE < 1 ? ` (BENCH_SCALE=${SCALE})` : ''}`,
    );
    const withRg = runtimeFor(repo.root, createNodeSearch({ rgPath: rg }));
    const withJs = runtimeFor(repo.root, jsSearch);
    const all = cases(repo);
    const floorMb = peakRssMb();
    // Warm the page cache and both paths once.
    await rawRg(rg, ['--files', '--no-ignore', '--hidden', '.'], repo.root);
    for (const c of all) {
      for (const [name, run] of [
        ['ripgrep', withRg],
        ['JS fallback', withJs],
      ] as const) {
        const problem = c.check(contentOf(await run(c.tool, c.args)));
        if (problem !== null) throw new Error(`${c.tool} ${JSON.stringify(c.args)} (${name}) is wrong: ${problem}`);
      }
    }
    console.log(
      `peak RSS of the bench process after warm-up: ${peakRssMb().toFixed(0)} MB (${floorMb.toFixed(0)} MB before the first search)`,
    );

    for (const c of all) {
      const tool: Sample[] = [];
      const raw: Sample[] = [];
      // A search of a few ms is at the mercy of one scheduling hiccup: more pairs steady its median.
      const first = await timed(() => rawRg(rg, c.raw.args, repo.root, c.raw.limit));
      const pairs = first.ms < QUICK_MS ? QUICK_RUNS : RUNS;
      raw.push(first);
      tool.push(await timed(() => withRg(c.tool, c.args)));
      for (let i = 1; i < pairs; i++) {
        raw.push(await timed(() => rawRg(rg, c.raw.args, repo.root, c.raw.limit)));
        tool.push(await timed(() => withRg(c.tool, c.args)));
      }
      const fallback: Sample[] = [];
      for (let i = 0; i < FALLBACK_RUNS; i++) fallback.push(await timed(() => withJs(c.tool, c.args)));
      const [t, r, f] = [tool, raw, fallback].map((xs) => median(xs.map((x) => x.ms))) as [number, number, number];
      // CPU time summed over the runs: the tick of children's CPU time is 10 ms.
      const [tc, rc, fc] = [tool, raw, fallback].map((xs) => xs.reduce((sum, x) => sum + x.cpu, 0) / xs.length) as [
        number,
        number,
        number,
      ];
      console.log(`${c.label}:`);
      console.log(
        `  tool with ripgrep ${fmt(t)} ms vs raw rg ${fmt(r)} ms in the same run: ratio ${(t / r).toFixed(2)}× (target ≤ ${TARGET_RATIO}×; median of ${pairs}, interleaved)`,
      );
      console.log(
        `    CPU time (this process + rg): tool ${fmt(tc)} ms vs raw rg ${fmt(rc)} ms: ratio ${(tc / rc).toFixed(2)}× (mean of ${pairs})`,
      );
      console.log(
        `  tool with the JS fallback (CLI without rg on PATH) ${fmt(f)} ms: ratio ${(f / r).toFixed(2)}× raw rg (median of ${FALLBACK_RUNS}); CPU ${fmt(fc)} ms, ratio ${(fc / rc).toFixed(2)}×; peak RSS so far ${peakRssMb().toFixed(0)} MB`,
      );
    }

    // Cancellation: stop a whole-tree grep part-way; time from the stop signal to the tool's result.
    for (const [name, run, full] of [
      ['ripgrep', withRg, 'rg'],
      ['JS fallback', withJs, 'js'],
    ] as const) {
      const uncancelled: number[] = [];
      for (let i = 0; i < 3; i++) uncancelled.push((await timed(() => run('grep', { pattern: RARE_NEEDLE }))).ms);
      const whole = median(uncancelled);
      const samples: number[] = [];
      const gone: number[] = [];
      let left = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await cancellation(run, (whole * (i + 1)) / (RUNS + 2));
        if (!r.finishedFirst) {
          samples.push(r.ms);
          gone.push(r.goneMs);
        }
        left = Math.max(left, r.leftChildren);
      }
      console.log(
        `cancellation of a running whole-tree grep (${name}): stop signal due → tool result ${samples.length === 0 ? 'not measured (every search ended before its signal)' : `${fmt(median(samples))} ms median, ${fmt(Math.max(...samples))} ms max of ${samples.length}`} (target ≤ 100 ms; uncancelled search ${fmt(whole)} ms)${full === 'rg' ? `; rg gone ${gone.length === 0 ? '-' : `${fmt(median(gone))} ms median, ${fmt(Math.max(...gone))} ms max`} after the result, still running 2 s after it: ${left} (target 0)` : ''}`,
      );
    }
    console.log(
      `peak RSS of the bench process (the tools run in it; ripgrep and the tree's generator are child processes): ${peakRssMb().toFixed(0)} MB (target ≤ 256 MB) vs ${floorMb.toFixed(0)} MB with the tools loaded before the first search`,
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const generateInto = process.env.VTPLAN_BENCH_GENERATE_INTO;
if (generateInto === undefined) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  process.stdout.write(JSON.stringify(generateRepo(generateInto, FILES)));
}
