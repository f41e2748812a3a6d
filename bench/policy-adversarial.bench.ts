/**
 * Worst case of everything `run_command` checks before running (checkCommandInWorkspace: the
 * read-only policy and the workspace path rule) on adversarial inputs up to the 16 KiB the policy
 * reads: long `cd` chains (each `cd DIR;` used to double the folders tracked), deep nesting of
 * `$(`, `(` and quotes, thousands of pipes, long brace expansions, long sed/awk/jq programs.
 * Prints the slowest input's time (best of several runs, plan and build mode) beside a fixed
 * calibration loop measured in the same run (bench/lib/calibration.ts), so the ratio compares across machines.
 * `npx tsx bench/policy-adversarial.bench.ts`
 */
import { checkCommandInWorkspace } from '../src/core/policy';
import { MAX_COMMAND_LENGTH } from '../src/core/policy/shell-scan';
import { Calibration } from './lib/calibration';

const ROOT = '/work/repo';
const RUNS = 5;

/** `unit` repeated (joined by `sep`) as often as fits in the policy's limit, then `tail`. */
function fill(unit: string, sep = '', head = '', tail = ''): string {
  const room = MAX_COMMAND_LENGTH - head.length - tail.length;
  const count = Math.floor((room + sep.length) / (unit.length + sep.length));
  return head + Array.from({ length: count }, () => unit).join(sep) + tail;
}

const distinct = (n: number, f: (i: number) => string, sep: string): string => {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; i < n; i += 1) {
    const p = f(i);
    if (length + p.length + sep.length + 3 > MAX_COMMAND_LENGTH) break;
    parts.push(p);
    length += p.length + sep.length;
  }
  return `${parts.join(sep)}${sep}ls`;
};

const INPUTS: [string, string][] = [
  ['cd src; chain', fill('cd src', '; ', '', '; ls')],
  ['cd src && chain', fill('cd src', ' && ', '', ' && ls')],
  ['cd DIR; distinct folders', distinct(5000, (i) => `cd d${i}`, '; ')],
  ['cd DIR || distinct folders', distinct(5000, (i) => `cd d${i}`, ' || ')],
  ['pushd/popd chain', distinct(5000, (i) => (i % 2 === 0 ? `pushd d${i}` : 'popd'), '; ')],
  ['./ words from 8 folders', fill('./x', ' ', 'cd a; cd b; cd c; cat ')],
  ['hidden paths from 8 folders', fill('.x/.y', ' ', 'cd a; cd b; cd c; cat ')],
  ['climbing paths from a deep folder', fill('../a/../a', ' ', `cd ${fill('d', '/').slice(0, 6000)} && cat `)],
  ['cd a/b/c… && chain', fill('cd a/b/c/d/e/f/g/h', ' && ', '', ' && ls')],
  ['deep $( nesting', fill('$(', '', 'echo ')],
  ['deep ( nesting', fill('(', '', 'ls ')],
  ['deep "$( nesting', fill('"$(', '', 'echo ')],
  ['alternating quotes', fill(`"'"'`, '', 'echo ')],
  ['unterminated ${x', fill('${x', ' ', 'ls ')],
  ['many pipes', fill('ls', ' | ')],
  ['many ; segments', fill('ls', '; ')],
  ['many && segments', fill('cat a', ' && ')],
  ['long brace expansion', `echo {${fill('a', ',', '', '').slice(0, MAX_COMMAND_LENGTH - 7)}}`],
  ['nested braces', fill('{a,', '', 'echo ')],
  ['long word', fill('a', '', 'cat ')],
  ['many words with #', fill('a#b', ' ', 'echo ')],
  ['many backslashes', fill('\\\\', '', 'echo ')],
  ['many redirections', fill('<a', ' ', 'cat ')],
  ['many globs', fill('*?', '', 'ls ./')],
  ['many dot-dot paths', fill('../x', ' ', 'cat ')],
  ['many rev:path words', fill('HEAD:a/b', ' ', 'git show ')],
  ['long sed script', fill('p', ';', "sed -n '", "' f")],
  ['long sed label chain', fill(':a;ba', ';', "sed -n '", "' f")],
  ['many sed -e', fill("-e 's/a/b/'", ' ', 'sed -n ', ' f')],
  ['long awk program', fill('print $1 > 2', '; ', "awk '{", "}' f")],
  ['long jq filter', fill('"\\(.a)"', ' | ', "jq '", "' f")],
  ['long xxd options', fill('-c8', ' ', 'xxd ', ' f')],
  ['sh -c nesting', fill('sh -c "', '', '', 'ls')],
  ['eval chain', fill('eval', ' ', '', ' ls')],
  ['env sh -c chain', fill('env sh -c', ' ', '', ' ls')],
];

function bestMs(command: string): number {
  let best = Infinity;
  for (const mode of ['plan', 'build'] as const) checkCommandInWorkspace(command, mode, ROOT);
  for (let r = 0; r < RUNS; r += 1) {
    for (const mode of ['plan', 'build'] as const) {
      const start = process.hrtime.bigint();
      checkCommandInWorkspace(command, mode, ROOT);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return best;
}

const calibration = new Calibration(3);
const results = INPUTS.map(([name, command]) => {
  calibration.sample();
  return { name, length: command.length, ms: bestMs(command) };
});
results.sort((a, b) => b.ms - a.ms);
const worst = results[0] as { name: string; length: number; ms: number };
console.log(
  `policy on adversarial inputs (≤16 KB): max per input ${worst.ms.toFixed(2)} ms (target ≤ 5 ms; ${worst.name}, ${worst.length} chars) over ${results.length} inputs; ${calibration.describe(worst.ms, 5)}`,
);
for (const r of results.slice(0, 5)) console.log(`  ${r.name} (${r.length} chars): ${r.ms.toFixed(2)} ms`);
