/**
 * Differential check of the shell policy against the shell that really runs commands (/bin/sh).
 * For every command the policy allows, /bin/sh runs it with PATH holding only recording stubs,
 * in an empty folder (globs stay literal) and with HOME=~ (tilde stays literal). Every program
 * the shell started (xtrace, builtins included; not for pipelines, whose traces interleave) must
 * be a program the policy judged, and every argv a stub recorded must be one the policy judged:
 * what was checked is what runs. Each sandbox first proves, with a canary command, that both
 * recordings work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkCommand } from '../../../src/core/policy';
import { scanCommand } from '../../../src/core/policy/shell-scan';
import { corpus } from './corpus';

const RS = '\x1e';
const TRACE = '\x1d';
const US = '\x1f';

function judgedArgv(command: string): string[][] {
  const reading = scanCommand(command);
  assert.ok(reading.ok);
  return reading.segments.map((s) => {
    assert.ok(s.argv.ok && s.argv.syntax === null, `${command}: allowed, yet its words are not plain`);
    return s.argv.words.map((w) => w.text);
  });
}

interface Sandbox {
  run(command: string): { started: string[]; recorded: string[][] };
  dispose(): void;
}

function sandbox(programs: Iterable<string>): Sandbox {
  const root = fs.mkdtempSync(join(os.tmpdir(), 'vtplan-diff-'));
  const bin = join(root, 'bin');
  const work = join(root, 'work');
  const log = join(root, 'log');
  fs.mkdirSync(bin);
  fs.mkdirSync(work);
  // One write per record, so pipeline members recording at once do not interleave.
  const stub = `#!/bin/sh\nus=$(printf '\\037')\nr=\${0##*/}\nfor a in "$@"; do r="$r$us$a"; done\nprintf '%s\\036' "$r" >> "$VTPLAN_LOG"\n`;
  for (const p of programs) if (/^[\w.[-]+$/.test(p)) fs.writeFileSync(join(bin, p), stub, { mode: 0o755 });
  const box: Sandbox = {
    run(command) {
      fs.writeFileSync(log, '');
      const r = spawnSync('/bin/sh', ['-xc', command], {
        cwd: work,
        env: { PATH: bin, HOME: '~', VTPLAN_LOG: log, PS4: TRACE },
        encoding: 'utf8',
        timeout: 5000,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // dash writes the trace prompt and the command separately: split on the prompt marker.
      const started = r.stderr
        .split(TRACE)
        .slice(1)
        .map((chunk) => chunk.split(/[ \n]/)[0] as string)
        .filter((name) => name !== '');
      const recorded = fs
        .readFileSync(log, 'utf8')
        .split(RS)
        .filter((x) => x !== '')
        .map((x) => x.split(US));
      return { started, recorded };
    },
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  proveRecording(box);
  return box;
}

/**
 * The harness checks itself before it checks the policy: a broken recording (log elsewhere,
 * trace marker changed) would record nothing and pass every command.
 */
function proveRecording(box: Sandbox): void {
  const canary = box.run('ls canary-arg; cat canary-file');
  assert.deepEqual(
    canary.recorded,
    [
      ['ls', 'canary-arg'],
      ['cat', 'canary-file'],
    ],
    'the recording stubs log the argv of every program run',
  );
  assert.deepEqual(canary.started, ['ls', 'cat'], 'the xtrace marker finds every program started');
}

function assertRunsAsJudged(box: Sandbox, command: string): void {
  const judged = judgedArgv(command);
  const { started, recorded } = box.run(command);
  const names = new Set(judged.map((w) => w[0]));
  // Pipeline members trace concurrently and dash writes a trace word by word, so their traces
  // interleave; for pipelines the recorded argv below is the check.
  const traced = scanCommand(command).ok && judged.length > 0 && !command.includes('|') ? started : [];
  for (const name of traced)
    assert.ok(
      names.has(name),
      `${JSON.stringify(command)}: /bin/sh started \`${name}\`, which the policy never judged`,
    );
  const remaining = judged.map((w) => w.join(US));
  for (const argv of recorded) {
    const at = remaining.indexOf(argv.join(US));
    assert.ok(
      at >= 0,
      `${JSON.stringify(command)}: /bin/sh ran ${JSON.stringify(argv)}; the policy judged ${JSON.stringify(judged)}`,
    );
    remaining.splice(at, 1);
  }
}

const PROGRAMS = [
  'ls',
  'cat',
  'rg',
  'git',
  'sed',
  'grep',
  'find',
  'head',
  'wc',
  'sort',
  'awk',
  'jq',
  'cut',
  'tree',
  'fd',
  'stat',
  'cargo',
  'npm',
  'uniq',
  'date',
  'env',
  'rm',
  'sh',
  'tee',
  'xargs',
];

test('RO-2: every allowed command of the read-only corpus runs under /bin/sh exactly as judged', () => {
  const allowed = corpus('readonly.txt').filter((c) => checkCommand(c, 'plan').allowed);
  const box = sandbox(new Set([...PROGRAMS, ...allowed.flatMap((c) => judgedArgv(c).map((w) => w[0] ?? ''))]));
  try {
    for (const c of allowed) assertRunsAsJudged(box, c);
  } finally {
    box.dispose();
  }
});

const token = fc.oneof(
  fc.constantFrom(...PROGRAMS),
  fc.constantFrom(
    '-la',
    '-n',
    'src',
    'x',
    '--',
    '-',
    '=',
    'a=b',
    '10',
    '2',
    '1',
    '~',
    '~/x',
    '*',
    'src/*',
    '?',
    '[a]',
    '{a,b}',
    '@{u}',
    '#',
    '!',
  ),
  fc.constantFrom("'a b'", '"q"', '"$"', "'$x'", '\\;', '\\|', 'a\\ b', '\\', "'", '"', '$', '$x', '`x`', '$(x)'),
  fc.constantFrom(
    '2>&1',
    '>/dev/null',
    '2>/dev/null',
    '<',
    '>',
    '>>',
    '&>',
    '>&',
    '<&',
    '<>',
    '|',
    '&&',
    '||',
    ';',
    '&',
    '|&',
    '(',
    ')',
    '{',
    '}',
    ';;',
  ),
);

test('RO-2: escapes, quotes and redirections found by fuzzing run as judged', () => {
  const box = sandbox(PROGRAMS);
  try {
    for (const c of [
      'ls \\ >/dev/null',
      'cat a\\ b 2>&1',
      "rg 'a  b' src",
      'rg "foo$" .',
      'git log @{u}..HEAD',
      'ls \\#x',
      'cat "a\\"b"',
      "ls ''",
      'ls -la 2>/dev/null 1>&2',
    ]) {
      assert.equal(checkCommand(c, 'plan').allowed, true, c);
      assertRunsAsJudged(box, c);
    }
  } finally {
    box.dispose();
  }
});

const RUNS = 1500;

test('RO-2, RO-3: generated commands the policy allows run under /bin/sh exactly as judged', () => {
  const box = sandbox(PROGRAMS);
  let allowed = 0;
  try {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROGRAMS),
        fc.array(fc.tuple(token, fc.constantFrom(' ', '')), { maxLength: 7 }),
        (head, rest) => {
          const command = head + rest.map(([t, sep]) => sep + t).join('');
          if (!checkCommand(command, 'plan').allowed) return;
          allowed += 1;
          assertRunsAsJudged(box, command);
        },
      ),
      { numRuns: RUNS },
    );
  } finally {
    box.dispose();
  }
  console.log(`differential: ${allowed} of ${RUNS} generated commands were allowed and ran as judged`);
  assert.ok(
    allowed > 100,
    `only ${allowed} generated commands were allowed; the generator no longer exercises the policy`,
  );
});
